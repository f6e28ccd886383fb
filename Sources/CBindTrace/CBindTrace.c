#define _GNU_SOURCE
#include <pthread.h>
#include <string.h>
#include "CBindTrace.h"
#include <stdlib.h>
#include <sched.h>

_Atomic(bool) bind_trace_recording_flag = false;
_Atomic(bool) bind_trace_previews_flag = false;
_Alignas(64) bind_trace_lock_line bind_trace_recording_lock_line;
_Atomic(void *) bind_trace_recorder_state_storage = NULL;
_Atomic(bool) bind_trace_recorder_ready_flag = false;
_Atomic(int) bind_trace_deferred_signal = 0;
_Atomic(uint64_t) bind_trace_next_output_id = 1;
_Atomic(uint64_t) bind_trace_next_subscription_id = 1;
_Atomic(uint64_t) bind_trace_next_scope_id = 1;

_Alignas(64) bind_trace_stream_line bind_trace_stream;

_Thread_local bind_trace_cause bind_trace_current_cause = {0, 0};
_Thread_local bind_trace_ring *bind_trace_current_ring = NULL;
static const char *autostart_path = NULL;

const char *bind_trace_autostart_path(void) { return autostart_path; }

// BIND_TRACE=/path records from the first Bind call: switch the flag on before main runs, so
// the Swift recorder starts lazily on the first event without any code in the app.
__attribute__((constructor)) static void bind_trace_read_environment(void) {
    const char *path = getenv("BIND_TRACE");
    if (path != NULL && path[0] != '\0') {
        autostart_path = path;
        atomic_store(&bind_trace_recording_flag, true);
    }
    const char *values = getenv("BIND_TRACE_VALUES");
    if (values != NULL && (strcmp(values, "1") == 0 || strcmp(values, "true") == 0 || strcmp(values, "yes") == 0)) {
        atomic_store(&bind_trace_previews_flag, true);
    }
}

// MARK: - Rings

/// Every ring ever made, newest first (recording lock).
static bind_trace_ring *rings = NULL;
/// Where the last record was found: consecutive records usually come from one thread.
static bind_trace_ring *last_found = NULL;
static pthread_key_t ring_key;
static pthread_once_t ring_key_once = PTHREAD_ONCE_INIT;

// As a thread ends, its ring becomes free for a later thread once merged; the thread itself
// claims a new one if something it destroys still records.
static void ring_owner_ended(void *ring) {
    atomic_store_explicit(&((bind_trace_ring *)ring)->owner_alive, false, memory_order_release);
    if (bind_trace_current_ring == ring) bind_trace_current_ring = NULL;
}

static void make_ring_key(void) { pthread_key_create(&ring_key, ring_owner_ended); }

void bind_trace_ring_read_name(bind_trace_ring *ring) { bind_trace_thread_name(ring->name, (int)sizeof ring->name); }

bind_trace_ring *bind_trace_ring_claim(void) {
    pthread_once(&ring_key_once, make_ring_key);
    bind_trace_ring *ring = NULL;
    for (bind_trace_ring *candidate = rings; candidate != NULL; candidate = candidate->next) {
        if (!atomic_load_explicit(&candidate->owner_alive, memory_order_acquire) &&
            atomic_load_explicit(&candidate->tail, memory_order_acquire) ==
                atomic_load_explicit(&candidate->head, memory_order_relaxed)) {
            ring = candidate;
            break;
        }
    }
    if (ring == NULL) {
        void *memory = NULL;
        // Whole cache lines: the merging thread writes the ring's last fields (its name's id),
        // which must share no line with what another thread uses (false sharing).
        if (posix_memalign(&memory, 64, (sizeof(bind_trace_ring) + 63) / 64 * 64) != 0) memory = NULL;
        ring = memory;
        bind_trace_update_record *records = malloc(sizeof(bind_trace_update_record) * BIND_TRACE_RING_CAPACITY);
        if (ring == NULL || records == NULL) {
            free(ring);
            free(records);
            return NULL;
        }
        memset(ring, 0, sizeof *ring);
        ring->records = records;
        ring->next = rings;
        rings = ring;
    }
    atomic_store_explicit(&ring->owner_alive, true, memory_order_relaxed);
    ring->thread = 0;
    ring->name_generation = 0;
    ring->name_id = 0;
    bind_trace_ring_read_name(ring);
    pthread_setspecific(ring_key, ring);
    bind_trace_current_ring = ring;
    return ring;
}

const bind_trace_update_record *bind_trace_rings_find(uint64_t sequence, bind_trace_ring **found, uint64_t patience) {
    for (uint64_t round = 0;; round++) {
        if (last_found != NULL) {
            const bind_trace_update_record *record = bind_trace_ring_oldest(last_found, sequence);
            if (record != NULL) {
                *found = last_found;
                return record;
            }
        }
        for (bind_trace_ring *ring = rings; ring != NULL; ring = ring->next) {
            const bind_trace_update_record *record = bind_trace_ring_oldest(ring, sequence);
            if (record != NULL) {
                last_found = ring;
                *found = ring;
                return record;
            }
        }
        // Taken but not written yet: its thread is between the two, for nanoseconds unless the
        // scheduler took the CPU from it.
        if (patience != 0 && round >= patience) return NULL;
        if (round >= 64) sched_yield();
    }
}

uint64_t bind_trace_rings_oldest_pending(void) {
    uint64_t oldest = 0;
    for (bind_trace_ring *ring = rings; ring != NULL; ring = ring->next) {
        uint64_t head = atomic_load_explicit(&ring->head, memory_order_relaxed);
        if (atomic_load_explicit(&ring->tail, memory_order_acquire) == head) continue;
        uint64_t sequence = ring->records[head & (BIND_TRACE_RING_CAPACITY - 1)].sequence;
        if (oldest == 0 || sequence < oldest) oldest = sequence;
    }
    return oldest;
}

void bind_trace_rings_reset_after_fork(void) {
    for (bind_trace_ring *ring = rings; ring != NULL; ring = ring->next) {
        atomic_store_explicit(
            &ring->head, atomic_load_explicit(&ring->tail, memory_order_relaxed), memory_order_relaxed);
        atomic_store_explicit(&ring->owner_alive, ring == bind_trace_current_ring, memory_order_relaxed);
    }
    last_found = NULL;
}
