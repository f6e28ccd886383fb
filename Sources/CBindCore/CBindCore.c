#include "CBindCore.h"
#include <stdatomic.h>

// A function rather than an inline accessor: code inlined into other modules must reach this one
// thread-local variable, not a copy of its own.
static _Thread_local bind_cascade_state bind_cascade_current;

bind_cascade_state *bind_cascade_slot(void) { return &bind_cascade_current; }

static _Atomic(uint64_t) bind_next_container_id = 1;

uint64_t bind_new_container_id(void) {
    return atomic_fetch_add_explicit(&bind_next_container_id, 1, memory_order_relaxed);
}
