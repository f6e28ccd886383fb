@_spi(Harness) import BindTraceModel

// Taking in events: the entry points, the dispatch by kind (the hot path), and `finish()`.

extension Replay {
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

    /// Learns the strings `batch` defines. Call it for every batch, in order, before its events: a
    /// batch with no bind or creation (thousands of updates and scopes) may define the file or type
    /// a later batch's binds and creations name.
    package func take(_ batch: borrowing EventBatch) {
        symbols.take(batch)
    }

    /// Applies the event at `index` of `batch`, as ``apply(_:)`` applies it; ``take(_:)`` came first.
    @inline(__always)
    package func apply(_ batch: borrowing EventBatch, at index: Int) {
        let event = batch.events[index]
        switch event.kind {
        case .detailed(let detail):
            applyDetailed(batch.details[detail], at: event)
        case .bound(let binding):
            lastSequence = event.sequence
            statistics.count(event)
            applyBound(BindingRecord(batch.bindings[binding], symbols: symbols), event: event)
        case .outputCreated(let creation):
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
    func applyCompact(_ event: CompactEvent) {
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
        case .scopeEnded(let id):
            lastDepth = 0
            if let scope = scopeTable.removeValue(forKey: id) { scopeEnded(scope, event: event) }
        case .subscriptionContained(let subscription, let container):
            lastDepth = 0
            applyContained(subscription: subscription, container: container, sequence: event.sequence)
        case .handleReleased(let subscription):
            lastDepth = 0
            applyHandleReleased(subscription: subscription, sequence: event.sequence, time: event.time)
        case .detailed, .bound, .outputCreated:
            // Its fields are in its batch: `apply(_:at:)` applies it whole.
            break
        }
    }

    /// Applies an event with no compact form (one holding strings or a value preview, or a rare kind);
    /// `event` says where it is.
    func applyDetailed(_ kind: TraceEvent.Kind, at event: CompactEvent) {
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
        case .dangling(let subscription):
            lastDepth = 0
            applyDangling(subscription, event: event)
        case .stopped(let derived, let source):
            lastDepth = 0
            if looksForStoppedCombines, let combine = outputTable[derived] {
                stoppedCombines.stopped(combine, source: source, sequence: event.sequence)
            }
        case .captured(let subscription, let captures):
            applyCaptured(subscription, captures: captures, event: event)
        case .resumed(let delivery, let cause):
            enter(cause, event: event)
            if let delivery { resume(delivery, thread: event.thread) }
        case .bound, .outputCreated, .edge, .innerSwitch, .unbound, .released, .scopeEnded,
            .subscriptionContained, .handleReleased:
            // Never detailed: these always have a compact form (`applyCompact`, `applyBound`, `applyCreated`).
            break
        }
    }

    /// Ends the trace and returns every finding, sorted by site. Call once, after the last event.
    public func finish() -> [Finding] {
        if let finished { return finished }
        var glitches = self.glitches
        let findings = judged(glitches: &glitches)
        finished = findings
        return findings
    }

    /// The findings as the trace stands so far, without ending it: a live view asks again after a scope
    /// ends. Leaves the replay as it was (the glitch finder judges a copy of its open propagations).
    package func findingsSoFar() -> [Finding] {
        if let finished { return finished }
        var glitches = self.glitches
        return judged(glitches: &glitches)
    }

    /// Every finder's findings, sorted by site; `glitches` judges its open propagations.
    private func judged(glitches: inout GlitchFinder) -> [Finding] {
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
            notePreexisting(in: &findings[index])
        }
        findings.sort(by: Finding.siteOrder)
        return findings
    }

    /// Says so when a finding involves what was made before the trace began (a capture, or a flight
    /// recording's later segment), at that object's line, so nothing is guessed about its history and
    /// the finding's fingerprint (kind, site, message) stays that of a whole trace.
    private func notePreexisting(in finding: inout Finding) {
        guard !preexistingOutputs.isEmpty || !preexistingSubscriptions.isEmpty else { return }
        let before = "before this trace begins: what happened to it then is not in the trace"
        var named: Set<UInt64> = []
        for index in finding.related.indices where preexistingOutputs.contains(finding.related[index].origin.output) {
            finding.related[index].note += " (made \(before))"
            named.insert(finding.related[index].origin.output)
        }
        for id in finding.outputs where preexistingOutputs.contains(id) && !named.contains(id) {
            guard let node = outputTable[id] ?? keptReleased[id] else { continue }
            var note = Finding.Related(site: node.site, note: "\(node.narrated) was made \(before)")
            note.origin.isContext = true
            finding.related.append(note)
        }
        for id in finding.subscriptions where preexistingSubscriptions.contains(id) {
            guard let node = subscriptionTable[id] else { continue }
            var note = Finding.Related(
                site: node.site, note: "the subscription to \(node.outputName) was bound \(before)")
            note.origin.isContext = true
            finding.related.append(note)
        }
    }
}
