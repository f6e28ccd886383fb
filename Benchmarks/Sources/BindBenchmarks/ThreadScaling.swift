import Bind
import CBenchSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Several threads recording at once: each thread updates an Output of its own (one subscriber)
/// while a trace is recorded to a file, released together; events per second of wall-clock time
/// with 1, 2, 4 and 8 threads, against the same work with tracing off. On a 2-core machine, more
/// than 2 threads cannot go faster: the target is that they do not collapse (a lock that spins
/// while its holder is descheduled would).
enum ThreadScaling {
    static let section =
        "Tracing — several threads recording at once; events/s (wall clock), median of 5 runs (1 with --quick)"
    static let threadCounts = [1, 2, 4, 8]
    /// With more threads than cores, recording keeps at least this share of its 2-thread rate.
    static let collapseLimit = 0.75

    /// The Outputs of one run, one per thread, each with one subscriber counting what it sees.
    private final class Work: @unchecked Sendable {
        let outputs: [Output<Int>]
        let updatesPerThread: Int
        /// One counter per thread, each written only by its own thread's subscriber.
        let seen: UnsafeMutablePointer<Int>

        init(threads: Int, updatesPerThread: Int) {
            self.updatesPerThread = updatesPerThread
            let seen = UnsafeMutablePointer<Int>.allocate(capacity: threads)
            seen.initialize(repeating: 0, count: threads)
            self.seen = seen
            outputs = (0..<threads).map { _ in Output<Int>(value: 0) }
            for (index, output) in outputs.enumerated() {
                output.bind { value in seen[index] &+= value & 1 }
            }
        }

        deinit { seen.deallocate() }
    }

    static func rows(quick: Bool, traceDirectory: String) -> [Row] {
        let updatesPerThread = quick ? 50_000 : 1_000_000
        let runs = quick ? 1 : 5
        let path = traceDirectory + "/threads.trace"
        var rates: [Int: (on: Double, off: Double)] = [:]
        for threads in threadCounts {
            var on: [Double] = []
            var off: [Double] = []
            for _ in 0..<runs {
                off.append(rate(threads: threads, updatesPerThread: updatesPerThread, recordingTo: nil))
                on.append(rate(threads: threads, updatesPerThread: updatesPerThread, recordingTo: path))
            }
            rates[threads] = (median(on), median(off))
        }
        unlink(path)
        let twoThreads = rates[2]?.on ?? 0
        return threadCounts.map { threads in
            let (on, off) = rates[threads] ?? (0, 0)
            let hasTarget = threads > 2 && twoThreads > 0
            return Row(
                section: section, name: "\(threads) thread\(threads == 1 ? "" : "s") updating, recorded",
                measured: "on \(millions(on))", against: "off \(millions(off))",
                ratio: "\(Format.times(off / max(on, 1))) slower than off"
                    + (hasTarget ? ", \(Format.times(on / twoThreads)) the 2-thread rate" : ""),
                target: hasTarget ? "≥ \(Format.number(collapseLimit))× 2 threads" : "—",
                met: hasTarget ? Format.verdict(on / twoThreads >= collapseLimit) : "")
        }
    }

    /// Events per second of wall-clock time for one run.
    private static func rate(threads: Int, updatesPerThread: Int, recordingTo path: String?) -> Double {
        let work = Work(threads: threads, updatesPerThread: updatesPerThread)
        if let path {
            do { try BindTrace.startRecording(toFile: path) } catch { return 0 }
            // The first event of a recording announces what exists: not part of the timed work.
            for output in work.outputs { output.update(withValue: 0) }
        }
        let context = Unmanaged.passRetained(work)
        let nanoseconds = bind_bench_parallel_wall_ns(
            Int32(threads),
            { context, index in
                let work = Unmanaged<Work>.fromOpaque(context!).takeUnretainedValue()
                let output = work.outputs[Int(index)]
                for value in 0..<work.updatesPerThread { output.update(withValue: value) }
            }, context.toOpaque())
        context.release()
        if path != nil { BindTrace.stopRecording() }
        guard nanoseconds > 0 else { return 0 }
        return Double(threads * updatesPerThread) / (Double(nanoseconds) / 1e9)
    }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }

    private static func millions(_ rate: Double) -> String { "\(Format.fixed(rate / 1e6, digits: 1)) M events/s" }
}
