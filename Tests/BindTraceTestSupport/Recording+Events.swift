import Bind
@_spi(Harness) import BindAnalysis
@_spi(Harness) import BindTraceModel
import Testing

extension BindTrace.Recording {
    /// Decodes every event of the recording, after checking it is consistent (``expectConsistent(_:sourceLocation:)``;
    /// an inconsistency is an issue of the running test).
    package func events() throws(TraceReadError) -> [TraceEvent] {
        let events = try TraceReader(bytes: bytes).readAll()
        expectConsistent(events)
        return events
    }

    /// A reader over the recording, which is checked first (``expectConsistent(_:sourceLocation:)``).
    package func reader() throws(TraceReadError) -> TraceReader {
        expectConsistent(try TraceReader(bytes: bytes).readAll())
        return try TraceReader(bytes: bytes)
    }
}

/// Records an issue for each inconsistency the analysis's replay finds in `events` (a cause that
/// is not open, an Output or subscription the trace never made, …: `TraceError`). Every trace the
/// recorder writes must have none, so every recording the tests read is checked here.
package func expectConsistent(_ events: [TraceEvent], sourceLocation: SourceLocation = #_sourceLocation) {
    let errors = TraceAnalyzer.analyze(events: events).traceErrors
    guard !errors.isEmpty else { return }
    Issue.record(
        "the recorder wrote an inconsistent trace: \(errors.count) trace errors, the first: \(errors[0])",
        sourceLocation: sourceLocation)
}

/// ``expectConsistent(_:sourceLocation:)`` for a trace file.
package func expectConsistentTrace(atPath path: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    expectConsistent(try TraceReader(path: path).readAll(), sourceLocation: sourceLocation)
}
