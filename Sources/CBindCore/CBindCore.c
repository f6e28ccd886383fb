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

_Thread_local bind_cascade_state bind_cascade_current;

static _Atomic(uint64_t) bind_next_container_id = 1;

uint64_t bind_new_container_id(void) {
    return atomic_fetch_add_explicit(&bind_next_container_id, 1, memory_order_relaxed);
}

/// Spins this many times before parking: a critical section is a few loads and stores, so a holder
/// that is running gives the lock back well within it; one that is not running will not, however
/// long we spin.
enum { bind_lock_spins = 100 };

static inline void bind_lock_pause(void) {
#if defined(__x86_64__) || defined(__i386__)
    _mm_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

#if defined(__linux__)
static void bind_futex_wait(_Atomic(int) *word, int expected) {
    syscall(SYS_futex, (int *)word, FUTEX_WAIT_PRIVATE, expected, NULL, NULL, 0);
}
static void bind_futex_wake_one(_Atomic(int) *word) {
    syscall(SYS_futex, (int *)word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}
#else
// No futex: a parked waiter naps and looks again; an unlock has nobody to wake.
static void bind_futex_wait(_Atomic(int) *word, int expected) {
    (void)word;
    (void)expected;
    struct timespec nap = {0, 20000};
    nanosleep(&nap, NULL);
}
static void bind_futex_wake_one(_Atomic(int) *word) { (void)word; }
#endif

void bind_lock_wait(bind_lock *lock) {
    for (int spins = 0; spins < bind_lock_spins; spins++) {
        bind_lock_pause();
        int state = atomic_load_explicit(&lock->state, memory_order_relaxed);
        if (state == 2) break;  // others are parked already: queue behind them rather than barge
        if (state == 0) {
            int expected = 0;
            if (atomic_compare_exchange_weak_explicit(&lock->state, &expected, 1, memory_order_acquire,
                                                      memory_order_relaxed))
                return;
        }
    }
    // Mark the lock contended (2) as we take it or before we park, so its holder's unlock wakes one
    // waiter. Taking it as 2 may cost one spare wake later; never a lost one.
    while (atomic_exchange_explicit(&lock->state, 2, memory_order_acquire) != 0) {
        bind_futex_wait(&lock->state, 2);
    }
}

void bind_lock_wake(bind_lock *lock) { bind_futex_wake_one(&lock->state); }
