import BindTraceModel

/// Rebuilds the binding graph event by event, as it was at every moment of a trace.
///
/// Feed it the events of a trace in order with ``apply(_:)``; between two events, query the state
/// (``outputs``, ``subscriptions``, ``edges``, ``snapshot()``); call ``finish()`` after the last
/// event to get the findings. Inconsistencies become ``errors``, never crashes.
///
/// ```swift
/// let replay = Replay()
/// let reader = try TraceReader(path: "app.trace")
/// while let event = try reader.next() {
///     replay.apply(event)
///     if event.sequence == 1200 { print(replay.snapshot().outputs.count, "Outputs alive at #1200") }
/// }
/// let findings = replay.finish()
/// ```
///
/// Causes give exact nesting: each thread has a stack of open frames (updates, fires and binds still
/// delivering). An event caused by frame *P* closes the frames above *P*; an event without a cause
/// closes every frame of its thread. ``lastDepth`` is the nesting of the latest event.
///
/// - Complexity: memory proportional to what is alive at once (Outputs, subscriptions, open frames,
///   scopes something alive belongs to), not to the trace's length. Each event costs O(1) expected,
///   except bounded scans on rare events (feedback loops, releases with edges).
public final class Replay {
    public let options: AnalysisOptions
    // Hot state: exclusivity is not checked at run time (the replay is single-threaded and never
    // re-enters itself); the checks cost a fifth of the replay, and a tenth of a bind.
    /// Inconsistencies found so far (at most ``AnalysisOptions/maximumTraceErrors``; see ``errorCount``).
    @exclusivity(unchecked) public private(set) var errors: [TraceError] = []
    /// Every inconsistency found, including those not kept in ``errors``.
    @exclusivity(unchecked) public private(set) var errorCount = 0
    /// The sequence number of the latest event applied.
    @exclusivity(unchecked) public private(set) var lastSequence: UInt64 = 0
    /// How deep the latest event is nested in deliveries on its thread (0: top level).
    @exclusivity(unchecked) package private(set) var lastDepth = 0
    /// Counts and durations for ``TraceSummary``.
    @exclusivity(unchecked) package private(set) var statistics = TraceStatistics()

    /// The texts nodes refer to by symbol.
    let symbols = SymbolTable()
    let outputTable = IDTable<OutputNode>()
    let subscriptionTable = IDTable<SubscriptionNode>()
    /// Open scopes, and placeholders for scopes that began before the recording.
    let scopeTable = IDTable<ScopeNode>()
    /// Released Outputs and outputs released while kept (``AnalysisOptions/keepsReleasedOutputs``).
    @exclusivity(unchecked) var releasedOutputs = IDHistory()
    var keptReleased: [UInt64: OutputNode] = [:]
    @exclusivity(unchecked) var endedSubscriptions = IDHistory()
    /// Subscription nodes nothing refers to any more, for the next binds (see ``SubscriptionNode``).
    /// Each holds one retain.
    @exclusivity(unchecked) private var subscriptionPool: [Unmanaged<SubscriptionNode>] = []
    /// Released Output nodes nothing refers to any more, for the next creations (see ``OutputNode``).
    @exclusivity(unchecked) private var outputPool: [Unmanaged<OutputNode>] = []
    /// Emptied lists of ended scopes (``ScopeNode/subscriptions``), for the next scopes.
    @exclusivity(unchecked) private var spareSubscriptionLists: [[SubscriptionNode]] = []
    /// At most this many nodes wait in each pool: what a burst of unbinds or releases frees beyond it is freed.
    private static var poolLimit: Int { 1024 }
    /// Open frames, by thread number.
    let frameStacks = FrameStacks()
    /// The open frames of each thread seen, outermost first (a copy, for tests and diagnostics).
    var stacks: [UInt32: [Frame]] {
        Dictionary(uniqueKeysWithValues: frameStacks.threads.map { ($0, frameStacks.frames($0)) })
    }
    /// Released Outputs that open frames still refer to: frames do not retain their Output (a
    /// retain and release per update), so these are kept alive here until their last frame closes.
    @exclusivity(unchecked) var releasedWithOpenFrames: [ObjectIdentifier: OutputNode] = [:]

