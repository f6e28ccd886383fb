#include "CBindCore.h"
#include <sched.h>
#include <time.h>
#include <stdatomic.h>
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif
#if defined(__linux__)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

_Thread_local bind_core_cascade_state bind_core_cascade_current;

static _Atomic(uint64_t) bind_core_next_container_id = 1;

uint64_t bind_core_new_container_id(void) {
    return atomic_fetch_add_explicit(&bind_core_next_container_id, 1, memory_order_relaxed);
}

/// How many times a waiter looks before it parks: a critical section is a few loads and stores, so
/// a holder that is running gives the lock back well within this; one that is not running will
/// not, however long we spin.
enum { bind_core_lock_spins = 128 };

/// The longest park: bounds the rare wake-up lost to the unfenced unlock (see CBindCore.h).
static const struct timespec bind_core_lock_longest_park = {0, 100000};

static inline void bind_core_lock_pause(void) {
#if defined(__x86_64__) || defined(__i386__)
    _mm_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

static void bind_core_lock_park(bind_core_lock *lock) {
#if defined(__linux__)
    // Returns at once unless `held` is still 1; also on a wake, a signal or the time-out.
    syscall(SYS_futex, (int *)&lock->held, FUTEX_WAIT_PRIVATE, 1, &bind_core_lock_longest_park, NULL, 0);
#else
    nanosleep(&bind_core_lock_longest_park, NULL);
#endif
}

void bind_core_lock_wait(bind_core_lock *lock) {
    for (;;) {
        for (int spins = 0; spins < bind_core_lock_spins; spins++) {
            bind_core_lock_pause();
            if (atomic_load_explicit(&lock->held, memory_order_relaxed) == 0 &&
                atomic_exchange_explicit(&lock->held, 1, memory_order_acquire) == 0) {
                return;
            }
        }
        // Count ourselves before the last look, so an unlock after that look sees us and wakes us.
        atomic_fetch_add_explicit(&lock->parked, 1, memory_order_seq_cst);
        if (atomic_exchange_explicit(&lock->held, 1, memory_order_acquire) == 0) {
            atomic_fetch_sub_explicit(&lock->parked, 1, memory_order_relaxed);
            return;
        }
        bind_core_lock_park(lock);
        atomic_fetch_sub_explicit(&lock->parked, 1, memory_order_relaxed);
        atomic_store_explicit(&lock->waking, 0, memory_order_relaxed);
    }
}

void bind_core_lock_wake(bind_core_lock *lock) {
    // One wake at a time: while a woken waiter has not run yet, a second would only cost a system
    // call per unlock (the holder of a hot lock unlocks far more often than a waiter is scheduled).
    if (atomic_load_explicit(&lock->waking, memory_order_relaxed) != 0 ||
        atomic_exchange_explicit(&lock->waking, 1, memory_order_relaxed) != 0)
        return;
#if defined(__linux__)
    syscall(SYS_futex, (int *)&lock->held, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
#else
    (void)lock;
#endif
}
