#include "CBenchSupport.h"
#include <time.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

uint64_t bench_monotonic_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t bench_thread_cpu_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t bench_heap_bytes_in_use(void) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
    struct mallinfo2 info = mallinfo2();
    return (uint64_t)info.uordblks + (uint64_t)info.hblkhd;
#else
    return 0;
#endif
}

int bench_heap_statistics_available(void) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
    return 1;
#else
    return 0;
#endif
}

uint64_t bench_call_clock_gettime(uint64_t count) {
    uint64_t sum = 0;
    for (uint64_t i = 0; i < count; i++) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        sum += (uint64_t)ts.tv_nsec;
    }
    return sum;
}

uint64_t bench_call_tsc(uint64_t count) {
    uint64_t sum = 0;
    for (uint64_t i = 0; i < count; i++) {
#if defined(__x86_64__) || defined(__i386__)
        sum += __rdtsc();
#else
        sum += bench_monotonic_ns();
#endif
    }
    return sum;
}

int bench_has_tsc(void) {
#if defined(__x86_64__) || defined(__i386__)
    return 1;
#else
    return 0;
#endif
}

static volatile uint64_t bench_sink;

void bench_consume(uint64_t value) { bench_sink += value; }