    @exclusivity(unchecked) var feedbackCycles = FeedbackCycleFinder()
    @exclusivity(unchecked) var glitches = GlitchFinder()
    @exclusivity(unchecked) var redundantUpdates = RedundantUpdateFinder()
    @exclusivity(unchecked) var duplicateBindings = DuplicateBindingFinder()
    @exclusivity(unchecked) var danglingBinders = DanglingBinderFinder()
    @exclusivity(unchecked) var structuralCycles = StructuralCycleFinder()
    @exclusivity(unchecked) var stoppedCombines = StoppedCombineFinder()
    /// Abandoned subscriptions that kept receiving values after their scope ended, until their
    /// Output was released (``LeakFinder`` reports them with those still bound at the end).
    @exclusivity(unchecked) var lateLeaks: [(node: SubscriptionNode, deliveries: UInt64, duration: UInt64)] = []
    /// Derived Outputs an outer source kept alive after their scope ended for longer than the scope's
    /// own work, then released before the end (``LeakFinder`` reports them as leaked Outputs): the
    /// first of each operator line, and how many more (memory stays per line, not per Output).
    @exclusivity(unchecked) var lateOutputLeaks: [SiteKey: (first: LateOutputLeak, count: Int)] = [:]
    /// Binder bindings no handle could end that went with their Output's release, by target and bind
    /// line: the first and last such release. A target whose binding goes with its Output each time
    /// (a cell replacing the row view model it holds) is bound to what its owner owns.
    @exclusivity(unchecked) var releasedWithOutput: [BindingGroup.Key: (first: UInt64, last: UInt64)] = [:]
    /// Containers released while holding subscriptions still bound: how many each left bound.
    @exclusivity(unchecked) var releasedContainers: [UInt64: Int] = [:]
    /// Whether the trace records `Subscription` handles and containers (see `Replay+Handles.swift`).
    /// Set on the first such event; a trace that records them but has none may set it up front.
    @exclusivity(unchecked) package var recordsHandles = false
    /// Containers emptied after the scope that filled them ended: used once per configuration (a
    /// reused cell's bag), so what they hold now is meant to stay until their next use.
    @exclusivity(unchecked) var reusedContainers: Set<UInt64> = []
    /// Scopes that ended lately, by id, oldest first out (at most ``endedScopeLimit``): work carried
    /// out of a scope (a queued operation, a timer, a thread) may bind in it after it ended, and is
    /// judged with it.
    private var endedScopes: [UInt64: ScopeNode] = [:]
    private var endedScopeOrder: [UInt64] = []
    private var endedScopeCursor = 0
    private static var endedScopeLimit: Int { 4096 }
    private static var noteLimit: Int { 200 }
    /// Scopes open now (placeholders not counted), and how many began on each thread.
    @exclusivity(unchecked) private var openScopeCount = 0
    private var openScopesByThread: [UInt32: Int] = [:]
    /// Binds made on a thread with no scope while scoped work ran, the first of each site: notes.
    private var unscopedBinds: [SiteKey: AnalysisNote] = [:]
    private var finished: [Finding]?
    /// `options.kinds` tested once: a `Set` lookup hashes, and these are asked per event.
    private let looksForFeedbackCycles: Bool
    private let looksForRedundantUpdates: Bool
    private let looksForStructuralCycles: Bool
    private let looksForDanglingBinders: Bool
    private let looksForStoppedCombines: Bool

    public init(options: AnalysisOptions = AnalysisOptions()) {
        self.options = options
        looksForFeedbackCycles = options.kinds.contains(.feedbackCycle)
        looksForRedundantUpdates = options.kinds.contains(.redundantUpdate)
        looksForStructuralCycles = options.kinds.contains(.structuralCycle)
        looksForDanglingBinders = options.kinds.contains(.danglingBinder)
        looksForStoppedCombines = options.kinds.contains(.stoppedCombine)
    }

    /// A replay of the trace `reader` reads: format 1.1 and later record Subscription handles and
    /// containers, so the precise leak rules apply from its first event, not from its first handle
    /// event (docs/analysis.md). Every replay of a trace file is made here, so `bind-trace`, the
    /// library and the report judge a trace alike.
    package convenience init(options: AnalysisOptions, reading reader: TraceReader) {
        self.init(options: options)
        recordsHandles = reader.version >= (1, 1)
    }

    deinit {
        // An open scope and the subscriptions bound in it hold each other until it ends: a trace
        // that stops with scopes open would otherwise leave them behind.
        for scope in scopeTable.values { scope.subscriptions = [] }
        for scope in endedScopes.values { scope.subscriptions = [] }
        for node in subscriptionPool { node.release() }
        for node in outputPool { node.release() }
    }

    // MARK: - Applying events

    /// Applies one event: the state becomes the one right after it.
    ///
    /// Events must come in trace order (increasing sequence numbers).
    public func apply(_ event: TraceEvent) {
        if let compact = CompactEvent(event) {
            applyCompact(compact)
            return
        }
        let at = CompactEvent(
            sequence: event.sequence, time: event.time, thread: event.thread, offset: event.offset,
            tag: event.kind.tag, kind: .detailed(0))
        switch event.kind {
        case .bound(let binding):
            lastSequence = event.sequence
            statistics.count(at)
            applyBound(BindingRecord(binding, symbols: symbols), event: at)
        case .outputCreated(let creation):
            lastSequence = event.sequence
            statistics.count(at)
            applyCreated(CreationRecord(creation, symbols: symbols), event: at)
        default:
            applyDetailed(event.kind, at: at)
        }
    }

    /// Applies the event at `index` of `batch`, as ``apply(_:)`` applies it.
    @inline(__always)
    package func apply(_ batch: borrowing EventBatch, at index: Int) {
        let event = batch.events[index]
        switch event.kind {
        case .detailed(let detail):
            applyDetailed(batch.details[detail], at: event)
        case .bound(let binding):
            symbols.take(batch)
            lastSequence = event.sequence
            statistics.count(event)
            applyBound(BindingRecord(batch.bindings[binding], symbols: symbols), event: event)
        case .outputCreated(let creation):
            symbols.take(batch)
            lastSequence = event.sequence
            statistics.count(event)
            applyCreated(CreationRecord(batch.creations[creation], symbols: symbols), event: event)
        default:
            applyCompact(event)
        }
    }

