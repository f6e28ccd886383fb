// A thread's name for the trace, from what the process knows before the kernel's copy: Linux keeps 15
// bytes of a thread's name, so libdispatch's "com.apple.root.default-qos" reads "oot.default-qos" there,
// and a thread nobody named is called by the process's name, like every other such thread.
//
// In order: the main thread is the program, by its whole name (unless the app renamed it); a name the
// app gave the thread (pthread_setname_np; Foundation's Thread.name on Apple platforms, which sets it);
// the label of the dispatch queue the thread runs (a worker of libdispatch, or any thread inside a
// queue's block), whole; otherwise no name — the trace shows the thread by its number — rather than the
// program's name, which every thread nobody named inherits on Linux. Foundation on Linux does not pass
// Thread.name to the thread (Thread.current.name reads the kernel's copy back), so there is nothing
// more to ask it.
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/syscall.h>
#endif
#include "CBindTrace.h"

/// The bytes of a thread's name the Linux kernel keeps, its NUL left out.
#define BIND_TRACE_KERNEL_NAME_BYTES 15

#if defined(__APPLE__)
#include <dispatch/dispatch.h>
#else
// libdispatch is loaded with the Swift runtime on Linux, but nothing here links it: a weak reference
// is NULL when it is absent.
extern const char *dispatch_queue_get_label(void *queue) __attribute__((weak));
#endif

/// The label of the queue the calling thread runs, or NULL. Outside any queue libdispatch answers
/// with one of its root queues' labels, so only a root label that the thread's kernel name is the end
/// of (a worker it named) counts, and every other label counts.
static const char *current_queue_label(void) {
#if defined(__APPLE__)
    return dispatch_queue_get_label(DISPATCH_CURRENT_QUEUE_LABEL);
#else
    return dispatch_queue_get_label != NULL ? dispatch_queue_get_label(NULL) : NULL;
#endif
}

static const char root_prefix[] = "com.apple.root.";

static bool has_suffix(const char *text, const char *suffix) {
    size_t length = strlen(text), suffix_length = strlen(suffix);
    return suffix_length > 0 && suffix_length <= length && strcmp(text + length - suffix_length, suffix) == 0;
}

/// Whether `kernel` is the end of a libdispatch root queue's label: the name its workers get.
static bool is_root_queue_name(const char *kernel) {
    static const char *const qos[] = {"maintenance", "background",     "utility",
                                      "default",     "user-initiated", "user-interactive"};
    char label[64];
    for (size_t index = 0; index < sizeof qos / sizeof qos[0]; index++) {
        for (int overcommit = 0; overcommit < 2; overcommit++) {
            strcpy(label, root_prefix);
            strcat(label, qos[index]);
            strcat(label, overcommit ? "-qos.overcommit" : "-qos");
            if (has_suffix(label, kernel)) return true;
        }
    }
    return false;
}

static bool is_main_thread(void) {
#if defined(__APPLE__)
    return pthread_main_np() != 0;
#elif defined(__linux__)
    return syscall(SYS_gettid) == getpid();
#else
    return false;
#endif
}

/// The program's name as the kernel names its threads (the start of the executable's name), and whole.
static const char *program_name(void) {
#if defined(__APPLE__)
    return getprogname();
#elif defined(__GLIBC__)
    return program_invocation_short_name;
#else
    return NULL;
#endif
}

static void copy_name(char *buffer, int size, const char *name) {
    if (size <= 0) return;
    size_t length = strlen(name);
    if (length > (size_t)size - 1) length = (size_t)size - 1;
    memcpy(buffer, name, length);
    buffer[length] = 0;
}

/// Whether `kernel` is what a thread inherits from the program's name (its first 15 bytes on Linux).
static bool is_program_name(const char *kernel, const char *program) {
    if (program == NULL) return false;
    size_t length = strlen(kernel), program_length = strlen(program);
    size_t kept = program_length < BIND_TRACE_KERNEL_NAME_BYTES ? program_length : BIND_TRACE_KERNEL_NAME_BYTES;
    return length == kept && strncmp(kernel, program, length) == 0;
}

void bind_trace_thread_name(char *buffer, int size) {
    if (size <= 0) return;
    buffer[0] = 0;
    char kernel[BIND_TRACE_THREAD_NAME_LENGTH] = {0};
#if defined(__APPLE__) || defined(__GLIBC__)
    if (pthread_getname_np(pthread_self(), kernel, sizeof kernel) != 0) kernel[0] = 0;
#endif
    const char *program = program_name();
    bool inherited = kernel[0] == 0 || is_program_name(kernel, program);
    if (is_main_thread()) {
        copy_name(buffer, size, inherited && program != NULL ? program : kernel);
        return;
    }
    bool dispatch_named = !inherited && is_root_queue_name(kernel);
    if (!inherited && !dispatch_named) {
        copy_name(buffer, size, kernel);
        return;
    }

    const char *label = current_queue_label();
    if (label != NULL && label[0] != 0) {
        bool root = strncmp(label, root_prefix, sizeof root_prefix - 1) == 0;
        if (!root || (dispatch_named && has_suffix(label, kernel))) {
            copy_name(buffer, size, label);
            return;
        }
    }
    // A worker of libdispatch in no queue it can name: the end of its root queue's label, as the kernel has it.
    if (dispatch_named) copy_name(buffer, size, kernel);
    // Otherwise a thread nobody named: no name, rather than the program's, which every such thread has.
}
