@_spi(Harness) import BindAnalysis
@_spi(Harness) import BindTraceModel

/// The moment a graph is drawn at when nothing is alive at the end of its trace: right after the first
/// event at which the most Outputs were alive.
///
/// A program that releases everything before it exits would otherwise get an empty picture from
/// `bind-trace graph` and none in the report; the busiest moment shows the whole structure it built.
///
/// ```swift
/// if result.state.outputs.isEmpty, let busiest = try BusiestMoment.find(inTrace: path) {
///     let drawn = try BusiestMoment.state(at: busiest.sequence, inTrace: path, options: options)
/// }
/// ```
package struct BusiestMoment: Hashable, Sendable {
    /// The event right after which the most Outputs were alive (the first, on a tie).
    package var sequence: UInt64
    /// How many were alive then.
    package var aliveOutputs: Int

    /// What a title or a log line says about the moment: `after event #12, when most Outputs were alive (40)`.
    package var description: String {
        "after event #\(sequence), when most Outputs were alive (\(aliveOutputs))"
    }

    /// Reads the trace once, counting Outputs created and released; `nil` when none was ever alive.
    ///
    /// - Complexity: O(*n*) in events; memory O(Outputs alive at once).
    package static func find(inTrace path: String) throws(TraceReadError) -> BusiestMoment? {
        let reader = try TraceReader(path: path)
        var alive: Set<UInt64> = []
        var busiest: BusiestMoment?
        while let event = try reader.next() {
            switch event.kind {
            case .outputCreated(let creation): alive.insert(creation.output)
            case .released(let output): alive.remove(output)
            default: continue
            }
            if alive.count > busiest?.aliveOutputs ?? 0 {
                busiest = BusiestMoment(sequence: event.sequence, aliveOutputs: alive.count)
            }
        }
        return busiest
    }

    /// The graph right after event `sequence` (the analysis's `stateAt`), and when each of its Outputs
    /// was released later, by Output id, in one more read of the trace.
    ///
    /// - Complexity: O(*n*) in events; memory O(Outputs alive at once).
    package static func state(at sequence: UInt64, inTrace path: String, options: AnalysisOptions)
        throws(TraceReadError) -> (state: GraphState, releases: [UInt64: UInt64])
    {
        var options = options
        options.stateAt = nil
        options.keepsReleasedOutputs = false
        let reader = try TraceReader(path: path)
        let replay = Replay(options: options)
        var state: GraphState?
        var drawn: Set<UInt64> = []
        var releases: [UInt64: UInt64] = [:]
        while let event = try reader.next() {
            if state == nil {
                replay.apply(event)
                if event.sequence >= sequence {
                    let snapshot = replay.snapshot()
                    drawn = Set(snapshot.outputs.map(\.id))
                    state = snapshot
                }
            } else if case .released(let output) = event.kind, drawn.contains(output) {
                releases[output] = event.sequence
            }
        }
        return (state ?? replay.snapshot(), releases)
    }
}
