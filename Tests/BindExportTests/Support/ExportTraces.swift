@_spi(Harness) import BindAnalysis
import BindExport
@_spi(Harness) import BindTraceModel
import BindTraceTestSupport
import Foundation
import Testing

/// Traces for the export tests, written with the format's own encoder, and the export run on them.
enum ExportTraces {
    static func site(_ file: String, _ line: UInt) -> SourceSite { SourceSite(file: file, line: line) }

    static func created(
        _ output: UInt64, label: String? = nil, line: UInt, scope: UInt64 = 0, cause: TraceCause? = nil
    ) -> TraceEvent.Kind {
        .outputCreated(
            TraceEvent.OutputCreation(
                output: output, kind: .output, valueType: "String", site: site("App/Model.swift", line), label: label,
                scope: scope, cause: cause))
    }

    static func bound(
        _ subscription: UInt64, to output: UInt64, line: UInt, isInternal: Bool = false, scope: UInt64 = 0,
        cause: TraceCause? = nil
    ) -> TraceEvent.Kind {
        .bound(
            TraceEvent.Binding(
                subscription: subscription, output: output, site: site("App/View.swift", line), isInternal: isInternal,
                scope: scope, cause: cause))
    }

    static func update(_ output: UInt64, cause: (subscription: UInt64, event: UInt64)? = nil) -> TraceEvent.Kind {
        .updated(
            output: output, cause: cause.map { TraceCause(subscription: $0.subscription, event: $0.event) },
            preview: nil)
    }

    /// One thread: 'a' feeds 'b' (subscription 1) and 'c' (subscription 2); 'b' feeds 'd'
    /// (subscription 3); then a second update of 'a' at top level, a release, and a closure left bound
    /// in a scope that ended (a leaked subscription, 1.0 rules).
    static func propagation() -> [UInt8] {
        var trace = TraceWriter(minor: 0)
        trace.thread(1, name: "main")
        trace.event(created(1, label: "a", line: 1))
        trace.event(created(2, label: "b", line: 2))
        trace.event(created(3, label: "c", line: 3))
        trace.event(created(4, label: "d", line: 4))
        trace.event(bound(1, to: 1, line: 10))
        trace.event(bound(2, to: 1, line: 11))
        trace.event(bound(3, to: 2, line: 12))
        let first = trace.event(update(1))
        let b = trace.event(update(2, cause: (1, first)))
        trace.event(update(4, cause: (3, b)))
        trace.event(update(3, cause: (2, first)))
        trace.event(update(1))
        trace.event(.released(output: 4))
        trace.event(.scopeBegan(id: 9, parent: 0, name: "cell", site: site("App/Cell.swift", 5)))
        trace.event(bound(4, to: 3, line: 30, scope: 9))
        trace.event(.scopeEnded(id: 9))
        trace.end()
        return trace.bytes
    }

    /// Two threads: 'query' is bound on "main" in scope 'search'; a "worker" updates it, so the
    /// closure runs there and updates 'results', and marks the scope.
    static func twoThreads() -> [UInt8] {
        var trace = TraceWriter(minor: 0)
        trace.thread(1, name: "main")
        trace.event(created(1, label: "query", line: 3))
        trace.event(created(2, label: "results", line: 4))
        trace.event(.scopeBegan(id: 7, parent: 0, name: "search", site: site("App/View.swift", 10)))
        trace.event(bound(1, to: 1, line: 20, scope: 7))
        trace.thread(2, name: "worker")
        let delivery = trace.event(update(1))
        trace.event(update(2, cause: (1, delivery)))
        trace.event(.mark(name: "loaded", scope: 7))
        trace.thread(1, name: "main")
        trace.event(.scopeEnded(id: 7))
        trace.event(.unbound(subscription: 1, reason: .unsubscribe, cause: nil))
        trace.end()
        return trace.bytes
    }
}

/// A trace exported to both formats in a fresh directory, and read back.
struct Exported {
    let directory: URL
    let trace: String
    let perfettoPath: String
    let jsonPath: String
    let perfetto: DrawnTimeline
    let json: DrawnTimeline
    let summary: TimelineExport.Summary

    init(_ bytes: [UInt8]) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("bind-export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        trace = directory.appendingPathComponent("app.trace").path
        try Data(bytes).write(to: URL(fileURLWithPath: trace))
        perfettoPath = directory.appendingPathComponent("app.pftrace").path
        jsonPath = directory.appendingPathComponent("app.json").path
        summary = try TimelineExport.write(trace: trace, format: .perfetto, to: perfettoPath)
        _ = try TimelineExport.write(trace: trace, format: .chromeJSON, to: jsonPath)
        perfetto = try DrawnTimeline.perfetto(perfettoPath)
        json = try DrawnTimeline.chromeJSON(jsonPath)
    }

    func cleanUp() { try? FileManager.default.removeItem(at: directory) }

    /// The replay's depth of each update, fire and bind, by sequence number (what `bind-trace replay` indents).
    func replayDepths() throws -> [UInt64: Int] {
        let reader = try TraceReader(path: trace)
        let replay = Replay()
        var depths: [UInt64: Int] = [:]
        while let event = try reader.next() {
            replay.apply(event)
            switch event.kind {
            case .updated, .fired, .bound: depths[event.sequence] = replay.lastDepth
            default: break
            }
        }
        return depths
    }
}
