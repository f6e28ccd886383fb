#ifndef CBINDTRACE_H
#define CBINDTRACE_H
// The few things the recorder needs from C: a relaxed flag read on every hot path, atomic
// counters, thread-local cause tracking, a cheap tick clock, and the lock-free update path (the
// stream word and the per-thread rings). Linked only into the Tracing build.
#include <stdint.h>
#include <stdbool.h>
#include <stdatomic.h>
#include <time.h>
#include "CBindCore.h"
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

/// Ticks of the cheapest monotonic counter: the TSC on x86 (about 12 ns to read on our VMs,
/// against about 30 ns for clock_gettime), else CLOCK_MONOTONIC in nanoseconds.
static inline uint64_t bind_trace_ticks(void) {
#if defined(__x86_64__) || defined(__i386__)
    return __rdtsc();
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#endif
}
static inline bool bind_trace_ticks_are_nanoseconds(void) {
#if defined(__x86_64__) || defined(__i386__)
    return false;
#else
    return true;
#endif
}
static inline uint64_t bind_trace_monotonic_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

extern _Atomic(bool) bind_trace_recording_flag;
extern _Atomic(bool) bind_trace_previews_flag;
extern _Atomic(uint64_t) bind_trace_next_output_id;
extern _Atomic(uint64_t) bind_trace_next_subscription_id;
extern _Atomic(uint64_t) bind_trace_next_scope_id;

/// The subscription whose closure runs on this thread, and the event that is delivering to it.
typedef struct {
    uint64_t subscription;
    uint64_t event;
} bind_trace_cause;

extern _Thread_local bind_trace_cause bind_trace_current_cause;

static inline bind_trace_cause *bind_trace_cause_slot(void) { return &bind_trace_current_cause; }

// MARK: - The stream word

/// The recording's ordering in one atomic word: the stream's epoch (high 20 bits; 0 while no
/// stream is open) and the sequence number of the last event taken (low 44 bits). Every event takes
/// its number from it, so events of all threads are totally ordered without a lock; and an update
/// recorded without the lock takes its number only if the epoch it checked its Output against is
/// still current (a compare-and-swap of the whole word), so a sink that joins (a new epoch) never
/// receives an update of an Output not announced to it.
#define BIND_TRACE_SEQUENCE_BITS 44
#define BIND_TRACE_SEQUENCE_MASK 0xFFFFFFFFFFFull
#define BIND_TRACE_EPOCH_MASK 0xFFFFF
/// The word, on a cache line of its own: every event writes it, so nothing another thread reads
/// on its way (the recording flag every probe reads) may share the line.
typedef struct {
    _Atomic(uint64_t) word;
    char rest_of_line[56];
} bind_trace_stream_line;
extern _Alignas(64) bind_trace_stream_line bind_trace_stream;
#define bind_trace_stream_word (bind_trace_stream.word)

/// Takes the next sequence number (the recording lock held).
static inline uint64_t bind_trace_stream_take(void) {
    return (atomic_fetch_add_explicit(&bind_trace_stream_word, 1, memory_order_acq_rel) & BIND_TRACE_SEQUENCE_MASK) + 1;
}
/// The sequence number of the last event taken.
static inline uint64_t bind_trace_stream_last(void) {
    return atomic_load_explicit(&bind_trace_stream_word, memory_order_acquire) & BIND_TRACE_SEQUENCE_MASK;
}
/// Makes `epoch` the stream's epoch (0: no stream), keeping its sequence; returns the last number
/// taken under the old epoch: every lock-free update numbered after it checked the new one.
static inline uint64_t bind_trace_stream_set_epoch(uint32_t epoch) {
    uint64_t word = atomic_load_explicit(&bind_trace_stream_word, memory_order_relaxed);
    uint64_t next;
    do {
        next =
            ((uint64_t)(epoch & BIND_TRACE_EPOCH_MASK) << BIND_TRACE_SEQUENCE_BITS) | (word & BIND_TRACE_SEQUENCE_MASK);
    } while (!atomic_compare_exchange_weak_explicit(
        &bind_trace_stream_word, &word, next, memory_order_acq_rel, memory_order_relaxed));
    return word & BIND_TRACE_SEQUENCE_MASK;
}
/// An Output's announced epoch, read by the lock-free update path while the recorder may write it.
static inline uint32_t bind_trace_epoch_load(const uint32_t *cell) { return __atomic_load_n(cell, __ATOMIC_ACQUIRE); }
static inline void bind_trace_epoch_store(uint32_t *cell, uint32_t epoch) {
    __atomic_store_n(cell, epoch, __ATOMIC_RELEASE);
}

// MARK: - Per-thread rings

/// An update or fire recorded without the recording lock, waiting in its thread's ring for the
/// merge that encodes it into the stream in sequence order.
typedef struct {
    uint64_t sequence;
    uint64_t ticks;
    uint64_t output;
    uint64_t cause_event;
    uint64_t cause_subscription;
    uint64_t fire;
} bind_trace_update_record;

