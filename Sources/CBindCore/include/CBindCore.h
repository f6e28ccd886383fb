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
} bind_core_cascade_state;

/// Defined once, in CBindCore.c; the inline accessor below reaches that one variable from any module.
extern _Thread_local bind_core_cascade_state bind_core_cascade_current;

/// The calling thread's cascade state.
static inline bind_core_cascade_state *bind_core_cascade_slot(void) { return &bind_core_cascade_current; }

/// A new identity for a SubscriptionContainer in traces: never 0, never reused in a process.
uint64_t bind_core_new_container_id(void);

/// An Output's lock where the platform has no unfair lock (Linux): one atomic exchange to take it,
/// a plain release store to give it back (then one load), so a round trip costs one atomic
/// instruction where a mutex costs two. Held only for a few loads and stores (never around a bound
/// closure), so a waiter spins briefly; then it parks in the kernel (a futex on Linux), counted in
/// `parked`, and an unlock that sees a parked waiter wakes one. When threads outnumber cores nobody
/// naps while the lock is free. The unlock does not fence its store against that load (a fence
/// would cost what the exchange it saves does), so in a rare race a waiter parks just as the lock
/// is freed and nobody wakes it: a park therefore lasts at most 100 µs before it looks again.
/// BENCHMARKS.md ("The lock") has the measurements behind the design.
typedef struct {
    _Atomic(int) held;
    /// Waiters parked (or about to park) on `held`.
    _Atomic(int) parked;
    /// 1 from a wake until a woken waiter runs: later unlocks make no system call meanwhile.
    _Atomic(int) waking;
} bind_core_lock;
void bind_core_lock_wait(bind_core_lock *lock);
void bind_core_lock_wake(bind_core_lock *lock);
__attribute__((always_inline)) static inline void bind_core_lock_lock(bind_core_lock *lock) {
    if (__builtin_expect(atomic_exchange_explicit(&lock->held, 1, memory_order_acquire), 0)) bind_core_lock_wait(lock);
}
/// Takes the lock if it is free; never waits (for a signal handler).
__attribute__((always_inline)) static inline bool bind_core_lock_trylock(bind_core_lock *lock) {
    return atomic_exchange_explicit(&lock->held, 1, memory_order_acquire) == 0;
}
__attribute__((always_inline)) static inline void bind_core_lock_unlock(bind_core_lock *lock) {
    atomic_store_explicit(&lock->held, 0, memory_order_release);
    if (__builtin_expect(atomic_load_explicit(&lock->parked, memory_order_relaxed) != 0, 0)) bind_core_lock_wake(lock);
}

#endif
