import BindTraceModel

/// Finds `stopped-combine`: a combine that stopped for good because one of its sources was
/// released, shown by an update of another source that it then dropped while its result was bound
/// (the evidence that something was listening and missed it), or by a bind of its result after the
/// stop (whoever binds it will never get another value: a source made in a helper and not kept).
///
/// The recorder writes `stopped` right after the source's `released` event (docs/trace-format.md);
/// the replay hands this finder the source as it is released (its site is gone by the `stopped`
/// event), the stop, and every update of a source of a stopped combine. One finding per combine.
struct StoppedCombineFinder {
    /// A released source of a combine, from its release to the combine's `stopped` event.
    private struct ReleasedSource {
        let id: UInt64
        let name: String
        let site: SourceSite
        let releasedAt: UInt64
    }

    /// A stopped combine, waiting for another source's update while its result is bound, or a bind.
    private struct Stop {
        let combine: UInt64
        let source: ReleasedSource
        let stoppedAt: UInt64
    }

    /// At most this many released sources wait for their `stopped` event (it follows at once, on
    /// the releasing thread; a source whose combine was gone before it gets none).
    private static var waitingLimit: Int { 4096 }
    private var releasedSources: [UInt64: ReleasedSource] = [:]
    /// Stopped combines, by each of their remaining sources.
    private var stopsBySource: [UInt64: [Stop]] = [:]
    /// Stopped combines, by their own id: a bind of one is a finding.
    private var stopsByCombine: [UInt64: Stop] = [:]
    private var reported: Set<UInt64> = []
    private(set) var findings: [Finding] = []

    /// Whether an update must be shown to ``updated(_:sequence:replay:)``: one test on the hot path.
    var isWatching: Bool { !stopsBySource.isEmpty }
    /// Whether a bind must be shown to ``bound(_:sequence:site:replay:)``: one test per bind.
    var watchesBinds: Bool { !stopsByCombine.isEmpty }

    /// `node` is released: remembered when it is the source of a combine.
    mutating func released(_ node: OutputNode, sequence: UInt64) {
        guard node.outgoing.contains(where: { $0.operation == .combine && $0.role == .operator }) else { return }
        if releasedSources.count >= Self.waitingLimit { releasedSources = [:] }
        releasedSources[node.id] = ReleasedSource(
            id: node.id, name: node.narrated, site: node.site, releasedAt: sequence)
    }

    /// The combine `combine` stopped because `source` was released: watched for updates of its other
    /// sources (a finding once its result is bound) and for binds of its result (a finding at once).
    mutating func stopped(_ combine: OutputNode, source: UInt64, sequence: UInt64) {
        guard let released = releasedSources.removeValue(forKey: source), combine.inFocus,
            !reported.contains(combine.id)
        else { return }
        let stop = Stop(combine: combine.id, source: released, stoppedAt: sequence)
        for edge in combine.incoming where edge.source != source && edge.operation == .combine {
            stopsBySource[edge.source, default: []].append(stop)
        }
        stopsByCombine[combine.id] = stop
    }

    /// `output` was bound at `site` (event `sequence`): a finding when it is a combine that stopped.
    mutating func bound(_ output: UInt64, sequence: UInt64, site: SourceSite, replay: Replay) {
        guard let stop = stopsByCombine.removeValue(forKey: output), !reported.contains(output),
            let combine = replay.outputTable[output]
        else { return }
        reported.insert(output)
        let related = [
            Finding.Related(
                site: stop.source.site,
                note: "\(stop.source.name) is created here and was released at event #\(stop.source.releasedAt)"),
            Finding.Related(site: site, note: "the result is bound here, after the stop"),
        ]
        findings.append(
            Finding(
                kind: .stoppedCombine,
                message:
                    "\(combine.narrated) stopped for good when its source \(stop.source.name) was released "
                    + "(event #\(stop.source.releasedAt)), before its result was bound at event #\(sequence): "
                    + "whoever binds it gets no update any more; keep every source alive while the result is bound "
                    + "(a source made in a helper and not kept is released when the helper returns)",
                site: combine.site, related: related, outputs: [combine.id, stop.source.id], event: sequence))
    }

    /// `output` updated (or fired): a finding for each stopped combine of it still bound.
    mutating func updated(_ output: UInt64, sequence: UInt64, replay: Replay) {
        guard let stops = stopsBySource.removeValue(forKey: output) else { return }
        var waiting: [Stop] = []
        for stop in stops where !reported.contains(stop.combine) {
            guard let combine = replay.outputTable[stop.combine] else { continue }
            guard combine.boundCount > 0 else {
                waiting.append(stop)
                continue
            }
            reported.insert(stop.combine)
            stopsByCombine[stop.combine] = nil
            findings.append(finding(stop, combine: combine, updated: replay.outputTable[output], id: output, sequence))
        }
        if !waiting.isEmpty { stopsBySource[output] = waiting }
    }

    /// A combine, a source or both released: nothing more to watch for them.
    // Called at every release: an empty table (no combine stopped) is not hashed into.
    mutating func forget(_ output: UInt64) {
        if !stopsBySource.isEmpty { stopsBySource[output] = nil }
        if !stopsByCombine.isEmpty { stopsByCombine[output] = nil }
    }

    private func finding(
        _ stop: Stop, combine: OutputNode, updated: OutputNode?, id: UInt64, _ sequence: UInt64
    ) -> Finding {
        let updatedName = updated?.narrated ?? Narrator.unknownOutput(id)
        var related = [
            Finding.Related(
                site: stop.source.site,
                note: "\(stop.source.name) is created here and was released at event #\(stop.source.releasedAt)")
        ]
        if let updated {
            related.append(Finding.Related(site: updated.site, note: "\(updatedName) is created here"))
        }
        return Finding(
            kind: .stoppedCombine,
            message:
                "\(combine.narrated) stopped for good when its source \(stop.source.name) was released "
                + "(event #\(stop.source.releasedAt)); its result is still bound, and the update of "
                + "\(updatedName) at event #\(sequence) was dropped: keep every source alive while the result "
                + "is bound",
            site: combine.site, related: related, outputs: [combine.id, stop.source.id, id], event: sequence)
    }
}