    /// Applies an event whose kind holds no string.
    // Hot path: most events; one table lookup for most, no allocation and no reference counting for
    // updates and fires.
    @inline(__always)
    private func applyCompact(_ event: CompactEvent) {
        lastSequence = event.sequence
        statistics.count(event)
        switch event.kind {
        case .updated(let output, let cause):
            applyUpdate(output: output, cause: cause, preview: nil, of: "updated", event: event)
        case .fired(let output, let cause):
            applyUpdate(output: output, cause: cause, preview: nil, of: "fired", event: event)
        case .unbound(let subscription, let reason, let cause):
            // The recorder writes the unbinds of a released Output with no cause: they say nothing of nesting.
            if reason != .outputReleased { enter(cause, event: event) } else { lastDepth = 0 }
            applyUnbound(subscription, reason: reason, event: event)
        case .released(let output):
            lastDepth = 0
            glitches.released(output)
            applyReleased(output, event: event)
        case .edge(let source, let derived, let operation):
            lastDepth = 0
            applyEdge(source: source, derived: derived, operation: operation, event: event)
        case .innerSwitch(let flatMap, let inner):
            lastDepth = 0
            applyInnerSwitch(flatMap: flatMap, inner: inner, event: event)
        case .dangling(let subscription):
            lastDepth = 0
            applyDangling(subscription, event: event)
        case .scopeEnded(let id):
            lastDepth = 0
            if let scope = scopeTable.removeValue(forKey: id) { scopeEnded(scope, event: event) }
        case .subscriptionContained(let subscription, let container):
            lastDepth = 0
            applyContained(subscription: subscription, container: container, sequence: event.sequence)
        case .handleReleased(let subscription):
            lastDepth = 0
            applyHandleReleased(subscription: subscription, sequence: event.sequence, time: event.time)
        case .stopped(let derived, let source):
            lastDepth = 0
            if looksForStoppedCombines, let combine = outputTable[derived] {
                stoppedCombines.stopped(combine, source: source, sequence: event.sequence)
            }
        case .detailed, .bound, .outputCreated:
            // Its fields are in its batch: `apply(_:at:)` applies it whole.
            break
        }
    }

    /// Applies an event whose kind holds strings (or a value preview); `event` says where it is.
    private func applyDetailed(_ kind: TraceEvent.Kind, at event: CompactEvent) {
        lastSequence = event.sequence
        statistics.count(event)
        switch kind {
        case .updated(let output, let cause, let preview):
            applyUpdate(output: output, cause: cause, preview: preview, of: "updated", event: event)
        case .fired(let output, let cause, let preview):
            applyUpdate(output: output, cause: cause, preview: preview, of: "fired", event: event)
        case .scopeBegan(let id, let parent, let name, let site):
            lastDepth = 0
            applyScopeBegan(id: id, parent: parent, name: name, site: site, event: event)
        case .mark:
            lastDepth = 0
        case .labeled(let output, let label):
            lastDepth = 0
            if let node = liveOutput(output, of: "labeled", event: event) { node.label = label }
        case .calledAt(let root, let site):
            // Where a root update was called (written before its deliveries, so its frame is the
            // thread's innermost): it changes nothing that is alive.
            if let frame = frameStacks.view(event.thread).last, frame.sequence == root {
                glitches.calledAt(output: frame.outputID, site: site)
            }
        case .bound, .outputCreated, .edge, .innerSwitch, .unbound, .dangling, .released, .scopeEnded,
            .subscriptionContained, .handleReleased, .stopped:
            // Never detailed: these always have a compact form (`applyCompact`, `applyBound`, `applyCreated`).
            break
        }
    }

    /// Ends the trace and returns every finding, sorted by site. Call once, after the last event.
    public func finish() -> [Finding] {
        if let finished { return finished }
        var findings: [Finding] = []
        let kinds = options.kinds
        if kinds.contains(.leakedOutput) || kinds.contains(.retainCycle) || kinds.contains(.leakedSubscription) {
            findings += LeakFinder(replay: self).findings()
        }
        if kinds.contains(.duplicateBinding) { findings += duplicateBindings.findings() }
        if kinds.contains(.danglingBinder) { findings += danglingBinders.findings() }
        if kinds.contains(.glitch) { findings += glitches.findings() }
        if kinds.contains(.redundantUpdate) { findings += redundantUpdates.findings() }
        if kinds.contains(.stoppedCombine) { findings += stoppedCombines.findings }
        let structural = kinds.contains(.structuralCycle) ? structuralCycles.findings : []
        findings += structural
        if kinds.contains(.feedbackCycle) {
            // One bug, one finding: a loop that runs around a structural circle (a flatMap returning
            // an Output downstream of itself) is that circle's finding, not also a feedback cycle.
            let circles = structural.map { Set($0.outputs) }
            findings += feedbackCycles.findings().filter { loop in
                !circles.contains { circle in loop.outputs.allSatisfy { circle.contains($0) } }
            }
        }
        findings = findings.filter { kinds.contains($0.kind) }
        for index in findings.indices {
            // Several Outputs of one declaration (each row's title) would repeat the same note.
            var seen: Set<Finding.Related> = []
            findings[index].related.removeAll { !seen.insert($0).inserted }
        }
        findings.sort(by: Finding.siteOrder)
        finished = findings
        return findings
    }

    // MARK: - Frames

    /// Closes the frames of the event's thread that have finished, checking that its cause is open.
    @inline(__always)
    private func enter(_ cause: TraceCause?, event: CompactEvent) {
        let thread = event.thread
        guard let cause else {
            if frameStacks.count(thread) > 0 { closeAll(thread) }
            lastDepth = 0
            return
        }
        let depth = frameStacks.close(thread, downTo: cause.event) { close($0) }
        if depth == 0 {
            record(
                .causeNotOpen, event,
                "its cause, event #\(cause.event) (delivering to subscription \(cause.subscription)), "
                    + "is not an update, fire or bind still running on thread \(event.thread)")
        }
        lastDepth = depth
    }

