#include "CBindCore.h"
#include <sched.h>
#include <time.h>
#include <stdatomic.h>
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

_Thread_local bind_cascade_state bind_cascade_current;

static _Atomic(uint64_t) bind_next_container_id = 1;

uint64_t bind_new_container_id(void) {
    return atomic_fetch_add_explicit(&bind_next_container_id, 1, memory_order_relaxed);
}

void bind_lock_wait(bind_lock *lock) {
    for (int spins = 0;; spins++) {
        if (atomic_load_explicit(&lock->held, memory_order_relaxed) == 0 &&
            atomic_exchange_explicit(&lock->held, 1, memory_order_acquire) == 0) {
            return;
        }
        if (spins < 64) {
#if defined(__x86_64__) || defined(__i386__)
            _mm_pause();
#endif
        } else if (spins < 64 + 32) {
            sched_yield();
        } else {
            // The holder is descheduled (more threads than cores): give the CPU back for a while
            // rather than yield in a loop that the scheduler may hand straight back to us.
            struct timespec nap = {0, 20000};
            nanosleep(&nap, NULL);
        }
    }
}
