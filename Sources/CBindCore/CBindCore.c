#include "CBindCore.h"
#include <stdatomic.h>

_Thread_local bind_cascade_state bind_cascade_current;

static _Atomic(uint64_t) bind_next_container_id = 1;

uint64_t bind_new_container_id(void) {
    return atomic_fetch_add_explicit(&bind_next_container_id, 1, memory_order_relaxed);
}