    private func closeAll(_ thread: UInt32) {
        frameStacks.removeAll(thread) { close($0) }
    }

    @inline(__always)
    private func close(_ frame: Frame) {
        guard let output = frame.outputReference else { return }
        let isLast = output._withUnsafeGuaranteedRef { output in
            if frame.kind == .update { output.openFrames -= 1 }
            output.frameReferences -= 1
            return output.frameReferences == 0 && output.releasedAt != nil
        }
        if isLast { releasedWithOpenFrames[ObjectIdentifier(output.takeUnretainedValue())] = nil }
    }

    @inline(__always)
    private func push(_ frame: Frame, thread: UInt32) {
        frame.outputReference?._withUnsafeGuaranteedRef { output in
            if frame.kind == .update { output.openFrames += 1 }
            output.frameReferences += 1
        }
        frameStacks.push(frame, thread: thread)
    }

    // MARK: - Events

    /// An update or fire (`eventName`) of `output`.
    @inline(__always)
    private func applyUpdate(
        output: UInt64, cause: TraceCause?, preview: String?, of eventName: String, event: CompactEvent
    ) {
        enter(cause, event: event)
        // Hot path: the node is used through an unretained reference (the table holds it).
        let reference = outputTable.reference(output)
        if let reference {
            let (hasOpenUpdate, hasSuperseded, isRedundant) = reference._withUnsafeGuaranteedRef { node in
                node.updateCount &+= 1
                node.lastUpdateTime = event.time
                // Judged only with previews (the value's description), before the new one replaces it.
                let isRedundant =
                    preview != nil && looksForRedundantUpdates && node.inFocus
                    && RedundantUpdateFinder.isRedundant(node, previous: node.lastPreview, value: preview)
                if let preview { node.lastPreview = preview }
                return (node.openFrames > 0, node.supersededBindings > 0, isRedundant)
            }
            if redundantUpdates.isTracking {
                redundantUpdates.updated(thread: event.thread, stack: frameStacks.view(event.thread))
            }
            if isRedundant, let preview {
                redundantUpdates.redundant(
                    reference.takeUnretainedValue(), value: preview, sequence: event.sequence, thread: event.thread,
                    stack: frameStacks.view(event.thread))
            }
            if hasSuperseded { duplicateBindings.delivered(output: output, sequence: event.sequence) }
            // Feedback: this Output's own update is still open on this thread.
            if hasOpenUpdate, let cause, looksForFeedbackCycles {
                feedbackCycles.check(
                    reference.takeUnretainedValue(), cause: cause, stack: frameStacks.view(event.thread),
                    sequence: event.sequence, replay: self)
            }
            // A combine or merge reached again by the same root: a glitch (the stack ends at the cause).
            if cause != nil {
                let node = reference.takeUnretainedValue()
                if node.kind == .combine || node.kind == .merge {
                    glitches.updated(
                        node, stack: frameStacks.view(event.thread), sequence: event.sequence, value: preview)
                }
            }
        } else {
            _ = liveOutput(output, of: eventName, event: event)
        }
        if stoppedCombines.isWatching { stoppedCombines.updated(output, sequence: event.sequence, replay: self) }
        push(
            Frame(
                sequence: event.sequence, kind: .update, outputReference: reference, outputID: output,
                causeSubscription: cause?.subscription ?? 0, boundSubscription: 0),
            thread: event.thread)
    }

    private func applyBound(_ binding: BindingRecord, event: CompactEvent) {
        if binding.preexisting {
            lastDepth = 0
            // A capture starting during a file recording announces again what is already known.
            if subscriptionTable.reference(binding.subscription) != nil { return }
        } else {
            enter(binding.cause, event: event)
            // Unretained lookups: a frame holds no reference, and a test needs none.
            push(
                Frame(
                    sequence: event.sequence, kind: .bind, outputReference: outputTable.reference(binding.output),
                    outputID: binding.output, causeSubscription: binding.cause?.subscription ?? 0,
                    boundSubscription: binding.subscription),
                thread: event.thread)
            if subscriptionTable.reference(binding.subscription) != nil {
                record(.reusedSubscriptionID, event, "subscription \(binding.subscription) is bound again while bound")
                return
            }
        }
        if endedSubscriptions.contains(binding.subscription) {
            record(
                .reusedSubscriptionID, event,
                "subscription \(binding.subscription) is bound again after it was unbound")
        }
        // Unretained lookups: the node takes the one retain of each it keeps.
        let outputReference = liveOutputReference(binding.output, of: "bound", event: event)
        let scopeReference = scopeNodeReference(binding.scope, event: event)
        let inFocus = isInFocus(scopeReference)
        if binding.scope == 0, openScopeCount > 0, !binding.isInternal, !binding.preexisting {
            noteUnscopedBind(binding, event: event)
        }
        // The table takes over the node's one reference: a recycled node's, or a new one's.
        let reference: Unmanaged<SubscriptionNode>
        if let recycled = subscriptionPool.popLast() {
            recycled._withUnsafeGuaranteedRef {
                $0.rebind(
                    binding, output: outputReference, scope: scopeReference, boundAt: event.sequence, inFocus: inFocus)
            }
            reference = recycled
        } else {
            reference = .passRetained(
                SubscriptionNode(
                    binding, symbols: symbols, output: outputReference, scope: scopeReference,
                    boundAt: event.sequence, inFocus: inFocus))
        }
        subscriptionTable.insert(retained: reference, for: binding.subscription)
        reference._withUnsafeGuaranteedRef { node in
            if !binding.isInternal, let scopeReference {
                let hasEnded = scopeReference._withUnsafeGuaranteedRef { scope in
                    if scope.endedAt == nil { scope.add(node) }
                    return scope.endedAt != nil
                }
                // Carried work binding after its scope ended: judged as the scope's end judged its own.
                if hasEnded && !recordsHandles { markAbandoned(node, time: event.time) }
            }
            if binding.target != nil { duplicateBindings.bound(node, sequence: event.sequence) }
        }
        if let outputReference {
            let isShared = outputReference._withUnsafeGuaranteedRef { output in
                output.boundCount += 1
                // Bound after the scope it was created in ended, by other work (not that scope, nor a
                // scope enclosing it — the same screen's work): shared, long-lived by design.
                guard !output.usedOutsideScope, output.scope?.hasEnded == true,
                    let ended = output.scope?.endedScope
                else { return false }
                let scope = scopeReference?.takeUnretainedValue()
                return !ended.contains(scope) && scope?.contains(ended) != true
            }
            if isShared { outputReference._withUnsafeGuaranteedRef { $0.usedOutsideScope = true } }
        }
    }

