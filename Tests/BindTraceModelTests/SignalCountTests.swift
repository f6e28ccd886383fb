#if Tracing
@_spi(Harness) import BindTraceModel
import BindTraceTestSupport
import Foundation
import Testing

extension TraceFileTests {
    /// Exact at signals, counted as an attacker would: the program stores how many updates it made
    /// in memory shared with this test (a mapped file, which outlives any death of the program),
    /// and the trace must hold every one of them (docs/trace-format.md, "Crash safety and loss").
    @Suite("Signals counted against shared memory")
    struct SignalCountTests {
        /// Trials per run: `BIND_STRESS_TRIALS` (`make stress`: 200), else 20 (`make test`), fewer
        /// under a sanitizer.
        static var trials: Int {
            if let text = ProcessInfo.processInfo.environment["BIND_STRESS_TRIALS"], let trials = Int(text) {
                return trials
            }
            return Sanitizer.any ? 6 : 20
        }

        @Test(
            "SIGTERM, SIGINT or SIGHUP mid-burst, once or twice: every update made is in the trace, which ends with that signal"
        )
        func everyUpdateCounted() throws {
            let signals = [SIGTERM, SIGINT, SIGHUP]
            var failures: [String] = []
            for trial in 0..<Self.trials {
                let signal = signals[trial % 3]
                let twice = trial % 4 == 3
                let path = temporaryTracePath()
                let countPath = path + ".count"
                defer {
                    unlink(path)
                    unlink(countPath)
                }
                // Given a program updating on two threads, counting each update in shared memory
                #expect(FileManager.default.createFile(atPath: countPath, contents: Data(count: 16)))
                let (process, _) = try startFixture(["1000", "counted-burst", countPath], trace: path)
                let made = try SharedCount(path: countPath)
                let threshold = UInt64(2_000 + (trial % 7) * 3_000)
                let deadline = Date().addingTimeInterval(20)
                while made.total < threshold && process.isRunning && Date() < deadline { usleep(500) }
                // When a signal comes mid-burst (twice in a row, every fourth trial)
                kill(process.processIdentifier, signal)
                if twice { kill(process.processIdentifier, signal) }
                waitOrKill(process)

                // Then it ends by that signal; every update it made is in the trace (the two in
                // flight when it ended may be there and not counted yet), and the trace says which signal
                let counted = made.total
                let reader = try TraceReader(path: path)
                let events = try reader.readAll()
                expectConsistent(events)
                let recorded = UInt64(updates(labelled: "counter", in: events) + updates(labelled: "other", in: events))
                let line =
                    "trial \(trial) (signal \(signal)\(twice ? " twice" : "")): made \(counted), recorded \(recorded), "
                    + "lost \(reader.lostEvents), end signal \(reader.endSignal.map(String.init) ?? "none"), "
                    + "\(reader.warnings.map(\.message))"
                let whole =
                    process.terminationReason == .uncaughtSignal && process.terminationStatus == signal
                    && counted >= threshold && recorded >= counted && recorded <= counted + 2
                    && reader.lostEvents == 0 && reader.gaps.isEmpty && reader.endSignal == signal
                if !whole { failures.append(line) }
                made.close()
            }
            #expect(failures == [], "\(failures.count) of \(Self.trials) trials")
        }
    }
}

/// The fixture's two counters, in a file mapped shared.
private final class SharedCount {
    private let base: UnsafeMutableRawPointer
    private let descriptor: Int32

    init(path: String) throws {
        descriptor = open(path, O_RDONLY)
        guard descriptor >= 0, let mapped = mmap(nil, 16, PROT_READ, MAP_SHARED, descriptor, 0), mapped != MAP_FAILED
        else { throw POSIXError(.EIO) }
        base = mapped
    }

    /// The updates made on both threads so far.
    var total: UInt64 {
        base.load(fromByteOffset: 0, as: UInt64.self) &+ base.load(fromByteOffset: 8, as: UInt64.self)
    }

    func close() {
        munmap(base, 16)
        _ = Glibc.close(descriptor)
    }
}
#endif
