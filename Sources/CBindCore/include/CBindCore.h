#ifndef CBINDCORE_H
#define CBINDCORE_H
// Thread-local state of Bind's core, in both builds: how deep the current thread is in a cascade
// of derived updates or Output releases, and the work deferred past the depth limit.
#include <stdint.h>

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

#endif
