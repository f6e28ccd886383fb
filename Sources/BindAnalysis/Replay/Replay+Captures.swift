@_spi(Harness) import BindTraceModel

// What bound closures capture (format 1.4), and the scope of work handed to another thread.
extension Replay {
    /// Keeps what the closure of `subscription` captures, the facts ``LeakFinder`` judges retain
    /// cycles by; an unscoped binding whose captured instances hold Outputs of a running scope
    /// becomes that scope's work.
    func applyCaptured(_ subscription: UInt64, captures: [TraceEvent.Capture], event: CompactEvent) {
        lastDepth = 0
        // A binding already unbound (during its initial delivery) needs no facts.
        guard let node = subscriptionTable[subscription] else { return }
        node.captures = captures
        // Unscoped, or given the scope of the Output it binds: what its closure holds may name the
        // work more precisely (a screen's scope nested in the one that made a store).
        guard node.scope == nil || node.scopeIsInferred, !node.isInternal, !node.isPreexisting, openScopeCount > 0
        else { return }
        for capture in captures where capture.strength == .strong {
            for held in capture.holds {
                guard let scope = runningScopeReference(ofOutput: outputTable.reference(held.output)) else { continue }
                if let current = node.scope {
                    let inner = scope._withUnsafeGuaranteedRef { $0 }
                    guard inner !== current, current.contains(inner) else { continue }
                }
                let inFocus = isInFocus(scope)
                node.adoptScope(scope, inFocus: inFocus)
                scope._withUnsafeGuaranteedRef { $0.add(node) }
                unscopedBinds[node.siteKey] = unscopedBinds[node.siteKey].flatMap {
                    $0.event == node.boundAt ? nil : $0
                }
                return
            }
        }
    }

    /// The scope that made `output`, when it is still running and was seen to begin: the scope an
    /// unscoped bind to it (or holding it) was handed over from.
    func runningScopeReference(ofOutput output: Unmanaged<OutputNode>?) -> Unmanaged<ScopeNode>? {
        guard let scope = output?._withUnsafeGuaranteedRef({ $0.scope }), scope.isCounted, scope.endedAt == nil
        else { return nil }
        return Unmanaged.passUnretained(scope)
    }
}
