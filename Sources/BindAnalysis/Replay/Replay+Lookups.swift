import BindTraceModel

// Finding the nodes an event names, or recording a trace error when it names none.

extension Replay {
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
    func liveOutputReference(_ id: UInt64, of eventName: String, event: CompactEvent)
        -> Unmanaged<OutputNode>?
    {
        if let reference = outputTable.reference(id) { return reference }
        _ = liveOutput(id, of: eventName, event: event)
        return nil
    }

    /// The scope `id` (nil for 0); a scope that began before the recording gets a placeholder.
    func scopeNode(_ id: UInt64, event: CompactEvent) -> ScopeNode? {
        scopeNodeReference(id, event: event)?.takeUnretainedValue()
    }

    /// ``scopeNode(_:event:)`` unretained: valid while the scope is in the table (open, or a placeholder).
    @inline(__always)
    func scopeNodeReference(_ id: UInt64, event: CompactEvent) -> Unmanaged<ScopeNode>? {
        guard id != 0 else { return nil }
        if let scope = scopeTable.reference(id) { return scope }
        // Held by the ring of ended scopes: valid as long as a table entry would be.
        if let ended = endedScopes.reference(id) { return ended }
        return addPlaceholderScope(id)
    }

    @inline(never)
    func addPlaceholderScope(_ id: UInt64) -> Unmanaged<ScopeNode>? {
        if options.focusScope == id { sawFocusScope = true }
        let placeholder = ScopeNode(
            id: id, parent: nil, name: "scope \(id)", site: nil, beganAt: 0, inFocus: options.focusScope == id)
        scopeTable[id] = placeholder
        return scopeTable.reference(id)
    }

    func isInFocus(_ scope: ScopeNode?) -> Bool {
        guard options.focusScope != nil else { return true }
        return scope?.inFocus == true
    }

    @inline(__always)
    func isInFocus(_ scope: Unmanaged<ScopeNode>?) -> Bool {
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
}
