@_spi(Harness) import BindTraceModel

/// Finds `leaked-output` and `leaked-subscription`: what the trace can prove leaked.
///
/// A scope (`BindTrace.scope`, a test's capture) is the work that made a binding. When it ends,
/// its bindings may stay: a screen's bag is emptied when the screen goes, a reused cell's current
/// binding lives until its next reuse. What is judged is what nothing can end any more, or what
/// keeps running for nobody:
///
/// - **Abandoned subscriptions** (`leaked-subscription`): bound in a scope that ended, still bound,
///   and nothing can unbind them — their `Subscription` handle was released, in no container still
///   alive — while their Output lives on (to the end of the trace), or kept receiving values after
///   the scope ended until their Output was released ("ended late", with how many and how long).
///   Traces without handle records (older recorders) cannot show that: there, a closure bound in an
///   ended scope and still bound at the end is reported; a Binder's current binding of its target
///   is not (it is what a reused cell keeps until its next reuse).
/// - **Leaked Outputs** (`leaked-output`): created in a scope that ended, still alive at the end,
///   and the trace shows what keeps them: a derived Output built on a longer-lived Output (the
///   source's subscription holds it), or a user's subscription bound to it from the scope and still
///   held, or bound by the scope that made it with its handle dropped (a closure capturing its
///   owner: a retain cycle). An Output bound from outside its scope
///   after the scope ended is shared, long-lived by design (a lazily created singleton first used in
///   the scope): not that scope's leak; the binding that ties the scope to it is judged instead.
///   One finding per scope: every root it left alive, at the culprit bind when the scope's closure
///   binds to them come from a single line.
///
/// Also, what a user needs to see once:
/// - an operator's own subscriptions are never reported (the Output's finding covers them);
/// - a derived Output all of whose sources leaked too is folded into a leaked source's finding;
/// - the current inner Output of a flatMap lives as long as the flatMap, and does not keep it alive;
/// - subscriptions to a leaked Output are listed in its finding;
/// - a dangling Binder, or a binding reported as a duplicate, is not also a leak;
/// - findings of the same kind at the same line are merged, with a count.
///
/// With ``AnalysisOptions/atExit``, what is still bound at the end and belongs to no ended scope is
/// judged by the same rules, as if the run were a scope ending at exit: only what a user can act
/// on — an abandoned subscription. An Output alive at exit is an app's normal state: not reported.
struct LeakFinder {
    let replay: Replay
    /// The latest bind of each target from each line still bound at the end, for targets whose
    /// bindings went with their Outputs (``isReplacedWithItsOutput(_:)``).
    let latestLiveBind: [BindingGroup.Key: UInt64]

    init(replay: Replay) {
        self.replay = replay
        var latest: [BindingGroup.Key: UInt64] = [:]
        if !replay.releasedWithOutput.isEmpty {
            for subscription in replay.subscriptionTable.values {
                guard let target = subscription.targetKey else { continue }
                let key = BindingGroup.Key(target: target, site: subscription.siteKey)
                guard replay.releasedWithOutput[key] != nil else { continue }
                latest[key] = max(latest[key] ?? 0, subscription.boundAt)
            }
        }
        latestLiveBind = latest
    }

    enum Reason {
        case scope(ScopeNode)
        case exit
    }

    func reason(_ scope: ScopeNode?, preexisting: Bool) -> Reason? {
        if let ended = scope?.endedScope { return .scope(ended) }
        return replay.options.atExit && !preexisting ? .exit : nil
    }

    /// A subscription nothing can end any more. Without handle records: a closure still bound (a
    /// Binder's current binding of its target is what a reused cell keeps until its next reuse).
    func isAbandoned(_ subscription: SubscriptionNode) -> Bool {
        replay.recordsHandles ? subscription.handleReleasedAt != nil : subscription.target == nil
    }

    /// Already reported as something else: a dangling Binder or a superseded (duplicate) binding.
    func isReportedElsewhere(_ subscription: SubscriptionNode) -> Bool {
        subscription.danglingDeliveries > 0 || subscription.bindingGroup?.isReported == true
            || subscription.supersededBy != nil && replay.options.kinds.contains(.duplicateBinding)
    }

