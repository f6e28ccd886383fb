@_spi(Harness) import BindTraceModel

/// Counts a trace site by site (``SiteProfile``) while the analysis replays it: the one pass of
/// `bind-trace diff` over each side, findings and counts together.
///
/// ```swift
/// let tally = SiteTally()
/// let result = try TraceAnalyzer.analyze(reader: reader, options: options, tally: tally) { _, _ in }
/// let profile = tally.profile()
/// ```
///
/// Memory: one slot per distinct site, plus the live Outputs' and subscriptions' slots by id (what the
/// replay keeps anyway); nothing per event. Each update costs two table lookups (its site, and its
/// Output's subscriber count in the replay).
///
/// An Output labelled after its creation (`Output(value: "").labeled("email")`, the usual spelling)
/// moves to its labelled site, its creation and its edges with it; binds and updates before the label
/// stay with the unlabelled site.
package final class SiteTally: ReplayWatcher {
    /// One site's counts, shared by every live Output (or subscription) of the site.
    final class Slot {
        let index: Int
        // Unchecked, as the replay's nodes: one thread, never re-entered; the checks cost more than the counting.
        @exclusivity(unchecked) var counts = SiteCounts()
        /// Subscriptions bound now.
        @exclusivity(unchecked) var live: UInt64 = 0
        init(index: Int) { self.index = index }
    }

    /// A subscription's site: its own slot (an app's subscription) and its Output's.
    final class BindSlot {
        let own: Slot?
        let output: Slot
        init(own: Slot?, output: Slot) {
            self.own = own
            self.output = output
        }
    }

    private struct OutputKey: Hashable {
        let kind: OutputKind
        let site: SiteKey
        let valueType: UInt32
        let label: String?
    }

    private struct BindKey: Hashable {
        let output: Int
        let site: SiteKey
        /// The target type's symbol; `UInt32.max` for a closure.
        let target: UInt32
    }

    private struct EdgeKey: Hashable {
        let source: Int
        let derived: Int
        let operation: OutputKind
    }

    @exclusivity(unchecked) private var outputSlots: [OutputKey: Slot] = [:]
    @exclusivity(unchecked) private var outputKeys: [OutputKey] = []
    @exclusivity(unchecked) private var bindSlots: [BindKey: BindSlot] = [:]
    @exclusivity(unchecked) private var bindKeys: [BindKey] = []
    /// Operators' subscriptions, by their source's slot: counted with it only (they are its edges).
    @exclusivity(unchecked) private var internalBindSlots: [Int: BindSlot] = [:]
    /// Edges by slot, with how many live or past Outputs hold them (a relabelled Output moves its own).
    @exclusivity(unchecked) private var edges: [EdgeKey: Int] = [:]
    /// The live Outputs' and subscriptions' slots, by trace id.
    private let outputsByID = IDTable<Slot>()
    private let subscriptionsByID = IDTable<BindSlot>()
    /// Set in `willApply` for an update with a value: whether the replay judges it equal to the last one.
    private var pendingWasted = false
    @exclusivity(unchecked) private var symbols: SymbolTable?

    package init() {}

    package func take(_ batch: borrowing EventBatch) {}

    package func willApply(_ batch: borrowing EventBatch, at index: Int, in replay: Replay) {
        // Only an update with a value can repeat one; its previous value is gone after the replay applies it.
        guard case .detailed(let detail) = batch.events[index].kind else { return }
        let output: UInt64
        let preview: String?
        switch batch.details[detail] {
        case .updated(let id, _, let value), .fired(let id, _, let value):
            output = id
            preview = value
        default: return
        }
        guard let node = replay.outputTable[output] else { return }
        pendingWasted = RedundantUpdateFinder.isRedundant(node, previous: node.lastPreview, value: preview)
    }

    // Hot path: one switch, a lookup or two per event, no allocation but for a new site.
    package func didApply(_ batch: borrowing EventBatch, at index: Int, in replay: Replay) {
        let event = batch.events[index]
        switch event.kind {
        case .updated(let output, _), .fired(let output, _):
            updated(output, in: replay)
        case .bound(let binding):
            bound(BindingRecord(batch.bindings[binding], symbols: replay.symbols))
        case .outputCreated(let creation):
            created(CreationRecord(batch.creations[creation], symbols: replay.symbols), in: replay)
        case .unbound(let subscription, _, _):
            if let reference = subscriptionsByID.removeReference(forKey: subscription) {
                let slot = reference.takeRetainedValue()
                slot.output.live &-= 1
                slot.own?.live &-= 1
            }
        case .released(let output):
            outputsByID.removeReference(forKey: output)?.release()
        case .edge(let source, let derived, let operation):
            if let source = outputsByID[source], let derived = outputsByID[derived] {
                edges[EdgeKey(source: source.index, derived: derived.index, operation: operation), default: 0] += 1
            }
        case .detailed(let detail):
            switch batch.details[detail] {
            case .updated(let output, _, _), .fired(let output, _, _):
                updated(output, in: replay)
                if pendingWasted { outputsByID[output]?.counts.wastedUpdates &+= 1 }
                pendingWasted = false
            case .labeled(let output, _):
                relabel(output, in: replay)
            default: break
            }
        case .innerSwitch, .scopeEnded, .subscriptionContained, .handleReleased:
            break
        }
    }

    @inline(__always)
    private func updated(_ output: UInt64, in replay: Replay) {
        guard let slot = outputsByID.reference(output)?.takeUnretainedValue() else { return }
        slot.counts.updates &+= 1
        if let node = replay.outputTable.reference(output) {
            slot.counts.deliveries &+= UInt64(node.takeUnretainedValue().boundCount)
        }
        let depth = UInt64(replay.lastDepth)
        if depth > slot.counts.deepestPropagation { slot.counts.deepestPropagation = depth }
    }

    private func created(_ creation: CreationRecord, in replay: Replay) {
        symbols = replay.symbols
        let key = OutputKey(
            kind: creation.kind, site: creation.site, valueType: creation.valueType, label: creation.label)
        let slot = outputSlot(key)
        slot.counts.outputsCreated &+= 1
        outputsByID.insert(retained: .passRetained(slot), for: creation.output)
    }

    private func outputSlot(_ key: OutputKey) -> Slot {
        if let slot = outputSlots[key] { return slot }
        let slot = Slot(index: outputKeys.count)
        outputKeys.append(key)
        outputSlots[key] = slot
        return slot
    }

    private func bound(_ binding: BindingRecord) {
        guard let output = outputsByID.reference(binding.output)?.takeUnretainedValue() else { return }
        let slot: BindSlot
        if binding.isInternal {
            slot = internalBindSlots[output.index] ?? BindSlot(own: nil, output: output)
            internalBindSlots[output.index] = slot
        } else {
            let key = BindKey(output: output.index, site: binding.site, target: binding.target?.type ?? .max)
            if let existing = bindSlots[key] {
                slot = existing
            } else {
                slot = BindSlot(own: Slot(index: bindKeys.count), output: output)
                bindKeys.append(key)
                bindSlots[key] = slot
            }
        }
        Self.count(bindTo: slot.output)
        if let own = slot.own { Self.count(bindTo: own) }
        subscriptionsByID.insert(retained: .passRetained(slot), for: binding.subscription)
    }

    private static func count(bindTo slot: Slot) {
        slot.counts.binds &+= 1
        slot.live &+= 1
        if slot.live > slot.counts.peakLiveSubscriptions { slot.counts.peakLiveSubscriptions = slot.live }
    }

    /// An Output got its label: it moves to the labelled site with its creation and its edges.
    private func relabel(_ output: UInt64, in replay: Replay) {
        guard let node = replay.outputTable[output], let old = outputsByID[output] else { return }
        let oldKey = outputKeys[old.index]
        let key = OutputKey(kind: oldKey.kind, site: oldKey.site, valueType: oldKey.valueType, label: node.label)
        guard key != oldKey else { return }
        let new = outputSlot(key)
        old.counts.outputsCreated &-= min(old.counts.outputsCreated, 1)
        new.counts.outputsCreated &+= 1
        outputsByID.insert(retained: .passRetained(new), for: output)
        for edge in node.incoming + node.outgoing {
            guard let source = outputsByID[edge.source], let derived = outputsByID[edge.derived] else { continue }
            let moved = EdgeKey(source: source.index, derived: derived.index, operation: edge.operation)
            let stale = EdgeKey(
                source: edge.source == output ? old.index : source.index,
                derived: edge.derived == output ? old.index : derived.index, operation: edge.operation)
            if let count = edges[stale] { edges[stale] = count > 1 ? count - 1 : nil }
            edges[moved, default: 0] += 1
        }
    }

    /// The counts so far, strings resolved; sites left with nothing (an Output that moved to its
    /// label at once) are left out.
    package func profile() -> SiteProfile {
        var profile = SiteProfile()
        guard let symbols else { return profile }
        func site(_ index: Int) -> SiteProfile.OutputSite {
            let key = outputKeys[index]
            return SiteProfile.OutputSite(
                kind: key.kind, site: symbols.site(key.site), label: key.label, valueType: symbols[key.valueType])
        }
        var inEdges = Set<Int>()
        for edge in edges.keys {
            profile.edges.insert(
                SiteProfile.Edge(source: site(edge.source), derived: site(edge.derived), operation: edge.operation))
            inEdges.formUnion([edge.source, edge.derived])
        }
        for (key, slot) in bindSlots {
            guard let own = slot.own else { continue }
            profile.bindings[
                SiteProfile.BindingSite(
                    output: site(key.output), site: symbols.site(key.site),
                    subscriber: key.target == .max ? .closure : .binder(symbols[key.target]))] = own.counts
        }
        let bound = Set(bindSlots.keys.map(\.output))
        for slot in outputSlots.values
        where slot.counts != SiteCounts() || inEdges.contains(slot.index) || bound.contains(slot.index) {
            profile.outputs[site(slot.index)] = slot.counts
        }
        return profile
    }
}

extension TraceAnalyzer {
    /// Analyses every remaining event of `reader` as ``analyze(reader:options:readAhead:progress:)``
    /// does, counting its sites into `tally` in the same pass.
    package static func analyze(
        reader: TraceReader, options: AnalysisOptions, tally: SiteTally, readAhead: Bool = true,
        progress: (_ batch: EventBatch, _ events: UInt64) -> Void
    ) throws(TraceReadError) -> AnalysisResult {
        let replay = Replay(options: options, reading: reader)
        let state = try self.replay(reader, into: replay, watcher: tally, readAhead: readAhead, progress: progress)
        return result(of: replay, state: state, warnings: [], isComplete: true)
    }
}