    private func applyUnbound(_ subscription: UInt64, reason: UnbindReason, event: CompactEvent) {
        guard let reference = subscriptionTable.removeReference(forKey: subscription) else {
            let detail =
                endedSubscriptions.contains(subscription)
                ? "which was already unbound" : "which the trace never bound"
            record(.unknownSubscription, event, "unbind (\(reason)) of subscription \(subscription), \(detail)")
            return
        }
        endedSubscriptions.insert(subscription)
        reference._withUnsafeGuaranteedRef { ended($0, reason: reason, event: event) }
        // An internal or scope-less subscription is usually held by nothing else now.
        recycle(reference)
    }

    /// Takes over the reference `node` holds: keeps the node for a later bind when nothing else
    /// refers to it (no scope list, group, finding or table), so no one can see it change; else
    /// releases it.
    @inline(__always)
    private func recycle(_ node: Unmanaged<SubscriptionNode>) {
        recycle(node.takeRetainedValue())
    }

    /// Keeps `node` for a later bind when this is the only reference to it (see the other `recycle`).
    @inline(__always)
    private func recycle(_ node: consuming SubscriptionNode) {
        guard isKnownUniquelyReferenced(&node), subscriptionPool.count < Self.poolLimit else { return }
        // Its Output, released while this subscription's scope kept the node, may have no other holder.
        if let output = node.takeOutputNode(), output.releasedAt != nil { recycle(output) }
        node.clear()
        subscriptionPool.append(.passRetained(consume node))
    }

    /// Bookkeeping of a subscription that ends: unbound, or dropped with its released Output.
    private func ended(_ node: SubscriptionNode, reason: UnbindReason, event: CompactEvent) {
        node.unboundAt = event.sequence
        node.outputReference?._withUnsafeGuaranteedRef { $0.boundCount -= 1 }
        if !node.isInternal { node.scopeReference?._withUnsafeGuaranteedRef { $0.boundSubscriptions -= 1 } }
        if node.bindingGroupReference != nil { duplicateBindings.unbound(node) }
        if node.containerGroupReference != nil { duplicateBindings.containers.unbound(node) }
        if reason == .container, node.container != 0, node.scope?.endedScope != nil {
            reusedContainers.insert(node.container)
        }
        if reason == .outputReleased, let target = node.targetKey, node.handleReleasedAt != nil {
            let key = BindingGroup.Key(target: target, site: node.siteKey)
            releasedWithOutput[key] = (releasedWithOutput[key]?.first ?? event.sequence, event.sequence)
        }
        // A leak that ended late: abandoned, it kept receiving values after its scope ended until
        // its Output went away.
        if reason == .outputReleased, recordsHandles, node.handleReleasedAt != nil, node.inFocus,
            let mark = node.updatesAtAbandon, let output = node.outputNode, output.updateCount > mark,
            !node.diesWithItsOutput
        {
            let duration = output.lastUpdateTime > node.timeAtAbandon ? output.lastUpdateTime - node.timeAtAbandon : 0
            lateLeaks.append((node, output.updateCount - mark, duration))
        }
    }

    private func scopeEnded(_ scope: ScopeNode, event: CompactEvent) {
        scope.endedAt = event.sequence
        scope.endTime = event.time
        if scope.isCounted {
            openScopeCount -= 1
            openScopesByThread[scope.thread, default: 1] -= 1
            if openScopesByThread[scope.thread] == 0 { openScopesByThread[scope.thread] = nil }
        }
        rememberEnded(scope)
        var nodes: [SubscriptionNode] = []
        swap(&nodes, &scope.subscriptions)
        for node in nodes where node.unboundAt == nil {
            // Without handle records, the scope's end is the only mark; with them, the handle's release too.
            if !recordsHandles || node.handleReleasedAt != nil { markAbandoned(node, time: event.time) }
        }
        // The unbound ones were held by this list only, most of the time.
        while let node = nodes.popLast() { recycle(node) }
        // The list's storage serves the next scope.
        if nodes.capacity <= 64 && spareSubscriptionLists.count < 64 { spareSubscriptionLists.append(nodes) }
    }

