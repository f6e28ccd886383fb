#include "CBenchSupport.h"
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

uint64_t bind_bench_monotonic_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t bind_bench_thread_cpu_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t bind_bench_heap_bytes_in_use(void) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
    struct mallinfo2 info = mallinfo2();
    return (uint64_t)info.uordblks + (uint64_t)info.hblkhd;
#else
    return 0;
#endif
}

int bind_bench_heap_statistics_available(void) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
    return 1;
#else
    return 0;
#endif
}

uint64_t bind_bench_call_clock_gettime(uint64_t count) {
    uint64_t sum = 0;
    for (uint64_t i = 0; i < count; i++) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        sum += (uint64_t)ts.tv_nsec;
    }
    return sum;
}

uint64_t bind_bench_call_tsc(uint64_t count) {
    uint64_t sum = 0;
    for (uint64_t i = 0; i < count; i++) {
#if defined(__x86_64__) || defined(__i386__)
        sum += __rdtsc();
#else
        sum += bind_bench_monotonic_ns();
#endif
    }
    return sum;
}

int bind_bench_has_tsc(void) {
#if defined(__x86_64__) || defined(__i386__)
    return 1;
#else
    return 0;
#endif
}

static volatile uint64_t bind_bench_sink;

void bind_bench_consume(uint64_t value) { bind_bench_sink += value; }

struct bind_bench_parallel {
    void (*body)(void *context, int index);
    void *context;
    atomic_int ready;
    atomic_int go;
};

struct bind_bench_parallel_start {
    struct bind_bench_parallel *shared;
    int index;
};

static void *bind_bench_parallel_thread(void *argument) {
    struct bind_bench_parallel_start *start = argument;
    struct bind_bench_parallel *shared = start->shared;
    atomic_fetch_add(&shared->ready, 1);
    while (!atomic_load(&shared->go)) sched_yield();
    shared->body(shared->context, start->index);
    return NULL;
}

uint64_t bind_bench_parallel_wall_ns(int threads, void (*body)(void *context, int index), void *context) {
    struct bind_bench_parallel shared = {body, context, 0, 0};
    pthread_t *ids = calloc((size_t)threads, sizeof(pthread_t));
    struct bind_bench_parallel_start *starts = calloc((size_t)threads, sizeof(struct bind_bench_parallel_start));
    int started = 0;
    for (; started < threads; started++) {
        starts[started] = (struct bind_bench_parallel_start){&shared, started};
        if (pthread_create(&ids[started], NULL, bind_bench_parallel_thread, &starts[started]) != 0) break;
    }
    while (atomic_load(&shared.ready) < started) sched_yield();
    uint64_t begin = bind_bench_monotonic_ns();
    atomic_store(&shared.go, 1);
    for (int i = 0; i < started; i++) pthread_join(ids[i], NULL);
    uint64_t end = bind_bench_monotonic_ns();
    free(ids);
    free(starts);
    return started == threads ? end - begin : 0;
}

static void *bind_bench_idle(void *argument) {
    (void)argument;
    for (;;) pause();
    return NULL;
}

void bind_bench_start_idle_thread(void) {
    pthread_t thread;
    if (pthread_create(&thread, NULL, bind_bench_idle, NULL) == 0) pthread_detach(thread);
}