#define BIND_TRACE_RING_CAPACITY 1024
/// The bytes a ring keeps of its thread's name, its NUL included.
#define BIND_TRACE_THREAD_NAME_LENGTH 64

/// One thread's updates in sequence order: written only by its thread (`tail`), read and consumed
/// only with the recording lock held (`head`). A ring outlives its thread and is reused, once
/// empty, by a later one.
typedef struct bind_trace_ring {
    // Each counter on a cache line of its own (the ring is allocated aligned to 64 bytes).
    _Atomic(uint64_t) tail;
    char tail_line[56];
    _Atomic(uint64_t) head;
    char head_line[56];
    bind_trace_update_record *records;
    /// The next ring of the registry (recording lock).
    struct bind_trace_ring *next;
    /// Cleared as its thread ends.
    _Atomic(bool) owner_alive;
    /// The thread's number in traces, and its name's string id in strings of `name_generation`
    /// (recording lock).
    uint32_t thread;
    uint64_t name_generation;
    uint64_t name_id;
    /// The thread's name, read on that thread when it claimed the ring or refreshed it.
    char name[BIND_TRACE_THREAD_NAME_LENGTH];
} bind_trace_ring;

/// The thread's name as its ring holds it (NUL-terminated within its 64 bytes). A C accessor:
/// Swift's `&ring.pointee.name` would be an access to the whole ring, which other threads write.
static inline const char *bind_trace_ring_name(const bind_trace_ring *ring) { return ring->name; }

extern _Thread_local bind_trace_ring *bind_trace_current_ring;
static inline bind_trace_ring *bind_trace_ring_current(void) { return bind_trace_current_ring; }

/// Records an update (or fire) of the Output whose announced epoch is in `announced` into the
/// calling thread's ring, without the recording lock; returns its sequence number, or 0 when the
/// locked path must record it (no ring yet, the ring full, no stream, or the Output not announced
/// in the stream's epoch). The cause is the thread's current one.
static inline uint64_t bind_trace_record_update(const uint32_t *announced, uint64_t output, bool fire) {
    bind_trace_ring *ring = bind_trace_current_ring;
    if (ring == NULL) return 0;
    uint64_t tail = atomic_load_explicit(&ring->tail, memory_order_relaxed);
    if (tail - atomic_load_explicit(&ring->head, memory_order_acquire) >= BIND_TRACE_RING_CAPACITY) return 0;
    uint64_t epoch = bind_trace_epoch_load(announced);
    if (epoch == 0) return 0;
    uint64_t word = atomic_load_explicit(&bind_trace_stream_word, memory_order_relaxed);
    do {
        if ((word >> BIND_TRACE_SEQUENCE_BITS) != epoch ||
            (word & BIND_TRACE_SEQUENCE_MASK) == BIND_TRACE_SEQUENCE_MASK)
            return 0;
    } while (!atomic_compare_exchange_weak_explicit(
        &bind_trace_stream_word, &word, word + 1, memory_order_acq_rel, memory_order_relaxed));
    bind_trace_update_record *record = &ring->records[tail & (BIND_TRACE_RING_CAPACITY - 1)];
    uint64_t sequence = (word & BIND_TRACE_SEQUENCE_MASK) + 1;
    record->sequence = sequence;
    record->ticks = bind_trace_ticks();
    record->output = output;
    record->cause_event = bind_trace_current_cause.event;
    record->cause_subscription = bind_trace_current_cause.subscription;
    record->fire = fire;
    atomic_store_explicit(&ring->tail, tail + 1, memory_order_release);
    return sequence;
}

