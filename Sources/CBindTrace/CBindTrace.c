#define _GNU_SOURCE
#include <pthread.h>
#include <string.h>
#include "CBindTrace.h"
#include <stdlib.h>

_Atomic(bool) bt_recording_flag = false;
_Atomic(bool) bt_previews_flag = false;
bind_lock bt_recording_lock_storage;
_Atomic(void *) bt_recorder_state_storage = NULL;
_Atomic(bool) bt_recorder_ready_flag = false;
_Atomic(uint64_t) bt_next_output_id = 1;
_Atomic(uint64_t) bt_next_subscription_id = 1;
_Atomic(uint64_t) bt_next_scope_id = 1;

_Thread_local bt_cause bt_current_cause = {0, 0};
_Thread_local uint32_t bt_current_thread = 0;
_Thread_local bt_thread_name_cache bt_current_thread_name = {0, 0};
static const char *autostart_path = NULL;

const char *bt_autostart_path(void) { return autostart_path; }

// BIND_TRACE=/path records from the first Bind call: switch the flag on before main runs, so
// the Swift recorder starts lazily on the first event without any code in the app.
__attribute__((constructor)) static void bt_read_environment(void) {
    const char *path = getenv("BIND_TRACE");
    if (path != NULL && path[0] != '\0') {
        autostart_path = path;
        atomic_store(&bt_recording_flag, true);
    }
    const char *values = getenv("BIND_TRACE_VALUES");
    if (values != NULL && (strcmp(values, "1") == 0 || strcmp(values, "true") == 0 || strcmp(values, "yes") == 0)) {
        atomic_store(&bt_previews_flag, true);
    }
}

void bt_thread_name(char *buffer, int size) {
    buffer[0] = 0;
#if defined(__APPLE__) || defined(__GLIBC__)
    if (pthread_getname_np(pthread_self(), buffer, (size_t)size) != 0) buffer[0] = 0;
#endif
}