    /// A subscription that can keep `root` alive in a retain cycle: a closure (a Binder holds its
    /// target weakly), bound by the work that left `root`, still held (its handle not released) or
    /// bound by the scope that made its Output, and not the current use of a container that is
    /// emptied at each new use.
    func isKeeper(_ subscription: SubscriptionNode, of root: OutputNode, reason: Reason) -> Bool {
        switch CaptureVerdict(subscription, replay: replay) {
        case .keepsNothing: return false
        case .closesCycle:
            // A fact: the closure holds what holds its Output. Handles do not matter (a dropped
            // one still leaves it bound); a reused container's current use is still excused.
            guard subscription.target == nil, !isReportedElsewhere(subscription),
                !replay.reusedContainers.contains(subscription.container)
            else { return false }
            return isSameWork(subscription, reason: reason)
        case .notRecorded, .unreadable: break
        }
        guard !subscription.isInternal else { return false }
        // A dropped handle (`output.bind { self.show($0) }`, the result unused) still keeps the
        // closure, and what it captures, for as long as its Output lives: when the scope that made
        // the Output bound it, and no closure from that line ever went with its Output (a cell's
        // replaced row view model), only a strong capture explains the Output outliving the scope.
        let isDroppedWithOwner =
            subscription.diesWithItsOutput
            && !replay.droppedClosuresReleasedWithOutput.contains(subscription.siteKey)
        let isHeld = !(replay.recordsHandles && subscription.handleReleasedAt != nil) || isDroppedWithOwner
        guard subscription.target == nil, !isReportedElsewhere(subscription), isHeld,
            // In a container emptied at each new use (a reused cell's bag): the current use's binding.
            !replay.reusedContainers.contains(subscription.container)
        else { return false }
        return isSameWork(subscription, reason: reason)
    }

    /// Whether `subscription` was bound by the work that left the Outputs: their scope, or one nested
    /// in it or enclosing it (the same screen's work) when the trace records handles; without
    /// them, only the scope's own bindings can be trusted.
    func isSameWork(_ subscription: SubscriptionNode, reason: Reason) -> Bool {
        switch reason {
        case .scope(let scope):
            guard replay.recordsHandles else { return subscription.scope?.endedScope === scope }
            return scope.contains(subscription.scope) || subscription.scope?.contains(scope) == true
        case .exit: return subscription.scope?.endedScope == nil
        }
    }

    func findings() -> [Finding] {
        let groups = LeakedGroups(leaked: leakedOutputs(), replay: replay)
        let reported = reportedRoots(groups)
        var findings: [Finding] = []
        if replay.options.kinds.contains(.leakedOutput) || replay.options.kinds.contains(.retainCycle) {
            let alive = outputFindings(
                leaked: groups.leaked, members: groups.members, reported: reported, together: groups.leakedTogether)
            // One line, one finding: a line that also left Outputs alive at the end is reported once.
            let sites = Set(alive.map(\.site))
            let late = replay.lateOutputLeaks.values.sorted { $0.first.releasedAt < $1.first.releasedAt }
            findings += alive + late.map(lateOutputFinding).filter { !sites.contains($0.site) }
        }
        if replay.options.kinds.contains(.leakedSubscription) {
            findings += subscriptionFindings(outside: groups, reported: reported)
        }
        return findings
    }

    /// Outputs left alive by a scope that ended, except shared ones; at exit, an Output alive is an
    /// app's normal state (only its abandoned bindings are judged).
    func leakedOutputs() -> [UInt64: (node: OutputNode, reason: Reason)] {
        var leaked: [UInt64: (node: OutputNode, reason: Reason)] = [:]
        for node in replay.outputTable.values where node.inFocus && !node.usedOutsideScope {
            guard let why = reason(node.scope, preexisting: node.isPreexisting), case .scope = why else { continue }
            leaked[node.id] = (node, why)
        }
        return leaked
    }

    /// The leaked Outputs grouped under the one that heads each group (its root): derived Outputs
    /// with their sources left by the same scope, flatMap inners with their flatMap.
    struct LeakedGroups {
        let leaked: [UInt64: (node: OutputNode, reason: Reason)]
        private(set) var members: [UInt64: [OutputNode]] = [:]
        private(set) var rootOfOutput: [UInt64: UInt64] = [:]

        init(leaked: [UInt64: (node: OutputNode, reason: Reason)], replay: Replay) {
            self.leaked = leaked
            for (id, entry) in leaked {
                // A current inner whose flatMap is not leaked lives as long as the flatMap: no leak.
                if entry.node.innerOf != 0, leaked[entry.node.innerOf] == nil,
                    replay.output(id: entry.node.innerOf) != nil
                {
                    continue
                }
                members[root(of: id), default: []].append(entry.node)
            }
            for (rootID, nodes) in members { for node in nodes { rootOfOutput[node.id] = rootID } }
        }

        static func liveSources(_ node: OutputNode) -> [UInt64] {
            node.incoming.filter { $0.role == .operator }.map(\.source)
        }

        /// Leaked with `node`: left by the same scope. A source left by an outer scope outlived the
        /// derived Output's own scope: it is what keeps it.
        func leakedTogether(_ source: UInt64, _ node: OutputNode) -> Bool {
            guard let sourceEntry = leaked[source], let entry = leaked[node.id] else { return false }
            switch (sourceEntry.reason, entry.reason) {
            case (.scope(let a), .scope(let b)): return a === b
            case (.exit, .exit): return true
            default: return false
            }
        }