    /// Keeps `scope` findable by id for work that binds in it after it ended (the oldest goes first).
    private func rememberEnded(_ scope: ScopeNode) {
        if endedScopeOrder.count < Self.endedScopeLimit {
            endedScopeOrder.append(scope.id)
        } else {
            let oldest = endedScopeOrder[endedScopeCursor]
            endedScopes[oldest]?.subscriptions = []
            endedScopes[oldest] = nil
            endedScopeOrder[endedScopeCursor] = scope.id
            endedScopeCursor = (endedScopeCursor + 1) % Self.endedScopeLimit
        }
        endedScopes[scope.id] = scope
    }

    /// A user's bind on a thread running no scope while another thread runs scoped work (in focus):
    /// work handed to another thread without its scope, most likely. Noted once per site.
    @inline(never)
    private func noteUnscopedBind(_ binding: BindingRecord, event: CompactEvent) {
        // At most `noteLimit` lines: a hostile trace cannot make notes cost more than that.
        guard (openScopesByThread[event.thread] ?? 0) == 0, unscopedBinds[binding.site] == nil,
            unscopedBinds.count < Self.noteLimit
        else { return }
        let running = scopeTable.values.filter { $0.isCounted && $0.endedAt == nil && isInFocus($0) }
        guard let scope = running.max(by: { $0.beganAt < $1.beganAt }) else { return }
        let message =
            "bound on a thread that runs no trace scope while scope '\(Narrator.shortened(scope.name))' runs on "
            + "another: if this is that scope's work, carry the scope to it (BindTrace.inheritingScope { … }, or "
            + "BindTrace.withScope(token) { … } with a token taken where the work was handed over), or its leaks "
            + "are not judged with it"
        unscopedBinds[binding.site] = AnalysisNote(
            site: symbols.site(binding.site), message: message, event: event.sequence)
    }

    /// Notes about binds that no scope judged (see ``noteUnscopedBind(_:event:)``), by site.
    public var notes: [AnalysisNote] {
        unscopedBinds.values.sorted { ($0.site.file, $0.site.line) < ($1.site.file, $1.site.line) }
    }

    /// Notes the moment `node` became a leak candidate: later deliveries are counted from here.
    func markAbandoned(_ node: SubscriptionNode, time: UInt64) {
        node.updatesAtAbandon = node.outputNode?.updateCount ?? 0
        node.timeAtAbandon = time
    }

    private func applyCreated(_ creation: CreationRecord, event: CompactEvent) {
        if creation.preexisting { lastDepth = 0 } else { enter(creation.cause, event: event) }
        if let existing = outputTable.reference(creation.output)?.takeUnretainedValue() {
            if creation.preexisting {
                // Announced again (a new capture during a file recording): not a new Output.
                if let label = creation.label { existing.label = label }
            } else {
                record(.reusedOutputID, event, "Output \(creation.output) is created again while alive")
            }
            return
        }
        if releasedOutputs.contains(creation.output) {
            record(.reusedOutputID, event, "Output \(creation.output) is created again after its release")
            keptReleased[creation.output] = nil
        }
        let scope = scopeNodeReference(creation.scope, event: event)
        let inFocus = isInFocus(scope)
        // The node's scope takes one retain, the table the node's.
        if let recycled = outputPool.popLast() {
            recycled._withUnsafeGuaranteedRef {
                $0.recreate(creation, scope: scope?.retain(), createdAt: event.sequence, inFocus: inFocus)
            }
            outputTable.insert(retained: recycled, for: creation.output)
        } else {
            outputTable.insert(
                retained: .passRetained(
                    OutputNode(
                        creation, symbols: symbols, scope: scope?.retain(), createdAt: event.sequence,
                        inFocus: inFocus)),
                for: creation.output)
        }
        statistics.created(creation.kind)
    }

    private func applyReleased(_ output: UInt64, event: CompactEvent) {
        guard let reference = outputTable.removeReference(forKey: output) else {
            _ = liveOutput(output, of: "released", event: event)
            return
        }
        // The table's reference, now this function's.
        let node = reference.takeRetainedValue()
        releasedOutputs.insert(output)
        node.releasedAt = event.sequence
        if node.frameReferences > 0 { releasedWithOpenFrames[ObjectIdentifier(node)] = node }
        if looksForStoppedCombines {
            stoppedCombines.released(node, sequence: event.sequence)
            stoppedCombines.forget(output)
        }
        statistics.released(node)
        noteLateOutputLeak(node, event: event)
        if node.boundCount > 0 {
            record(
                .releasedWhileBound, event,
                "Output \(output) is released with \(node.boundCount) subscription(s) still bound")
            for (id, subscription) in subscriptionTable.entries where subscription.output == output {
                subscriptionTable[id] = nil
                endedSubscriptions.insert(id)
                ended(subscription, reason: .outputReleased, event: event)
            }
            node.boundCount = 0
        }
        if options.keepsReleasedOutputs {
            keptReleased[output] = node
            return
        }
        for edge in node.incoming {
            outputTable.reference(edge.source)?._withUnsafeGuaranteedRef { source in
                source.outgoing.removeAll { $0.derived == output }
            }
        }
        for edge in node.outgoing {
            outputTable.reference(edge.derived)?._withUnsafeGuaranteedRef { derived in
                derived.incoming.removeAll { $0.source == output }
            }
        }
        node.removeEdges()
        recycle(node)
    }

