#ifndef CBINDCORE_H
#define CBINDCORE_H
// Thread-local state of Bind's core, in both builds: how deep the current thread is in a cascade
// of derived updates or Output releases, and the work deferred past the depth limit.
#include <stdint.h>
#include <stdatomic.h>
#include <stdbool.h>

/// Per-thread state of the cascade trampoline (see Sources/Bind/Core/Cascade.swift).
typedef struct {
    /// Derived updates and releases nested on this thread right now.
    uint32_t depth;
    /// The deferred work (an unmanaged Swift object), or NULL.
    void *deferred;
} bind_cascade_state;

/// Defined once, in CBindCore.c; the inline accessor below reaches that one variable from any module.
extern _Thread_local bind_cascade_state bind_cascade_current;

/// The calling thread's cascade state.
static inline bind_cascade_state *bind_cascade_slot(void) { return &bind_cascade_current; }

/// A new identity for a SubscriptionContainer in traces: never 0, never reused in a process.
uint64_t bind_new_container_id(void);

/// An Output's lock where the platform has no unfair lock (Linux): taken with one compare-and-swap,
/// given back with one exchange. Held only for a few loads and stores (never around a bound closure),
/// so a waiter first spins briefly; then it parks in the kernel (a futex on Linux) until the holder
/// wakes it, so when threads outnumber cores nobody spins or naps while the holder waits for a CPU.
/// The word is 0 (free), 1 (held) or 2 (held, and a waiter may be parked): only an unlock that
/// finds 2 makes a system call. BENCHMARKS.md ("The lock") has the measurements behind the design.
typedef struct { _Atomic(int) state; } bind_lock;
void bind_lock_wait(bind_lock *lock);
void bind_lock_wake(bind_lock *lock);
static inline void bind_lock_lock(bind_lock *lock) {
    int expected = 0;
    if (__builtin_expect(!atomic_compare_exchange_strong_explicit(&lock->state, &expected, 1, memory_order_acquire,
                                                                  memory_order_relaxed),
                         0))
        bind_lock_wait(lock);
}
/// Takes the lock if it is free; never waits (for a signal handler).
static inline bool bind_lock_trylock(bind_lock *lock) {
    int expected = 0;
    return atomic_compare_exchange_strong_explicit(&lock->state, &expected, 1, memory_order_acquire,
                                                   memory_order_relaxed);
}
static inline void bind_lock_unlock(bind_lock *lock) {
    if (__builtin_expect(atomic_exchange_explicit(&lock->state, 0, memory_order_release) == 2, 0))
        bind_lock_wake(lock);
}

#endif