        private func root(of id: UInt64) -> UInt64 {
            var current = id
            var visited: Set<UInt64> = [id]
            while let node = leaked[current]?.node {
                if node.innerOf != 0, leaked[node.innerOf] != nil, visited.insert(node.innerOf).inserted {
                    current = node.innerOf
                    continue
                }
                let sources = Self.liveSources(node)
                guard !sources.isEmpty, sources.allSatisfy({ leakedTogether($0, node) }),
                    let next = sources.sorted().first(where: { visited.insert($0).inserted })
                else { return current }
                current = next
            }
            return current
        }
    }

    /// The groups the trace shows something keeping alive — a longer-lived source, or a user's
    /// subscription held from the scope — each with the user subscriptions bound to it.
    func reportedRoots(_ groups: LeakedGroups) -> [UInt64: [SubscriptionNode]] {
        var subscriptionsByRoot: [UInt64: [SubscriptionNode]] = [:]
        for subscription in replay.subscriptionTable.values {
            // An operator's subscription counts only when its transform's captures close a cycle
            // (a `lazy var` derived with `flatMap { self.page(for: $0) }`).
            if subscription.isInternal, !CaptureVerdict(subscription, replay: replay).closesCycle { continue }
            if let rootID = groups.rootOfOutput[subscription.output] {
                subscriptionsByRoot[rootID, default: []].append(subscription)
            }
        }
        var reported: [UInt64: [SubscriptionNode]] = [:]
        var heldByCycle: Set<UInt64> = []
        for rootID in groups.members.keys {
            guard let (root, reason) = groups.leaked[rootID].map({ ($0.node, $0.reason) }) else { continue }
            let keepers = (subscriptionsByRoot[rootID] ?? []).filter { isKeeper($0, of: root, reason: reason) }
            // What the culprit's captured owner holds lives as long as the cycle does.
            for keeper in keepers {
                if case .closesCycle(let capture, _) = CaptureVerdict(keeper, replay: replay) {
                    heldByCycle.formUnion(capture.holds.map(\.output))
                }
            }
            let hasLongLivedSource = LeakedGroups.liveSources(root).contains {
                !groups.leakedTogether($0, root) && replay.output(id: $0) != nil && !isMadeWith($0, root)
            }
            guard hasLongLivedSource || !keepers.isEmpty else { continue }
            reported[rootID] = subscriptionsByRoot[rootID] ?? []
        }
        // Roots with no keeper of their own, held by the owner a cycle keeps (its other Outputs).
        for rootID in groups.members.keys where reported[rootID] == nil && heldByCycle.contains(rootID) {
            guard let root = groups.leaked[rootID]?.node,
                !LeakedGroups.liveSources(root).contains(where: {
                    !groups.leakedTogether($0, root) && replay.output(id: $0) != nil && !isMadeWith($0, root)
                })
            else { continue }
            reported[rootID] = (subscriptionsByRoot[rootID] ?? []).filter { !$0.isInternal }
        }
        return reported
    }

    /// Whether `source` was made together with `derived`, as one initialiser makes them (a store's
    /// Output and a `map` of it, a lazily made singleton's): in the same scope, in the same file, and
    /// before anything but an operator was bound to the source. Then the source is not a longer-lived
    /// keeper of it, even when the source itself is shared later. A screen's own `map` of a store it
    /// uses is made after the store's own binds, or in another file, and is judged.
    func isMadeWith(_ source: UInt64, _ derived: OutputNode) -> Bool {
        guard let node = replay.output(id: source), let scope = derived.scope, node.scope === scope,
            !node.isPreexisting, node.site.file == derived.site.file
        else { return false }
        return node.firstUserBindAt == 0 || derived.createdAt < node.firstUserBindAt
    }

    /// Abandoned subscriptions not already listed in a leaked Output's finding, and those that ended
    /// late; merged by site.
    func subscriptionFindings(outside groups: LeakedGroups, reported: [UInt64: [SubscriptionNode]])
        -> [Finding]
    {
        var findings: [Finding] = []
        for subscription in replay.subscriptionTable.values where subscription.inFocus && !subscription.isInternal {
            if let rootID = groups.rootOfOutput[subscription.output], reported[rootID] != nil { continue }
            guard !isReportedElsewhere(subscription), isAbandoned(subscription), !subscription.diesWithItsOutput,
                !isReplacedWithItsOutput(subscription),
                let why = reason(subscription.scope, preexisting: subscription.isPreexisting)
            else { continue }
            findings.append(subscriptionFinding(subscription, reason: why))
        }
        for late in replay.lateLeaks where !isReportedElsewhere(late.node) {
            // A binding to a derived Output reported as leaked is that Output's finding.
            if late.node.outputNode?.outlivedItsScope == true { continue }
            if isReplacedWithItsOutput(late.node) { continue }
            findings.append(lateFinding(late.node, deliveries: late.deliveries, duration: late.duration))
        }
        return mergedBySite(findings)
    }
}
