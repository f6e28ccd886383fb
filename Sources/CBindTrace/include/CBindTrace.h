#ifndef CBINDTRACE_H
#define CBINDTRACE_H
// The few things the recorder needs from C: a relaxed flag read on every hot path, atomic
// counters, thread-local cause tracking and a cheap tick clock. Linked only into the Tracing build.
#include <stdint.h>
#include <stdbool.h>
#include <stdatomic.h>
#include <time.h>
#include "CBindCore.h"
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

extern _Atomic(bool) bt_recording_flag;
extern _Atomic(bool) bt_previews_flag;
extern _Atomic(uint64_t) bt_next_output_id;
extern _Atomic(uint64_t) bt_next_subscription_id;
extern _Atomic(uint64_t) bt_next_scope_id;

/// The subscription whose closure runs on this thread, and the event that is delivering to it.
typedef struct { uint64_t subscription; uint64_t event; } bt_cause;

extern _Thread_local bt_cause bt_current_cause;
extern _Thread_local uint32_t bt_current_thread;

static inline bt_cause *bt_cause_slot(void) { return &bt_current_cause; }
static inline uint32_t *bt_thread_slot(void) { return &bt_current_thread; }

/// The calling thread's name as a string id of the trace strings of `generation` (0: not looked up
/// yet): looking the name up costs a system call and a string hash, too much for every switch
/// between two threads that record in turn.
typedef struct { uint64_t generation; uint64_t id; } bt_thread_name_cache;
extern _Thread_local bt_thread_name_cache bt_current_thread_name;
static inline bt_thread_name_cache *bt_thread_name_slot(void) { return &bt_current_thread_name; }

/// The recorder's lock is Bind's own (`bind_lock`, from CBindCore): held only to encode a record
/// (tens of nanoseconds) or, rarely, to hand a full buffer on. `bind_lock_trylock` never waits
/// (for a signal handler).
/// The recording lock and the recorder's state, reached by every recorded event without a lazy
/// global's once-check: the lock is a zero-initialised global, and the state's address is published
/// once (with `ready`) by the first event, after it has made the state and handled BIND_TRACE.
extern bind_lock bt_recording_lock_storage;
extern _Atomic(void *) bt_recorder_state_storage;
extern _Atomic(bool) bt_recorder_ready_flag;
static inline bind_lock *bt_recording_lock(void) { return &bt_recording_lock_storage; }
static inline bool bt_recorder_ready(void) {
    return atomic_load_explicit(&bt_recorder_ready_flag, memory_order_acquire);
}
/// The state published by `bt_set_recorder_ready`; call only once `bt_recorder_ready()` is true.
static inline void *bt_recorder_state(void) {
    return atomic_load_explicit(&bt_recorder_state_storage, memory_order_relaxed);
}
static inline void bt_set_recorder_ready(void *state) {
    atomic_store_explicit(&bt_recorder_state_storage, state, memory_order_relaxed);
    atomic_store_explicit(&bt_recorder_ready_flag, true, memory_order_release);
}
/// The name of the calling thread ("" when it has none).
void bt_thread_name(char *buffer, int size);
/// The BIND_TRACE path read at load time, or NULL.
const char *bt_autostart_path(void);

static inline bool bt_is_recording(void) {
    return atomic_load_explicit(&bt_recording_flag, memory_order_relaxed);
}
static inline void bt_set_recording(bool on) {
    atomic_store_explicit(&bt_recording_flag, on, memory_order_release);
}
static inline bool bt_previews_enabled(void) {
    return atomic_load_explicit(&bt_previews_flag, memory_order_relaxed);
}
static inline void bt_set_previews(bool on) {
    atomic_store_explicit(&bt_previews_flag, on, memory_order_relaxed);
}
static inline uint64_t bt_new_output_id(void) {
    return atomic_fetch_add_explicit(&bt_next_output_id, 1, memory_order_relaxed);
}
static inline uint64_t bt_new_subscription_id(void) {
    return atomic_fetch_add_explicit(&bt_next_subscription_id, 1, memory_order_relaxed);
}
static inline uint64_t bt_new_scope_id(void) {
    return atomic_fetch_add_explicit(&bt_next_scope_id, 1, memory_order_relaxed);
}

/// Ticks of the cheapest monotonic counter: the TSC on x86 (about 12 ns to read on our VMs,
/// against about 30 ns for clock_gettime), else CLOCK_MONOTONIC in nanoseconds.
static inline uint64_t bt_ticks(void) {
#if defined(__x86_64__) || defined(__i386__)
    return __rdtsc();
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#endif
}
static inline bool bt_ticks_are_nanoseconds(void) {
#if defined(__x86_64__) || defined(__i386__)
    return false;
#else
    return true;
#endif
}
static inline uint64_t bt_monotonic_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#endif
