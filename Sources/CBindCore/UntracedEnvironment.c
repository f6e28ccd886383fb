// A build without the Tracing trait records nothing, so BIND_TRACE would be ignored in silence: say
// so, once, on standard error. Compiled only into that build (Package.swift defines BIND_TRACING for
// the Tracing trait, whose CBindTrace reads BIND_TRACE instead); a constructor runs once before main,
// so nothing an Output does pays for it.
#ifndef BIND_TRACING
#if defined(__linux__)
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/// Whether `name` is set to 1, true or yes.
static int bind_core_environment_flag(const char *name) {
    const char *value = getenv(name);
    return value != NULL && (strcmp(value, "1") == 0 || strcmp(value, "true") == 0 || strcmp(value, "yes") == 0);
}

static const char *bind_core_program_name(void) {
#if defined(__APPLE__)
    return getprogname();
#elif defined(__GLIBC__)
    return program_invocation_short_name;
#else
    return "this program";
#endif
}

static void bind_core_write_all(const char *text) {
    size_t length = strlen(text);
    while (length > 0) {
        ssize_t written = write(2, text, length);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) return;
        text += written;
        length -= (size_t)written;
    }
}

__attribute__((constructor)) static void bind_core_warn_untraced_environment(void) {
    const char *path = getenv("BIND_TRACE");
    if (path == NULL || path[0] == '\0' || bind_core_environment_flag("BIND_TRACE_QUIET")) return;
    // Built whole, then written at once: one line, even when other threads write too.
    char line[1024];
    const char *parts[] = {
        bind_core_program_name(),
        ": warning: BIND_TRACE is set, but this binary was built without Bind's Tracing trait, so it records "
        "nothing: build with `--traits Tracing` (in your own package, a trait of yours that enables Bind's: "
        "`swift build --traits BindTracing`, README \"Tracing your own app\"); BIND_TRACE_QUIET=1 silences this\n",
    };
    size_t used = 0;
    for (size_t index = 0; index < sizeof parts / sizeof parts[0]; index++) {
        size_t length = strlen(parts[index]);
        if (length > sizeof line - 1 - used) length = sizeof line - 1 - used;
        memcpy(line + used, parts[index], length);
        used += length;
    }
    line[used] = '\0';
    bind_core_write_all(line);
}
#endif
