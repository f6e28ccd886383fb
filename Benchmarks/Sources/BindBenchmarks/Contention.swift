import Bind
import CBenchSupport

/// Several threads updating one shared Output at once (tracing off): every update takes that
/// Output's lock, so this is the lock under contention. Updates per second of wall-clock time with
/// 1, 2, 4 and 8 threads; on 2 cores more threads cannot go faster, and the target is that they do
/// not collapse (a lock whose waiters spin while its holder is descheduled would).
enum Contention {
    static let section =
        "Contention — threads updating one shared Output (1 subscriber); updates/s (wall clock), median of 5 runs"
    static let threadCounts = ThreadScaling.threadCounts
    /// With more threads than cores, updates keep at least this share of the 2-thread rate.
    static let collapseLimit = ThreadScaling.collapseLimit

    private final class Work: @unchecked Sendable {
        let output = Output<Int>(value: 0)
        let updatesPerThread: Int

        init(updatesPerThread: Int) {
            self.updatesPerThread = updatesPerThread
            // Deliveries run on each updating thread at once: a C call, so no shared sum to race on.
            output.bind { value in bind_bench_consume(UInt64(truncatingIfNeeded: value)) }
        }
    }

    static func rows(quick: Bool) -> [Row] {
        let updatesPerThread = quick ? 50_000 : 1_000_000
        let runs = quick ? 1 : 5
        var rates: [Int: Double] = [:]
        for threads in threadCounts {
            let samples = (0..<runs).map { _ in rate(threads: threads, updatesPerThread: updatesPerThread) }
            rates[threads] = samples.sorted()[samples.count / 2]
        }
        let twoThreads = rates[2] ?? 0
        return threadCounts.map { threads in
            let rate = rates[threads] ?? 0
            let hasTarget = threads > 2 && twoThreads > 0
            return Row(
                section: section, name: "\(threads) thread\(threads == 1 ? "" : "s") updating one Output",
                measured: "\(Format.fixed(rate / 1e6, digits: 1)) M updates/s",
                against: hasTarget ? "2 threads \(Format.fixed(twoThreads / 1e6, digits: 1)) M/s" : "",
                ratio: hasTarget ? "\(Format.times(rate / twoThreads)) the 2-thread rate" : "",
                target: hasTarget ? "≥ \(Format.number(collapseLimit))× 2 threads" : "—",
                met: hasTarget ? Format.verdict(rate / twoThreads >= collapseLimit) : "")
        }
    }

    private static func rate(threads: Int, updatesPerThread: Int) -> Double {
        let context = Unmanaged.passRetained(Work(updatesPerThread: updatesPerThread))
        let nanoseconds = bind_bench_parallel_wall_ns(
            Int32(threads),
            { context, _ in
                let work = Unmanaged<Work>.fromOpaque(context!).takeUnretainedValue()
                for value in 0..<work.updatesPerThread { work.output.update(withValue: value) }
            }, context.toOpaque())
        context.release()
        guard nanoseconds > 0 else { return 0 }
        return Double(threads * updatesPerThread) / (Double(nanoseconds) / 1e9)
    }
}
