import CBenchSupport

/// How long and how often each contestant is timed.
struct HarnessSettings {
    /// Thread CPU time aimed at for one sample of one contestant. Short samples on many rounds: on
    /// a shared 2-core machine a short sample is less often disturbed, and the median ignores those
    /// that were.
    var sampleNanoseconds: UInt64 = 1_000_000
    /// Rounds; each round times every contestant once, in a rotating order.
    var rounds = 151

    static let quick = HarnessSettings(sampleNanoseconds: 500_000, rounds: 11)
}

/// One thing being timed: `run(n)` performs `n` operations.
///
/// `prepare` and `finish` run around every sample, outside the timed region (e.g. to start and stop
/// a trace recording).
struct Contestant {
    let name: String
    let run: (Int) -> Void
    var prepare: () -> Void = {}
    var finish: () -> Void = {}
}

/// The nanoseconds per operation of each contestant in each round.
struct Timings {
    let names: [String]
    /// `samples[contestant][round]`, nanoseconds per operation.
    let samples: [[Double]]

    func index(_ name: String) -> Int {
        guard let index = names.firstIndex(of: name) else { fatalError("no contestant named \(name)") }
        return index
    }

    /// The median nanoseconds per operation of `name`.
    func median(_ name: String) -> Double { Statistics.median(samples[index(name)]) }

    /// The median over rounds of `name ÷ reference` — steadier than a ratio of medians on a noisy
    /// machine, because both were timed moments apart.
    func ratio(_ name: String, to reference: String) -> Double {
        let a = samples[index(name)]
        let b = samples[index(reference)]
        return Statistics.median(zip(a, b).map { $0 / $1 })
    }

    /// The median over rounds of `name − reference`, in nanoseconds per operation.
    func difference(_ name: String, from reference: String) -> Double {
        let a = samples[index(name)]
        let b = samples[index(reference)]
        return Statistics.median(zip(a, b).map { $0 - $1 })
    }
}

enum Statistics {
    static func median(_ values: [Double]) -> Double {
        precondition(!values.isEmpty)
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}

/// A small harness: calibrate each contestant to a sample length, warm it up, then time every
/// contestant once per round, rotating the order so no one always runs first.
struct Harness {
    let settings: HarnessSettings

    func measure(_ contestants: [Contestant]) -> Timings {
        let iterations = contestants.map(calibrate)
        var samples = [[Double]](repeating: [], count: contestants.count)
        for round in 0..<settings.rounds {
            for offset in 0..<contestants.count {
                let index = (round + offset) % contestants.count
                let nanoseconds = time(contestants[index], iterations: iterations[index])
                samples[index].append(Double(nanoseconds) / Double(iterations[index]))
            }
        }
        return Timings(names: contestants.map(\.name), samples: samples)
    }

    /// Doubles the iteration count until one sample takes a tenth of the target, then scales up.
    /// The runs made while calibrating are the warm-up.
    private func calibrate(_ contestant: Contestant) -> Int {
        var iterations = 1
        while true {
            let nanoseconds = time(contestant, iterations: iterations)
            if nanoseconds >= settings.sampleNanoseconds / 10 || iterations >= 1 << 30 {
                let perOperation = max(Double(nanoseconds) / Double(iterations), 0.1)
                let scaled = Int(Double(settings.sampleNanoseconds) / perOperation)
                _ = time(contestant, iterations: max(scaled, 1))  // warm-up at full length
                return max(scaled, 1)
            }
            iterations *= 2
        }
    }

    private func time(_ contestant: Contestant, iterations: Int) -> UInt64 {
        contestant.prepare()
        let start = bind_bench_thread_cpu_ns()
        contestant.run(iterations)
        let end = bind_bench_thread_cpu_ns()
        contestant.finish()
        return end - start
    }
}

/// Where subscribers put what they receive: a class, so the optimiser must keep every write.
final class Sink: @unchecked Sendable {
    var total: UInt64 = 0

    /// Hands the total to C so no delivery can be proven useless.
    func publish() { bind_bench_consume(total) }
}
