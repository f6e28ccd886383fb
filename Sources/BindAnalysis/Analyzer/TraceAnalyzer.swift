@_spi(Harness) import BindTraceModel

/// Everything the analysis of one trace found.
public struct AnalysisResult: Sendable {
    /// Every finding, sorted by site (file, then line; findings without a site last), then kind and message.
    public var findings: [Finding]
    /// Where the trace contradicts itself (at most ``AnalysisOptions/maximumTraceErrors``).
    public var traceErrors: [TraceError]
    /// Problems that did not stop reading: a trace cut short, record kinds this reader skips.
    public var warnings: [TraceWarning]
    /// What the trace holds, in numbers: events, Outputs by kind, the busiest sites, findings by kind.
    public var summary: TraceSummary
    /// The graph at the end of the trace, or right after ``AnalysisOptions/stateAt`` when set
    /// (empty when the trace has no such event): for `bind-trace graph` and the report's drawings.
    package var state: GraphState
    /// What could not be judged and may matter (``AnalysisNote``): never a finding.
    public var notes: [AnalysisNote] = []
    /// Whether the trace named ``AnalysisOptions/focusScope`` (always true without one).
    package var sawFocusScope = true
}

/// Analyses a whole trace in one call: read, replay, judge.
///
/// The analysis API for a program of one's own (a gate, an IDE view): the same judgement as
/// `bind-trace check`, as values.
///
/// ```swift
/// let result = try TraceAnalyzer.analyze(path: "app.trace", options: AnalysisOptions(atExit: true))
/// for finding in result.findings { print(finding.compilerStyle) }
/// print(result.summary.events, "events;", result.summary.liveOutputs, "Outputs alive at the end")
/// if !result.summary.isComplete { print("the recording did not stop normally") }
/// ```
/// - Complexity: O(*n*) in the trace's events; memory proportional to what is alive at once.
public enum TraceAnalyzer {
    /// Reads and analyses the trace file at `path`.
    ///
    /// - Parameters:
    ///   - path: a trace file, as `BIND_TRACE` or `BindTrace.startRecording(toFile:)` wrote it.
    ///   - options: what to judge; by default every kind of finding, in every scope that ended.
    /// - Returns: the findings, the summary, the notes, and the trace's warnings and errors.
    /// - Throws: ``TraceReadError`` when the file cannot be opened or is not a readable trace. A
    ///   trace cut short is read up to the cut, with a warning.
    public static func analyze(path: String, options: AnalysisOptions = AnalysisOptions()) throws(TraceReadError)
        -> AnalysisResult
    {
        try analyze(reader: TraceReader(path: path), options: options)
    }

    /// Analyses every remaining event of `reader`.
    package static func analyze(reader: TraceReader, options: AnalysisOptions = AnalysisOptions())
        throws(TraceReadError) -> AnalysisResult
    {
        let replay = Replay(options: options, reading: reader)
        let state = try self.replay(reader, into: replay)
        return result(of: replay, state: state, warnings: reader.warnings, isComplete: reader.isComplete)
    }

    /// Analyses every remaining event of `reader` as ``analyze(reader:options:)`` does, decoding on a
    /// second thread.
    ///
    /// - Parameter progress: called after each batch of events with the batch (its ``EventBatch/bytesRead``)
    ///   and the number of events replayed so far.
    /// - Throws: the ``TraceReadError`` that stopped reading, after `progress` saw every event before it.
    package static func analyze(
        reader: TraceReader, options: AnalysisOptions, readAhead: Bool = true,
        progress: (_ batch: EventBatch, _ events: UInt64) -> Void
    ) throws(TraceReadError) -> AnalysisResult {
        let replay = Replay(options: options, reading: reader)
        let state = try self.replay(reader, into: replay, readAhead: readAhead, progress: progress)
        return result(of: replay, state: state, warnings: [], isComplete: true)
    }

    /// Replays the remaining events of `reader` batch by batch; returns the state right after
    /// ``AnalysisOptions/stateAt`` when set and reached.
    ///
    /// With `readAhead`, a second thread decodes the next batches while this one replays
    /// (``TraceReadAhead``); the events, and an error, are the same as read on one thread.
    package static func replay(
        _ reader: TraceReader, into replay: Replay, readAhead: Bool = true,
        progress: (_ batch: EventBatch, _ events: UInt64) -> Void = { _, _ in }
    ) throws(TraceReadError) -> GraphState? {
        try self.replay(reader, into: replay, watcher: UnwatchedReplay(), readAhead: readAhead, progress: progress)
    }

    /// Replays as ``replay(_:into:readAhead:progress:)`` does, showing `watcher` each event just
    /// before and just after the replay applies it (``ReplayWatcher``): a second reader of the
    /// trace that rides the one pass (`bind-trace diff`'s per-site counts) instead of reading it again.
    /// Generic, so the unwatched replay compiles to the loop without the calls.
    package static func replay<Watcher: ReplayWatcher>(
        _ reader: TraceReader, into replay: Replay, watcher: Watcher, readAhead: Bool = true,
        progress: (_ batch: EventBatch, _ events: UInt64) -> Void = { _, _ in }
    ) throws(TraceReadError) -> GraphState? {
        let at = replay.options.stateAt
        var state: GraphState? = at == 0 ? replay.snapshot() : nil
        var events: UInt64 = 0
        // Hot loop: the events of a batch, no per-event call but the replay's (and a watcher's, which
        // the unwatched replay compiles away).
        func take(_ batch: borrowing EventBatch) throws(TraceReadError) {
            replay.take(batch)
            watcher.take(batch)
            for index in 0..<batch.count {
                watcher.willApply(batch, at: index, in: replay)
                replay.apply(batch, at: index)
                watcher.didApply(batch, at: index, in: replay)
                if let at, batch.events[index].sequence == at { state = replay.snapshot() }
            }
            events &+= UInt64(batch.count)
            progress(batch, events)
            if let failure = batch.failure { throw failure }
        }
        if readAhead {
            let readAhead = TraceReadAhead(reader)
            while let batch = readAhead.next() {
                try take(batch)
                readAhead.recycle(batch)
            }
        } else {
            var batch = EventBatch()
            repeat {
                reader.read(into: &batch)
                try take(batch)
            } while !batch.isLast
        }
        return state
    }

    /// Analyses events already decoded (tests, hand-built traces).
    @_spi(Harness) public static func analyze<Events: Sequence<TraceEvent>>(
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

    static func result(of replay: Replay, state: GraphState?, warnings: [TraceWarning], isComplete: Bool)
        -> AnalysisResult
    {
        let findings = replay.finish()
        let finalState = state ?? (replay.options.stateAt == nil ? replay.snapshot() : GraphState())
        var result = AnalysisResult(
            findings: findings, traceErrors: replay.errors, warnings: warnings,
            summary: replay.summary(isComplete: isComplete, findings: findings), state: finalState,
            notes: replay.notes)
        result.sawFocusScope = replay.options.focusScope == nil || replay.sawFocusScope
        return result
    }
}
