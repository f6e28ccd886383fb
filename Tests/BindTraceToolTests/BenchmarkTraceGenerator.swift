import Foundation
import Testing

/// Writes a large, valid trace for measuring `bind-trace` (docs/analysis.md), when asked:
/// `BIND_TRACE_BENCH_FILE=/tmp/big.trace BIND_TRACE_BENCH_EVENTS=10000000 swift test --filter BenchmarkTraceGenerator`.
///
/// The trace looks like an app showing cells: long-lived Outputs updated all the time, and cells that
/// each, in a scope, derive a map from one of them, bind to it, see a few nested updates, then unbind
/// and release everything. About 1 in 1000 cells leaks its subscription, so the findings have work.
@Suite("benchmark trace generator")
struct BenchmarkTraceGenerator {
    @Test("writes a large trace when BIND_TRACE_BENCH_FILE is set")
    func generate() throws {
        let environment = ProcessInfo.processInfo.environment
        guard let path = environment["BIND_TRACE_BENCH_FILE"] else { return }
        let target = UInt64(environment["BIND_TRACE_BENCH_EVENTS"] ?? "") ?? 10_000_000
        var trace = TraceFileWriter()
        trace.thread(1)
        let longLived: [UInt64] = Array(1...10)
        for id in longLived { trace.output(id, line: id, label: "model \(id)") }
        var nextOutput: UInt64 = 100
        var nextSubscription: UInt64 = 1
        var nextScope: UInt64 = 1
        var cell: UInt64 = 0
        let handle = try FileHandle(forWritingTo: {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
            return URL(fileURLWithPath: path)
        }())
        defer { try? handle.close() }
        var written = 0
        while trace.eventCount < target {
            cell += 1
            let source = longLived[Int(cell % 10)]
            let scope = nextScope
            nextScope += 1
            trace.beginScope(scope, name: "cell", file: "App/Cell.swift", line: 20)
            let mapped = nextOutput
            nextOutput += 1
            trace.output(mapped, kind: .map, type: "String", file: "App/Cell.swift", line: 22, scope: scope)
            trace.edge(source, mapped)
            let internalSubscription = nextSubscription
            let userSubscription = nextSubscription + 1
            nextSubscription += 2
            trace.bind(internalSubscription, to: source, file: "App/Cell.swift", line: 22, isInternal: true, scope: scope)
            trace.bind(userSubscription, to: mapped, file: "App/Cell.swift", line: 23, scope: scope)
            for _ in 0..<8 {
                let update = trace.update(source)
                let derived = trace.update(mapped, cause: (internalSubscription, update))
                _ = derived
                trace.update(longLived[Int((cell + 3) % 10)], cause: (userSubscription, derived))
            }
            let leaks = cell % 1000 == 0
            if !leaks { trace.unbind(userSubscription, reason: .container) }
            trace.endScope(scope)
            if !leaks {
                trace.unbind(internalSubscription, reason: .outputReleased)
                trace.release(mapped)
            }
            if trace.bytes.count - written > 1 << 22 {
                handle.write(Data(trace.bytes[written...]))
                written = trace.bytes.count
            }
        }
        trace.end()
        handle.write(Data(trace.bytes[written...]))
    }
}