/// The calling thread's ring: a free one (its thread ended and it is empty) or a new one; named
/// after the thread. Recording lock held.
bind_trace_ring *bind_trace_ring_claim(void);
/// Reads the calling thread's name into its ring.
void bind_trace_ring_read_name(bind_trace_ring *ring);
/// The oldest update waiting in any ring if its number is `sequence`, with its ring in `ring`.
/// When no ring holds it yet (a thread took the number and is writing the record), waits for it:
/// at most `patience` rounds of looking (each after a yield), or forever when `patience` is 0; NULL
/// when the wait ran out. Recording lock held.
const bind_trace_update_record *bind_trace_rings_find(uint64_t sequence, bind_trace_ring **ring, uint64_t patience);
/// The oldest record of `ring` if its number is `sequence`, else NULL. Recording lock held.
static inline const bind_trace_update_record *bind_trace_ring_oldest(bind_trace_ring *ring, uint64_t sequence) {
    uint64_t head = atomic_load_explicit(&ring->head, memory_order_relaxed);
    if (atomic_load_explicit(&ring->tail, memory_order_acquire) == head) return NULL;
    const bind_trace_update_record *record = &ring->records[head & (BIND_TRACE_RING_CAPACITY - 1)];
    return record->sequence == sequence ? record : NULL;
}
/// Consumes the oldest record of `ring`. Recording lock held.
static inline void bind_trace_ring_consume(bind_trace_ring *ring) {
    atomic_store_explicit(
        &ring->head, atomic_load_explicit(&ring->head, memory_order_relaxed) + 1, memory_order_release);
}
/// SIGTERM, SIGINT or SIGHUP handed to the flusher thread (0: none): the handler only claims it and wakes
/// the flusher, which writes the trace by its ordinary path and raises the signal again.
extern _Atomic(int) bind_trace_deferred_signal;
/// Claims the deferred flush for `signal`; false when one is claimed already (a second Ctrl-C).
static inline bool bind_trace_defer_signal(int signal) {
    int none = 0;
    return atomic_compare_exchange_strong(&bind_trace_deferred_signal, &none, signal);
}
static inline void bind_trace_deferred_signal_done(void) { atomic_store(&bind_trace_deferred_signal, 0); }
/// Whether a signal is handed to the flusher and not yet done with.
static inline bool bind_trace_deferred_signal_pending(void) { return atomic_load(&bind_trace_deferred_signal) != 0; }

/// The smallest sequence number any ring holds, or 0 when every ring is empty: after a number
/// nobody wrote (a crash flush that stopped waiting), where the merge goes on. Recording lock held.
uint64_t bind_trace_rings_oldest_pending(void);
/// Empties every ring; only the calling thread keeps its own (a forked child: the other threads
/// are not copied). Recording lock held.
void bind_trace_rings_reset_after_fork(void);

/// The recorder's lock is Bind's own (`bind_core_lock`, from CBindCore): held to encode every event but
/// the lock-free updates (tens of nanoseconds), to merge the rings, or, rarely, to hand a full
/// buffer on. `bind_core_lock_trylock` never waits (for a signal handler).
/// The recording lock and the recorder's state, reached by every recorded event without a lazy
/// global's once-check: the lock is a zero-initialised global, and the state's address is published
/// once (with `ready`) by the first event, after it has made the state and handled BIND_TRACE.
/// On a cache line of its own, as the stream word is: every locked event writes it.
typedef struct {
    bind_core_lock lock;
    char rest_of_line[64 - sizeof(bind_core_lock)];
} bind_trace_lock_line;
extern _Alignas(64) bind_trace_lock_line bind_trace_recording_lock_line;
extern _Atomic(void *) bind_trace_recorder_state_storage;
extern _Atomic(bool) bind_trace_recorder_ready_flag;
static inline bind_core_lock *bind_trace_recording_lock(void) { return &bind_trace_recording_lock_line.lock; }
static inline bool bind_trace_recorder_ready(void) {
    return atomic_load_explicit(&bind_trace_recorder_ready_flag, memory_order_acquire);
}
/// The state published by `bind_trace_set_recorder_ready`; call only once `bind_trace_recorder_ready()` is true.
static inline void *bind_trace_recorder_state(void) {
    return atomic_load_explicit(&bind_trace_recorder_state_storage, memory_order_relaxed);
}
static inline void bind_trace_set_recorder_ready(void *state) {
    atomic_store_explicit(&bind_trace_recorder_state_storage, state, memory_order_relaxed);
    atomic_store_explicit(&bind_trace_recorder_ready_flag, true, memory_order_release);
}
/// The name of the calling thread, from what the process knows before the kernel's truncated copy
/// ("" when it has none of its own); ThreadName.c has the rules.
void bind_trace_thread_name(char *buffer, int size);
/// The BIND_TRACE path read at load time, or NULL.
const char *bind_trace_autostart_path(void);

static inline bool bind_trace_is_recording(void) {
    return atomic_load_explicit(&bind_trace_recording_flag, memory_order_relaxed);
}
static inline void bind_trace_set_recording(bool on) {
    atomic_store_explicit(&bind_trace_recording_flag, on, memory_order_release);
}
static inline bool bind_trace_previews_enabled(void) {
    return atomic_load_explicit(&bind_trace_previews_flag, memory_order_relaxed);
}
static inline void bind_trace_set_previews(bool on) {
    atomic_store_explicit(&bind_trace_previews_flag, on, memory_order_relaxed);
}
static inline uint64_t bind_trace_new_output_id(void) {
    return atomic_fetch_add_explicit(&bind_trace_next_output_id, 1, memory_order_relaxed);
}
static inline uint64_t bind_trace_new_subscription_id(void) {
    return atomic_fetch_add_explicit(&bind_trace_next_subscription_id, 1, memory_order_relaxed);
}
static inline uint64_t bind_trace_new_scope_id(void) {
    return atomic_fetch_add_explicit(&bind_trace_next_scope_id, 1, memory_order_relaxed);
}

#endif
