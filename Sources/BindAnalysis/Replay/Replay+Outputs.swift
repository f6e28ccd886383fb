@_spi(Harness) import BindTraceModel

// What an Output's life does to the graph: its creation and release, the edges to it, a flatMap's
// switch to a new inner Output.

extension Replay {
    func applyCreated(_ creation: CreationRecord, event: CompactEvent) {
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
        if creation.preexisting { preexistingOutputs.insert(creation.output) }
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

    func applyReleased(_ output: UInt64, event: CompactEvent) {
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
    func noteLateOutputLeak(_ node: OutputNode, event: CompactEvent) {
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
    func recycle(_ node: consuming OutputNode) {
        guard isKnownUniquelyReferenced(&node), outputPool.count < Self.poolLimit else { return }
        node.clear()
        outputPool.append(.passRetained(consume node))
    }

    func applyEdge(source: UInt64, derived: UInt64, operation: OutputKind, event: CompactEvent) {
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

    func applyInnerSwitch(flatMap: UInt64, inner: UInt64, event: CompactEvent) {
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
}
