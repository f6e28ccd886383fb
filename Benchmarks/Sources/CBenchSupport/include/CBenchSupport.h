#ifndef CBENCHSUPPORT_H
#define CBENCHSUPPORT_H
// What the benchmarks need from C: clocks, the allocator's statistics and an optimisation barrier.
#include <stdint.h>
#include <stddef.h>

/// CLOCK_MONOTONIC in nanoseconds.
uint64_t bind_bench_monotonic_ns(void);

/// CPU time of the calling thread in nanoseconds (CLOCK_THREAD_CPUTIME_ID): the clock every timing
/// uses, so time spent descheduled by other work on a shared machine does not count.
uint64_t bind_bench_thread_cpu_ns(void);

/// Bytes the allocator has handed out and not taken back (glibc: mallinfo2 `uordblks + hblkhd`),
/// or 0 where the platform has no such statistic.
uint64_t bind_bench_heap_bytes_in_use(void);

/// Whether `bind_bench_heap_bytes_in_use` works on this platform.
int bind_bench_heap_statistics_available(void);

/// Calls `clock_gettime(CLOCK_MONOTONIC)` `count` times; returns a sum so nothing is optimised away.
uint64_t bind_bench_call_clock_gettime(uint64_t count);

/// Reads the time-stamp counter `count` times, as the trace recorder does (`__rdtsc`); CLOCK_MONOTONIC
/// elsewhere. Returns a sum so nothing is optimised away.
uint64_t bind_bench_call_tsc(uint64_t count);

/// Whether `bind_bench_call_tsc` reads a real time-stamp counter.
int bind_bench_has_tsc(void);

/// Runs `body(context, index)` on `threads` new threads (index 0..<threads) released together, and
/// returns the wall-clock nanoseconds from their release until the last one is done; 0 if a thread
/// could not be started.
uint64_t bind_bench_parallel_wall_ns(int threads, void (*body)(void *context, int index), void *context);

/// Starts a thread that sleeps forever: the process is multi-threaded from then on, as every app is.
/// glibc takes single-threaded shortcuts (a mutex without atomic instructions) only while a process
/// has one thread, so without this a run that started any thread (a recording's flusher) would be
/// compared with one that never did.
void bind_bench_start_idle_thread(void);

/// Consumes `value` where the optimiser cannot see it.
void bind_bench_consume(uint64_t value);

#endif
