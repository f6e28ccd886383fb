@_spi(Harness) import BindTraceModel

// What each event does to the graph: the state and the finders it feeds.

extension Replay {
    /// An update or fire (`eventName`) of `output`.
    @inline(__always)
    func applyUpdate(
        output: UInt64, cause: TraceCause?, preview: String?, of eventName: String, event: CompactEvent
    ) {
        enter(cause, event: event)
        // Hot path: the node is used through an unretained reference (the table holds it).
        let reference = outputTable.reference(output)
        if let reference {
            let (hasOpenUpdate, hasSuperseded, isRedundant, joinsInputs) = reference._withUnsafeGuaranteedRef {
                node in
                node.updateCount &+= 1
                node.lastUpdateTime = event.time
                // Judged only with previews (the value's description), before the new one replaces it.
                let isRedundant =
                    preview != nil && looksForRedundantUpdates && node.inFocus
                    && RedundantUpdateFinder.isRedundant(node, previous: node.lastPreview, value: preview)
                if let preview { node.lastPreview = preview }
                return (
                    node.openFrames > 0, node.supersededBindings > 0, isRedundant,
                    node.kind == .combine || node.kind == .merge
                )
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
            // Its kind read in place above: a strong reference here cost a retain and a release per update.
            if cause != nil && joinsInputs {
                glitches.updated(
                    reference.takeUnretainedValue(), stack: frameStacks.view(event.thread), sequence: event.sequence,
                    value: preview)
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

    func applyBound(_ binding: BindingRecord, event: CompactEvent) {
        if binding.preexisting {
            lastDepth = 0
            // A capture starting during a file recording announces again what is already known.
            if subscriptionTable.reference(binding.subscription) != nil { return }
            preexistingSubscriptions.insert(binding.subscription)
        } else {
            if lastDangling.sequence &+ 1 == event.sequence { takeBackNote(before: binding) }
            enter(binding.cause, event: event)
            // Unretained lookups: a frame holds no reference, and a test needs none.
            push(
                Frame(
                    sequence: event.sequence, kind: .bind, outputReference: outputTable.reference(binding.output),
                    outputID: binding.output, causeSubscription: binding.cause?.subscription ?? 0,
                    boundSubscription: binding.subscription),
                thread: event.thread)
            if stoppedCombines.watchesBinds {
                stoppedCombines.bound(
                    binding.output, sequence: event.sequence, site: symbols.site(binding.site), replay: self)
            }
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
        var scopeReference = scopeNodeReference(binding.scope, event: event)
        var scopeIsInferred = false
        if binding.scope == 0, openScopeCount > 0, !binding.isInternal, !binding.preexisting,
            openScopesByThread[event.thread] == 0
        {
            // Work handed to a thread that runs no scope (a queue, a timer, a Thread, an Operation):
            // the Output it binds was made by a scope still running, so it is that scope's work.
            scopeReference = runningScopeReference(ofOutput: outputReference)
            scopeIsInferred = scopeReference != nil
            if scopeReference == nil { noteUnscopedBind(binding, event: event) }
        }
        let inFocus = isInFocus(scopeReference)
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
            if scopeIsInferred, let scopeReference { node.adoptScope(scopeReference, inFocus: inFocus) }
            if !binding.isInternal, let scopeReference {
                let hasEnded = scopeReference._withUnsafeGuaranteedRef { scope in
                    if scope.endedAt == nil { scope.add(node) }
                    return scope.endedAt != nil
                }
                // Carried work binding after its scope ended: judged as the scope's end judged its own.
                if hasEnded && !recordsHandles { markAbandoned(node, time: event.time) }
            }
            if binding.target != nil {
                // The propagation's root tells a loop in one handler from binds made by separate updates.
                let root = binding.cause == nil ? 0 : frameStacks.view(event.thread).first?.sequence ?? 0
                duplicateBindings.bound(node, sequence: event.sequence, root: root)
            }
        }
        if let outputReference {
            let isShared = outputReference._withUnsafeGuaranteedRef { output in
                output.boundCount += 1
                if !binding.isInternal, output.firstUserBindAt == 0 { output.firstUserBindAt = event.sequence }
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

    func applyUnbound(_ subscription: UInt64, reason: UnbindReason, event: CompactEvent) {
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
    func recycle(_ node: Unmanaged<SubscriptionNode>) {
        recycle(node.takeRetainedValue())
    }

    /// Keeps `node` for a later bind when this is the only reference to it (see the other `recycle`).
    @inline(__always)
    func recycle(_ node: consuming SubscriptionNode) {
        guard isKnownUniquelyReferenced(&node), subscriptionPool.count < Self.poolLimit else { return }
        // Its Output, released while this subscription's scope kept the node, may have no other holder.
        if let output = node.takeOutputNode(), output.releasedAt != nil { recycle(output) }
        node.clear()
        subscriptionPool.append(.passRetained(consume node))
    }

    /// Bookkeeping of a subscription that ends: unbound, or dropped with its released Output.
    func ended(_ node: SubscriptionNode, reason: UnbindReason, event: CompactEvent) {
        node.unboundAt = event.sequence
        node.outputReference?._withUnsafeGuaranteedRef { $0.boundCount -= 1 }
        if !node.isInternal { node.scopeReference?._withUnsafeGuaranteedRef { $0.boundSubscriptions -= 1 } }
        if node.bindingGroupReference != nil { duplicateBindings.unbound(node) }
        if node.containerGroupReference != nil { duplicateBindings.containers.unbound(node) }
        if reason == .container, node.container != 0, node.scope?.endedScope != nil {
            reusedContainers.insert(node.container)
        }
        if reason == .outputReleased, node.target == nil, node.handleReleasedAt != nil {
            droppedClosuresReleasedWithOutput.insert(node.siteKey)
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

    func scopeEnded(_ scope: ScopeNode, event: CompactEvent) {
        scope.endedAt = event.sequence
        scope.endTime = event.time
        if scope.isCounted {
            openScopeCount -= 1
            openScopesByThread[scope.thread] -= 1
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
    func rememberEnded(_ scope: ScopeNode) {
        if endedScopeOrder.count < Self.endedScopeLimit {
            endedScopeOrder.append(scope.id)
        } else {
            let oldest = endedScopeOrder[endedScopeCursor]
            endedScopes.removeValue(forKey: oldest)?.subscriptions = []
            endedScopeOrder[endedScopeCursor] = scope.id
            endedScopeCursor = (endedScopeCursor + 1) % Self.endedScopeLimit
        }
        endedScopes[scope.id] = scope
    }

    /// A user's bind on a thread running no scope while another thread runs scoped work (in focus):
    /// work handed to another thread without its scope, most likely. Noted once per site.
    @inline(never)
    func noteUnscopedBind(_ binding: BindingRecord, event: CompactEvent) {
        // At most `noteLimit` lines: a hostile trace cannot make notes cost more than that.
        guard openScopesByThread[event.thread] == 0, unscopedBinds[binding.site] == nil,
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

    func applyDangling(_ subscription: UInt64, event: CompactEvent) {
        guard let node = subscriptionTable[subscription] else {
            // Unbound while the update delivering to it was running (a subscriber before it released
            // the target's owner, which emptied its container): the snapshot's delivery still runs,
            // finds the target gone, and harms nothing.
            if endedSubscriptions.contains(subscription), frameStacks.count(event.thread) > 0 { return }
            record(
                .unknownSubscription, event,
                "delivery to a gone Binder target through subscription \(subscription), which is not bound")
            return
        }
        // The update delivering now (dangling records carry no cause: the innermost open update of
        // its Output on this thread).
        let stack = frameStacks.frames(event.thread)
        guard let delivering = stack.last(where: { $0.outputID == node.output && $0.kind == .update }) else {
            // No update of its Output runs: the recorder's note, before a bind of a new target at the
            // same address, that this target is gone. Nothing was delivered; the bind is another target.
            if node.bindingGroupReference != nil { duplicateBindings.unbound(node) }
            return
        }
        lastDangling = (event.sequence, subscription, node.output)
        node.danglingDeliveries &+= 1
        if node.firstDangling == 0 {
            node.firstDangling = event.sequence
            // Its target is gone: a later bind to an object at the same address is another target.
            if node.bindingGroupReference != nil { duplicateBindings.unbound(node) }
            node.firstDanglingUpdate = delivering.sequence
        }
        if looksForDanglingBinders { danglingBinders.delivered(node, sequence: event.sequence) }
    }

    /// The `dangling` record just before this bind was the recorder's note that `binding`'s new
    /// target took the address of that subscription's dead one (an update of the Output, finished
    /// but not yet closed on the thread, made it look like a delivery): not a delivery after all.
    func takeBackNote(before binding: BindingRecord) {
        let note = lastDangling
        lastDangling = (0, 0, 0)
        guard note.output == binding.output, note.subscription != binding.subscription,
            let target = binding.target, let node = subscriptionTable[note.subscription],
            node.targetKey?.identity == target.identity, node.danglingDeliveries > 0
        else { return }
        node.danglingDeliveries -= 1
        if node.danglingDeliveries == 0 {
            node.firstDangling = 0
            node.firstDanglingUpdate = 0
        }
        if looksForDanglingBinders { danglingBinders.takeBack(node) }
    }

    func applyScopeBegan(id: UInt64, parent: UInt64, name: String, site: SourceSite, event: CompactEvent) {
        if let replaced = scopeTable[id] {
            record(.reusedScopeID, event, "scope \(id) ('\(name)') begins again while open")
            replaced.subscriptions = []  // it can never end now: let it and its subscriptions go
            if replaced.isCounted {
                openScopeCount -= 1
                openScopesByThread[replaced.thread] -= 1
                // No longer running: work that binds its Outputs is not inferred to be its own (its
                // list would hold those subscriptions, and nothing would ever empty it).
                replaced.isCounted = false
            }
        }
        let parentNode = parent == 0 ? nil : scopeNode(parent, event: event)
        if options.focusScope == id { sawFocusScope = true }
        let scope = ScopeNode(
            id: id, parent: parentNode, name: name, site: site, beganAt: event.sequence,
            inFocus: options.focusScope == id || parentNode?.inFocus == true)
        scope.isCounted = true
        scope.thread = event.thread
        openScopeCount += 1
        openScopesByThread[event.thread] += 1
        if let list = spareSubscriptionLists.popLast() { scope.subscriptions = list }
        scopeTable[id] = scope
    }
}
