import BindTraceModel

/// Everything the analysis of one trace found.
public struct AnalysisResult: Sendable {
    /// Every finding, sorted by site (``Finding/siteOrder(_:_:)``).
    public var findings: [Finding]
    /// Where the trace contradicts itself (at most ``AnalysisOptions/maximumTraceErrors``).
    public var traceErrors: [TraceError]
    /// Problems that did not stop reading: a trace cut short, record kinds this reader skips.
    public var warnings: [TraceWarning]
    public var summary: TraceSummary
    /// The graph at the end of the trace, or right after ``AnalysisOptions/stateAt`` when set
    /// (empty when the trace has no such event).
    public var state: GraphState
}

/// Analyses a whole trace in one call: read, replay, judge.
///
/// ```swift
/// let result = try TraceAnalyzer.analyze(path: "app.trace", options: AnalysisOptions(atExit: true))
/// for finding in result.findings { print(finding.compilerStyle) }
/// ```
/// - Complexity: O(*n*) in the trace's events; memory proportional to what is alive at once.
public enum TraceAnalyzer {
    /// Reads and analyses the trace file at `path`.
    ///
    /// - Throws: ``TraceReadError`` when the file cannot be opened or is not a readable trace. A
    ///   trace cut short is read up to the cut, with a warning.
    public static func analyze(path: String, options: AnalysisOptions = AnalysisOptions()) throws(TraceReadError)
        -> AnalysisResult
    {
        try analyze(reader: TraceReader(path: path), options: options)
    }

    /// Analyses every remaining event of `reader`.
    public static func analyze(reader: TraceReader, options: AnalysisOptions = AnalysisOptions())
        throws(TraceReadError) -> AnalysisResult
    {
        let replay = Replay(options: options)
        // Format 1.1 records Subscription handles and containers: the precise leak rules apply from
        // the first event, not from the first handle event (docs/analysis.md).
        replay.recordsHandles = reader.version >= (1, 1)
        var state: GraphState?
        if let at = options.stateAt {
            if at == 0 { state = replay.snapshot() }
            while let event = try reader.next() {
                replay.apply(event)
                if event.sequence == at { state = replay.snapshot() }
            }
        } else {
            while let event = try reader.next() { replay.apply(event) }
        }
        return result(of: replay, state: state, warnings: reader.warnings, isComplete: reader.isComplete)
    }

    /// Analyses events already decoded (tests, hand-built traces).
    public static func analyze<Events: Sequence<TraceEvent>>(
        events: Events, options: AnalysisOptions = AnalysisOptions()
    ) -> AnalysisResult {
        let replay = Replay(options: options)
        var state: GraphState?
        for event in events {
            replay.apply(event)
            if event.sequence == options.stateAt { state = replay.snapshot() }
        }
        return result(of: replay, state: state, warnings: [], isComplete: true)
    }

    private static func result(of replay: Replay, state: GraphState?, warnings: [TraceWarning], isComplete: Bool)
        -> AnalysisResult
    {
        let findings = replay.finish()
        let finalState = state ?? (replay.options.stateAt == nil ? replay.snapshot() : GraphState())
        return AnalysisResult(
            findings: findings, traceErrors: replay.errors, warnings: warnings,
            summary: replay.summary(isComplete: isComplete, findings: findings), state: finalState)
    }
}