    /// A derived Output released long after its scope ended, which an outer source kept alive all
    /// that time: longer after the scope than the scope's own work lasted (in events).
    private func noteLateOutputLeak(_ node: OutputNode, event: CompactEvent) {
        guard node.hasOuterSource, node.inFocus, !node.usedOutsideScope, let scope = node.scope?.endedScope,
            scope.isCounted, let endedAt = scope.endedAt
        else { return }
        let after = event.sequence - endedAt
        guard after > endedAt - scope.beganAt else { return }
        node.outlivedItsScope = true
        if let existing = lateOutputLeaks[node.siteKey] {
            lateOutputLeaks[node.siteKey] = (existing.first, existing.count + 1)
            return
        }
        let leak = LateOutputLeak(
            node: node, scope: scope, events: after,
            duration: event.time > scope.endTime ? event.time - scope.endTime : 0,
            releasedAt: event.sequence)
        lateOutputLeaks[node.siteKey] = (leak, 1)
    }

    /// Keeps `node`, released, for a later creation when nothing else refers to it: no subscription,
    /// open frame (``releasedWithOpenFrames`` holds those), finding or table. Else releases it.
    @inline(__always)
    private func recycle(_ node: consuming OutputNode) {
        guard isKnownUniquelyReferenced(&node), outputPool.count < Self.poolLimit else { return }
        node.clear()
        outputPool.append(.passRetained(consume node))
    }

    private func applyEdge(source: UInt64, derived: UInt64, operation: OutputKind, event: CompactEvent) {
        // Unretained: the table holds both.
        guard let sourceReference = liveOutputReference(source, of: "edge", event: event),
            let derivedReference = liveOutputReference(derived, of: "edge", event: event)
        else { return }
        let edge = EdgeState(source: source, derived: derived, operation: operation, role: .operator)
        let isNew = sourceReference._withUnsafeGuaranteedRef { sourceNode in
            guard !sourceNode.outgoing.contains(where: { $0.derived == derived && $0.role == .operator }) else {
                return false
            }
            sourceNode.outgoing.append(edge)
            return true
        }
        guard isNew else { return }
        let sourceScope = sourceReference._withUnsafeGuaranteedRef { $0.scope }
        derivedReference._withUnsafeGuaranteedRef { derived in
            derived.incoming.append(edge)
            if let scope = derived.scope, !scope.contains(sourceScope) { derived.hasOuterSource = true }
        }
        if looksForStructuralCycles {
            structuralCycles.check(edge, replay: self, sequence: event.sequence)
        }
    }

    private func applyInnerSwitch(flatMap: UInt64, inner: UInt64, event: CompactEvent) {
        guard let flatMapNode = liveOutput(flatMap, of: "innerSwitch", event: event),
            let innerNode = liveOutput(inner, of: "innerSwitch", event: event)
        else { return }
        // The previous current inner becomes a past inner.
        for index in flatMapNode.incoming.indices where flatMapNode.incoming[index].role == .currentInner {
            let previous = flatMapNode.incoming[index].source
            flatMapNode.incoming[index].role = .pastInner
            if let previousNode = outputTable[previous] {
                previousNode.setRole(.pastInner, toward: flatMap)
                if previousNode.innerOf == flatMap { previousNode.innerOf = 0 }
            }
        }
        innerNode.innerOf = flatMap
        if let index = flatMapNode.incoming.firstIndex(where: { $0.source == inner && $0.role == .pastInner }) {
            flatMapNode.incoming[index].role = .currentInner
            innerNode.setRole(.currentInner, toward: flatMap)
            return
        }
        let edge = EdgeState(source: inner, derived: flatMap, operation: .flatMap, role: .currentInner)
        innerNode.outgoing.append(edge)
        flatMapNode.incoming.append(edge)
        if looksForStructuralCycles {
            structuralCycles.check(edge, replay: self, sequence: event.sequence)
        }
    }

    private func applyDangling(_ subscription: UInt64, event: CompactEvent) {
        guard let node = subscriptionTable[subscription] else {
            record(
                .unknownSubscription, event,
                "delivery to a gone Binder target through subscription \(subscription), which is not bound")
            return
        }
        node.danglingDeliveries &+= 1
        if node.firstDangling == 0 {
            node.firstDangling = event.sequence
            // Its target is gone: a later bind to an object at the same address is another target.
            if node.bindingGroupReference != nil { duplicateBindings.unbound(node) }
            // The update delivering now (dangling records carry no cause: the innermost open update of its Output).
            let stack = frameStacks.frames(event.thread)
            node.firstDanglingUpdate =
                stack.last(where: { $0.outputID == node.output && $0.kind == .update })?.sequence ?? event.sequence
        }
        if looksForDanglingBinders { danglingBinders.delivered(node, sequence: event.sequence) }
    }

    private func applyScopeBegan(id: UInt64, parent: UInt64, name: String, site: SourceSite, event: CompactEvent) {
        if let replaced = scopeTable[id] {
            record(.reusedScopeID, event, "scope \(id) ('\(name)') begins again while open")
            replaced.subscriptions = []  // it can never end now: let it and its subscriptions go
            if replaced.isCounted {
                openScopeCount -= 1
                openScopesByThread[replaced.thread, default: 1] -= 1
            }
        }
        let parentNode = parent == 0 ? nil : scopeNode(parent, event: event)
        let scope = ScopeNode(
            id: id, parent: parentNode, name: name, site: site, beganAt: event.sequence,
            inFocus: options.focusScope == id || parentNode?.inFocus == true)
        scope.isCounted = true
        scope.thread = event.thread
        openScopeCount += 1
        openScopesByThread[event.thread, default: 0] += 1
        if let list = spareSubscriptionLists.popLast() { scope.subscriptions = list }
        scopeTable[id] = scope
    }

