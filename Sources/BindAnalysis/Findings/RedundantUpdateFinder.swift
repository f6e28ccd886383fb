import BindTraceModel

/// Finds `redundant-update` (a note): updates that delivered to subscribers the value the Output
/// already had, ranked by how many there were and by the updates they set off downstream.
///
/// **Equality is the recorder's value previews** (`String(describing:)`, cut at 120 bytes, written
/// with `BIND_TRACE_VALUES=1`): an update is redundant when its preview equals the Output's previous
/// one. Not judged: traces without previews, Relays and what a fire sets off (a stream of events,
/// not of values), Outputs whose only subscribers are `ignoringDuplicates()` (they stop it), previews cut short, and previews that are only a type's name (a class without a
/// description: every instance prints alike). Two unequal values with equal descriptions count as
/// equal: the note says "looks equal", and `Equatable` values are the ones `ignoringDuplicates()`
/// fixes.
struct RedundantUpdateFinder {
    /// The redundant updates of the Outputs made at one site.
    private struct Tally {
        var outputName: String
        var site: SourceSite
        var value: String
        var count: UInt64 = 0
        var downstream: UInt64 = 0
        var firstEvent: UInt64
        var outputs: Set<UInt64> = []
    }

    /// A redundant update still propagating on a thread: its frame's depth and number.
    private struct Open {
        let depth: Int
        let sequence: UInt64
        let key: SiteKey
    }

    private var tallies: [SiteKey: Tally] = [:]
    private var order: [SiteKey] = []
    /// By thread, outermost first: what an update there is downstream of.
    private var open: [UInt32: [Open]] = [:]
    /// Whether any redundant update may still be propagating: the hot path checks only this.
    private(set) var isTracking = false

    /// Whether an update of `node` from `previous` to `value` is judged at all, and redundant.
    static func isRedundant(_ node: OutputNode, previous: String?, value: String?) -> Bool {
        guard let value, let previous, value == previous, node.kind != .relay, node.boundCount > 0 else {
            return false
        }
        // Delivered only to `ignoringDuplicates()`: the repeat is already stopped there, at the cost
        // of one comparison.
        if !node.outgoing.isEmpty && node.boundCount <= node.outgoing.count
            && node.outgoing.allSatisfy({ $0.operation == .ignoringDuplicates })
        {
            return false
        }
        // A cut preview, or one that is only a type name, says nothing about equality.
        if value.hasSuffix("…") && value.utf8.count >= 100 { return false }
        let type = node.valueType
        return value != type && !value.hasSuffix("." + type)
    }

    /// An update on `thread` with the frames `stack` open under it (outermost first): counted as
    /// downstream work of the redundant update still propagating there, if any.
    mutating func updated(thread: UInt32, stack: UnsafeBufferPointer<Frame>) {
        guard var entries = open[thread] else { return }
        // Frames close innermost first: keep the entries whose frame is still open, count for each.
        entries.removeAll { !(stack.count > $0.depth && stack[$0.depth].sequence == $0.sequence) }
        for entry in entries { tallies[entry.key]?.downstream += 1 }
        open[thread] = entries.isEmpty ? nil : entries
        isTracking = !open.isEmpty
    }

    /// A redundant update of `node`, numbered `sequence`, about to be pushed at `depth` of `thread`'s
    /// frames (the root's frames: a propagation set off by a fire is not judged).
    mutating func redundant(
        _ node: OutputNode, value: String, sequence: UInt64, thread: UInt32, stack: UnsafeBufferPointer<Frame>
    ) {
        if let root = stack.first?.output, root.kind == .relay { return }
        let key = node.siteKey
        if tallies[key] == nil {
            order.append(key)
            tallies[key] = Tally(outputName: node.narrated, site: node.site, value: value, firstEvent: sequence)
        }
        tallies[key]?.count += 1
        tallies[key]?.outputs.insert(node.id)
        open[thread, default: []].append(Open(depth: stack.count, sequence: sequence, key: key))
        isTracking = true
    }

    /// One note per site, ranked by count, then by downstream work.
    func findings() -> [Finding] {
        let ranked = order.compactMap { tallies[$0] }.sorted {
            ($0.count, $0.downstream, $1.firstEvent) > ($1.count, $1.downstream, $0.firstEvent)
        }
        return ranked.map { tally in
            let outputs = tally.outputs.count > 1 ? " (\(tally.outputs.count) Outputs from this line)" : ""
            let message =
                "\(tally.outputName) was updated \(Narrator.count(tally.count, "time")) with a value that looks "
                + "equal to the one it had (\"\(Narrator.shortened(tally.value))\", by its preview), setting off "
                + "\(Narrator.count(tally.downstream, "downstream update")) for nothing\(outputs); skip the update, "
                + "or add ignoringDuplicates() when the value is Equatable"
            return Finding(
                kind: .redundantUpdate, message: message, site: tally.site, outputs: tally.outputs.sorted(),
                event: tally.firstEvent)
        }
    }

    /// The ranked table for `summary` and the report.
    func table() -> [RedundantUpdates] {
        order.compactMap { tallies[$0] }
            .map {
                RedundantUpdates(
                    output: $0.outputName, site: $0.site, updates: $0.count, downstreamUpdates: $0.downstream,
                    firstEvent: $0.firstEvent)
            }
            .sorted { ($0.updates, $0.downstreamUpdates) > ($1.updates, $1.downstreamUpdates) }
    }
}

/// The redundant updates of the Outputs made at one site: a row of the "wasted updates" table.
package struct RedundantUpdates: Hashable, Sendable {
    /// The Output's name (``Narrator``), one of them when several were made at the site.
    package var output: String
    package var site: SourceSite
    /// Updates that delivered a value that looked equal to the previous one.
    package var updates: UInt64
    /// Updates they set off downstream (on the same thread, while they propagated).
    package var downstreamUpdates: UInt64
    /// The first one, for `bind-trace why --event`.
    package var firstEvent: UInt64
}
