#ifndef CBINDCORE_H
#define CBINDCORE_H
// Thread-local state of Bind's core, in both builds: how deep the current thread is in a cascade
// of operator deliveries or Output releases, and the work deferred past the depth limit.
#include <stdint.h>

/// Per-thread state of the cascade trampoline (see Sources/Bind/Core/Cascade.swift).
typedef struct {
    /// Operator deliveries and releases nested on this thread right now.
    uint32_t depth;
    /// The deferred work (an unmanaged Swift object), or NULL.
    void *deferred;
} bind_cascade_state;

/// The calling thread's cascade state.
bind_cascade_state *bind_cascade_slot(void);

/// A new identity for a SubscriptionContainer in traces: never 0, never reused in a process.
uint64_t bind_new_container_id(void);

#endif