    // MARK: - Lookups

    /// The live Output `id`, or `nil` with a trace error naming what is wrong with it.
    @inline(__always)
    func liveOutput(_ id: UInt64, of eventName: String, event: CompactEvent) -> OutputNode? {
        if let node = outputTable[id] { return node }
        if releasedOutputs.contains(id) {
            record(.releasedOutput, event, "\(eventName) of Output \(id) after its release")
        } else {
            record(.unknownOutput, event, "\(eventName) of Output \(id), which the trace never created")
        }
        return nil
    }

    /// The live Output `id` unretained (valid while it is in the table), or `nil` as ``liveOutput(_:of:event:)``.
    @inline(__always)
    private func liveOutputReference(_ id: UInt64, of eventName: String, event: CompactEvent)
        -> Unmanaged<OutputNode>?
    {
        if let reference = outputTable.reference(id) { return reference }
        _ = liveOutput(id, of: eventName, event: event)
        return nil
    }

    /// The scope `id` (nil for 0); a scope that began before the recording gets a placeholder.
    private func scopeNode(_ id: UInt64, event: CompactEvent) -> ScopeNode? {
        scopeNodeReference(id, event: event)?.takeUnretainedValue()
    }

    /// ``scopeNode(_:event:)`` unretained: valid while the scope is in the table (open, or a placeholder).
    @inline(__always)
    private func scopeNodeReference(_ id: UInt64, event: CompactEvent) -> Unmanaged<ScopeNode>? {
        guard id != 0 else { return nil }
        if let scope = scopeTable.reference(id) { return scope }
        // Held by the ring of ended scopes: valid as long as a table entry would be.
        if let ended = endedScopes[id] { return Unmanaged.passUnretained(ended) }
        return addPlaceholderScope(id)
    }

    @inline(never)
    private func addPlaceholderScope(_ id: UInt64) -> Unmanaged<ScopeNode>? {
        let placeholder = ScopeNode(
            id: id, parent: nil, name: "scope \(id)", site: nil, beganAt: 0, inFocus: options.focusScope == id)
        scopeTable[id] = placeholder
        return scopeTable.reference(id)
    }

    private func isInFocus(_ scope: ScopeNode?) -> Bool {
        guard options.focusScope != nil else { return true }
        return scope?.inFocus == true
    }

    @inline(__always)
    private func isInFocus(_ scope: Unmanaged<ScopeNode>?) -> Bool {
        guard options.focusScope != nil else { return true }
        return scope?._withUnsafeGuaranteedRef { $0.inFocus } == true
    }

    func record(_ kind: TraceError.Kind, _ event: CompactEvent, _ message: @autoclosure () -> String) {
        errorCount += 1
        guard errors.count < options.maximumTraceErrors else { return }
        errors.append(TraceError(kind: kind, sequence: event.sequence, offset: event.offset, message: message()))
    }

    func output(id: UInt64) -> OutputNode? { outputTable[id] }
    func subscription(id: UInt64) -> SubscriptionNode? { subscriptionTable[id] }

    // MARK: - State

    /// The Output `id` as it is now (released ones only with ``AnalysisOptions/keepsReleasedOutputs``).
    public func outputState(_ id: UInt64) -> OutputState? {
        (outputTable[id] ?? keptReleased[id])?.state
    }

    /// The subscription `id`, while it is bound.
    public func subscriptionState(_ id: UInt64) -> SubscriptionState? {
        subscriptionTable[id]?.state
    }

    /// How many Outputs are alive now.
    public var liveOutputCount: Int { outputTable.count }
    /// How many subscriptions are bound now.
    public var boundSubscriptionCount: Int { subscriptionTable.count }

    /// The whole graph as it is now.
    /// - Complexity: O(*n* log *n*) in what is alive.
    public func snapshot() -> GraphState {
        var outputs = outputTable.values.map(\.state)
        outputs += keptReleased.values.map(\.state)
        outputs.sort { $0.id < $1.id }
        var edges: [EdgeState] = []
        for node in outputTable.values { edges += node.outgoing }
        for node in keptReleased.values { edges += node.outgoing }
        edges.sort { ($0.source, $0.derived, $0.role.rawValue) < ($1.source, $1.derived, $1.role.rawValue) }
        var scopes = [UInt64: ScopeNode](uniqueKeysWithValues: scopeTable.entries.map { ($0.id, $0.node) })
        for node in outputTable.values { node.scope.map { addScope($0, to: &scopes) } }
        for node in subscriptionTable.values { node.scope.map { addScope($0, to: &scopes) } }
        return GraphState(
            sequence: lastSequence, outputs: outputs,
            subscriptions: subscriptionTable.values.map(\.state).sorted { $0.id < $1.id }, edges: edges,
            scopes: scopes.values.map(\.state).sorted { $0.id < $1.id })
    }

    private func addScope(_ scope: ScopeNode, to scopes: inout [UInt64: ScopeNode]) {
        var current: ScopeNode? = scope
        while let node = current, scopes[node.id] == nil {
            scopes[node.id] = node
            current = node.parent
        }
    }
}

extension OutputNode {
    /// Sets the role of this node's outgoing inner edge to `flatMap`.
    func setRole(_ role: EdgeState.Role, toward flatMap: UInt64) {
        for index in outgoing.indices where outgoing[index].derived == flatMap && outgoing[index].role != .operator {
            outgoing[index].role = role
        }
    }
}
