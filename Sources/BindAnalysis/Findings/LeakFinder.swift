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
    private let latestLiveBind: [BindingGroup.Key: UInt64]

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

    private enum Reason {
        case scope(ScopeNode)
        case exit
    }

    private func reason(_ scope: ScopeNode?, preexisting: Bool) -> Reason? {
        if let ended = scope?.endedScope { return .scope(ended) }
        return replay.options.atExit && !preexisting ? .exit : nil
    }

    /// A subscription nothing can end any more. Without handle records: a closure still bound (a
    /// Binder's current binding of its target is what a reused cell keeps until its next reuse).
    private func isAbandoned(_ subscription: SubscriptionNode) -> Bool {
        replay.recordsHandles ? subscription.handleReleasedAt != nil : subscription.target == nil
    }

    /// Already reported as something else: a dangling Binder or a superseded (duplicate) binding.
    private func isReportedElsewhere(_ subscription: SubscriptionNode) -> Bool {
        subscription.danglingDeliveries > 0 || subscription.bindingGroup?.isReported == true
            || subscription.supersededBy != nil && replay.options.kinds.contains(.duplicateBinding)
    }

    /// A subscription that can keep `root` alive in a retain cycle: a closure (a Binder holds its
    /// target weakly), bound by the work that left `root`, still held (its handle not released) or
    /// bound by the scope that made its Output, and not the current use of a container that is
    /// emptied at each new use.
    private func isKeeper(_ subscription: SubscriptionNode, of root: OutputNode, reason: Reason) -> Bool {
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
    private func isSameWork(_ subscription: SubscriptionNode, reason: Reason) -> Bool {
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
    private func leakedOutputs() -> [UInt64: (node: OutputNode, reason: Reason)] {
        var leaked: [UInt64: (node: OutputNode, reason: Reason)] = [:]
        for node in replay.outputTable.values where node.inFocus && !node.usedOutsideScope {
            guard let why = reason(node.scope, preexisting: node.isPreexisting), case .scope = why else { continue }
            leaked[node.id] = (node, why)
        }
        return leaked
    }

    /// The leaked Outputs grouped under the one that heads each group (its root): derived Outputs
    /// with their sources left by the same scope, flatMap inners with their flatMap.
    private struct LeakedGroups {
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
    private func reportedRoots(_ groups: LeakedGroups) -> [UInt64: [SubscriptionNode]] {
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
    private func isMadeWith(_ source: UInt64, _ derived: OutputNode) -> Bool {
        guard let node = replay.output(id: source), let scope = derived.scope, node.scope === scope,
            !node.isPreexisting, node.site.file == derived.site.file
        else { return false }
        return node.firstUserBindAt == 0 || derived.createdAt < node.firstUserBindAt
    }

    /// Abandoned subscriptions not already listed in a leaked Output's finding, and those that ended
    /// late; merged by site.
    private func subscriptionFindings(outside groups: LeakedGroups, reported: [UInt64: [SubscriptionNode]])
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

    // MARK: - Outputs

    private func outputFindings(
        leaked: [UInt64: (node: OutputNode, reason: Reason)], members: [UInt64: [OutputNode]],
        reported: [UInt64: [SubscriptionNode]], together: (UInt64, OutputNode) -> Bool
    ) -> [Finding] {
        var findings: [Finding] = []
        // Retain cycles (no long-lived source) of one scope are one bug: one finding.
        var cyclesByScope: [ObjectIdentifier: [UInt64]] = [:]
        for rootID in reported.keys.sorted() {
            guard let root = leaked[rootID] else { continue }
            let sources = root.node.incoming.filter { $0.role == .operator }.compactMap { replay.output(id: $0.source) }
                .filter { !together($0.id, root.node) && !isMadeWith($0.id, root.node) }
            if sources.isEmpty {
                if case .scope(let scope) = root.reason {
                    cyclesByScope[ObjectIdentifier(scope), default: []].append(rootID)
                } else {
                    findings.append(
                        cycleFinding(roots: [root.node], reason: .exit, members: members, reported: reported))
                }
                continue
            }
            findings.append(
                derivedFinding(
                    root: root.node, reason: root.reason, sources: sources,
                    others: (members[rootID] ?? []).filter { $0 !== root.node }.sorted { $0.id < $1.id },
                    subscriptions: reported[rootID]!.sorted { $0.id < $1.id }))
        }
        for (scopeKey, rootIDs) in cyclesByScope {
            let roots = rootIDs.compactMap { leaked[$0]?.node }
            guard let first = rootIDs.first.flatMap({ leaked[$0] }) else { continue }
            // Closures that the owner of another scope's cycle holds (bound in that scope, to Outputs
            // of this one) are that cycle's doing: fixing it releases them. Not a cycle of its own.
            let keepers = rootIDs.flatMap { id in
                (reported[id] ?? []).filter { subscription in
                    roots.contains { isKeeper(subscription, of: $0, reason: first.reason) }
                }
            }
            let heldByAnotherCycle =
                !keepers.isEmpty
                && keepers.allSatisfy { keeper in
                    guard let scope = keeper.scope?.endedScope else { return false }
                    return ObjectIdentifier(scope) != scopeKey && cyclesByScope[ObjectIdentifier(scope)] != nil
                }
            if heldByAnotherCycle { continue }
            for owned in ownerGroups(rootIDs, reason: first.reason, reported: reported) {
                let ownedRoots = owned.compactMap { leaked[$0]?.node }
                findings.append(
                    cycleFinding(roots: ownedRoots, reason: first.reason, members: members, reported: reported))
            }
        }
        return mergedBySite(findings, perEvent: true)
    }

    /// A scope's cycle roots grouped by the owner the recorded captures prove keeps them (two view
    /// models each kept by its own transform are two cycles); roots no capture names stay together.
    private func ownerGroups(_ rootIDs: [UInt64], reason: Reason, reported: [UInt64: [SubscriptionNode]])
        -> [[UInt64]]
    {
        var ownerOf: [UInt64: UInt64] = [:]
        var held: [(owner: UInt64, outputs: Set<UInt64>)] = []
        for id in rootIDs {
            guard let root = replay.output(id: id) else { continue }
            for keeper in reported[id] ?? [] where isKeeper(keeper, of: root, reason: reason) {
                guard case .closesCycle(let capture, _) = CaptureVerdict(keeper, replay: replay), capture.identity != 0
                else { continue }
                ownerOf[id] = ownerOf[id] ?? capture.identity
                held.append((capture.identity, Set(capture.holds.map(\.output))))
            }
        }
        guard Set(ownerOf.values).count > 1 else { return [rootIDs] }
        var groups: [UInt64: [UInt64]] = [:]
        var order: [UInt64] = []
        for id in rootIDs {
            let owner = ownerOf[id] ?? held.first { $0.outputs.contains(id) }?.owner ?? 0
            if groups[owner] == nil { order.append(owner) }
            groups[owner, default: []].append(id)
        }
        return order.compactMap { groups[$0] }
    }

    private func when(_ reason: Reason) -> String {
        switch reason {
        case .scope(let scope): "created in scope '\(scope.name)' and still alive after it ended"
        case .exit: "still alive at exit"
        }
    }

    private func scopeNote(_ reason: Reason) -> [Finding.Related] {
        guard case .scope(let scope) = reason, let site = scope.site else { return [] }
        return [Finding.Related(site: site, note: "scope '\(scope.name)' begins here")]
    }

    private func event(_ reason: Reason) -> UInt64 {
        if case .scope(let scope) = reason { return scope.endedAt ?? 0 }
        return replay.lastSequence
    }

    /// A derived Output kept alive by a longer-lived source: the operator call is the line.
    private func derivedFinding(
        root: OutputNode, reason: Reason, sources: [OutputNode], others: [OutputNode], subscriptions: [SubscriptionNode]
    ) -> Finding {
        let names = sources.map(\.narrated).joined(separator: ", ")
        let message =
            "\(root.narrated) is \(when(reason)): \(names) outlives it and keeps it alive "
            + "(derive it once, where \(sources.count == 1 ? "its source is" : "its sources are") owned, "
            + "or bind to the source directly)"
        var related = sources.map {
            $0.createdHere(" and keeps it alive")
        }
        related += others.map { Finding.Related(site: $0.site, note: "\($0.narrated) is also alive, derived from it") }
        related += subscriptions.map { Finding.Related(site: $0.site, note: "still bound to \($0.outputName) here") }
        related += scopeNote(reason)
        return Finding(
            kind: .leakedOutput, message: message, site: root.site, related: related,
            outputs: [root.id] + others.map(\.id), subscriptions: subscriptions.map(\.id), event: event(reason))
    }

    /// Outputs of one scope kept alive by closures bound to them (a retain cycle): one finding, at
    /// the bind when the closures keeping them come from one line.
    private func cycleFinding(
        roots: [OutputNode], reason: Reason, members: [UInt64: [OutputNode]], reported: [UInt64: [SubscriptionNode]]
    ) -> Finding {
        var outputs: [OutputNode] = []
        var subscriptions: [SubscriptionNode] = []
        for root in roots {
            outputs.append(root)
            outputs += (members[root.id] ?? []).filter { $0 !== root }.sorted { $0.id < $1.id }
            subscriptions += reported[root.id] ?? []
        }
        subscriptions.sort { $0.boundAt < $1.boundAt }
        // Binders hold their target weakly: only a closure can capture the owner.
        let closures = subscriptions.filter { subscription in
            roots.contains { isKeeper(subscription, of: $0, reason: reason) }
        }
        let closureSites = Set(closures.map(\.site))
        let isExit = if case .exit = reason { true } else { false }
        // A closure whose captures close the cycle is the culprit by fact. Without captures (an
        // older trace, an unreadable context), the first bound is named and the others are listed
        // to check (docs/analysis.md).
        let proven = closures.filter { CaptureVerdict($0, replay: replay).closesCycle }
        let culprit = isExit ? nil : proven.first ?? closures.first
        if let culprit, case .closesCycle(let capture, let held) = CaptureVerdict(culprit, replay: replay) {
            return provenCycleFinding(
                culprit: culprit, capture: capture, held: held, others: proven.dropFirst(), outputs: outputs,
                subscriptions: subscriptions, reason: reason)
        }
        let names = outputs.prefix(4).map(\.narrated).joined(separator: ", ") + (outputs.count > 4 ? ", …" : "")
        var message: String
        if outputs.count == 1 {
            message = "\(outputs[0].narrated) is \(when(reason))"
        } else {
            message = "\(outputs.count) Outputs are \(when(reason)): \(names)"
        }
        var related: [Finding.Related] = []
        if let culprit {
            let them = outputs.count == 1 ? "it" : "them"
            let unreadable = CaptureVerdict(culprit, replay: replay)
            if case .unreadable = unreadable {
                message += " (what the closure captures could not be read: see docs/captures.md)"
            }
            message +=
                ": nothing else in the trace holds \(them) but the closure bound here to \(culprit.outputName), "
                + "still held — it keeps \(them) alive when it captures "
                + (outputs.count == 1 ? "it or its owner" : "their owner")
                + " strongly (a method reference, self without [weak self], a Relay bound back to its owner): "
                + "capture weakly, or unbind it when the owner goes away (if something outside the scope "
                + "keeps the owner on purpose, a parent or a coordinator, make it outside the scope)"
            if closureSites.count > 1 {
                message +=
                    "; \(Narrator.count(UInt64(closureSites.count - 1), "other line")) also bind closures that "
                    + "can hold the owner: check them too"
            }
            related += outputs.map {
                $0.createdHere(", with the owner the closure keeps alive")
            }
        } else {
            message += isExit ? ", still bound" : ": something keeps them alive while a binding still holds them"
            related += outputs.dropFirst().map {
                $0.createdHere(" and kept alive")
            }
        }
        for subscription in subscriptions where subscription !== culprit {
            let note =
                closures.contains(where: { $0 === subscription }) && subscription.site != culprit?.site
                ? "a closure bound to \(subscription.outputName) here (does it capture its owner?)"
                : "still bound to \(subscription.outputName) here"
            related.append(Finding.Related(site: subscription.site, note: note))
        }
        related += scopeNote(reason)
        return Finding(
            kind: culprit == nil ? .leakedOutput : .retainCycle, message: message,
            site: culprit?.site ?? outputs[0].site,
            related: related, outputs: outputs.map(\.id), subscriptions: subscriptions.map(\.id), event: event(reason))
    }

    /// A retain cycle the recorded captures prove: the culprit closure captures, strongly, an
    /// instance whose stored properties lead back to the Output the closure is bound to.
    private func provenCycleFinding(
        culprit: SubscriptionNode, capture: TraceEvent.Capture, held: TraceEvent.Capture.HeldOutput,
        others: ArraySlice<SubscriptionNode>, outputs: [OutputNode], subscriptions: [SubscriptionNode], reason: Reason
    ) -> Finding {
        let owner = Narrator.shortened(capture.type)
        let heldName = replay.output(id: held.output)?.narrated ?? Narrator.unknownOutput(held.output)
        let bound = culprit.outputName
        let closure = culprit.isInternal ? "the transform of this operator" : "the closure bound here"
        let path = CaptureVerdict.pathText(held: held, heldName: heldName, bound: culprit.output, boundName: bound)
        let names = outputs.prefix(4).map(\.narrated).joined(separator: ", ") + (outputs.count > 4 ? ", …" : "")
        var message =
            outputs.count == 1
            ? "\(outputs[0].narrated) is \(when(reason))"
            : "\(outputs.count) Outputs are \(when(reason)): \(names)"
        message +=
            ": a retain cycle — \(closure) captures \(owner) strongly, which \(path); "
            + "capture it weakly ([weak self]), or unbind the closure when \(owner) goes away"
        if !others.isEmpty {
            message += "; \(Narrator.count(UInt64(others.count), "other closure")) close the same cycle (listed)"
        }
        var related: [Finding.Related] = others.map {
            Finding.Related(
                site: $0.site, note: "this closure, bound to \($0.outputName), also captures \(owner) strongly")
        }
        related += outputs.map { $0.createdHere() }
        for subscription in subscriptions
        where subscription !== culprit && !others.contains(where: { $0 === subscription }) {
            let verdict = CaptureVerdict(subscription, replay: replay)
            let note: String
            switch verdict {
            case .keepsNothing:
                note = "still bound to \(subscription.outputName) here; its closure keeps no owner alive"
            default: note = "still bound to \(subscription.outputName) here"
            }
            related.append(Finding.Related(site: subscription.site, note: note))
        }
        related += scopeNote(reason)
        return Finding(
            kind: .retainCycle, message: message, site: culprit.site, related: related,
            outputs: outputs.map(\.id), subscriptions: [culprit.id] + subscriptions.filter { $0 !== culprit }.map(\.id),
            event: event(reason))
    }

    /// A derived Output its outer source kept alive well after its scope ended, released before the
    /// trace did: the leak ended, but it existed, and ran, while it lasted.
    private func lateOutputFinding(_ leaks: (first: LateOutputLeak, count: Int)) -> Finding {
        let leak = leaks.first
        let node = leak.node
        let sources = node.incoming.filter { $0.role == .operator }.map(\.source)
        let message =
            "\(node.narrated) is created in scope '\(leak.scope.name)' and outlived it by "
            + "\(Narrator.count(leak.events, "event")) (\(Narrator.duration(nanoseconds: leak.duration))), more than "
            + "the scope's own work, kept alive by its source, having received \(Narrator.count(node.updateCount, "update")) "
            + "in all, until it was released at event #\(leak.releasedAt) "
            + "(derive it once, where its source is owned, or bind to the source directly)"
            + (leaks.count > 1 ? " (\(leaks.count) times from this line)" : "")
        var related: [Finding.Related] = []
        if let site = leak.scope.site {
            related.append(Finding.Related(site: site, note: "scope '\(leak.scope.name)' begins here"))
        }
        return Finding(
            kind: .leakedOutput, message: message, site: node.site, related: related, outputs: [node.id] + sources,
            event: leak.releasedAt)
    }

    // MARK: - Subscriptions

    private func subscriptionFinding(_ subscription: SubscriptionNode, reason: Reason) -> Finding {
        let outputName = subscription.outputName
        let what = Narrator.what(target: subscription.target)
        var related: [Finding.Related] = []
        if let output = subscription.outputNode {
            related.append(output.createdHere(" and lives on"))
        }
        var message: String
        switch reason {
        case .scope(let scope):
            message = "\(what) bound to \(outputName) in scope '\(scope.name)' is still bound after the scope ended"
            related += scopeNote(reason)
        case .exit:
            message = "\(what) bound to \(outputName) is still bound at exit"
        }
        if replay.recordsHandles {
            message += ", and nothing can unbind it: " + handleLoss(subscription)
        }
        if let mark = subscription.updatesAtAbandon, let output = subscription.outputNode, output.updateCount > mark {
            message += "; it received \(Narrator.count(output.updateCount - mark, "update")) since"
        }
        message += ": keep the Subscription (or add it to a SubscriptionContainer emptied with its owner)"
        return Finding(
            kind: .leakedSubscription, message: message, site: subscription.site, related: related,
            outputs: [subscription.output], subscriptions: [subscription.id], event: event(reason))
    }

    private func lateFinding(_ subscription: SubscriptionNode, deliveries: UInt64, duration: UInt64) -> Finding {
        let scope = subscription.scope?.endedScope
        let outputName = subscription.outputName
        let what = Narrator.what(target: subscription.target)
        var message = "\(what) bound to \(outputName)"
        if let scope { message += " in scope '\(scope.name)'" }
        message +=
            " outlived its scope by \(Narrator.duration(nanoseconds: duration)) and "
            + "\(Narrator.count(deliveries, "update")) (nothing could unbind it: \(handleLoss(subscription))), "
            + "until \(outputName) was released: keep the Subscription and unbind it when its owner goes away"
        var related: [Finding.Related] = []
        if let output = subscription.outputNode {
            related.append(output.createdHere())
        }
        if let scope, let site = scope.site {
            related.append(Finding.Related(site: site, note: "scope '\(scope.name)' begins here"))
        }
        return Finding(
            kind: .leakedSubscription, message: message, site: subscription.site, related: related,
            outputs: [subscription.output], subscriptions: [subscription.id], event: subscription.unboundAt ?? 0)
    }

    /// A Binder binding of a target whose bindings from this line go with their Output, each replaced
    /// by the next (a cell replacing the row view model it owns, the old one taking its binding
    /// along): an ended one that a later one replaced, or the current one after such a replacement.
    private func isReplacedWithItsOutput(_ subscription: SubscriptionNode) -> Bool {
        guard let target = subscription.targetKey else { return false }
        let key = BindingGroup.Key(target: target, site: subscription.siteKey)
        guard let releases = replay.releasedWithOutput[key] else { return false }
        if let ended = subscription.unboundAt { return releases.last > ended || latestLiveBind[key] ?? 0 > ended }
        return releases.first < subscription.boundAt
    }

    /// How the binding lost the handle that could unbind it: dropped, or held by a container that was
    /// released (releasing a `SubscriptionContainer` does not unbind, as in the published Bind).
    private func handleLoss(_ subscription: SubscriptionNode) -> String {
        guard subscription.container != 0, let count = replay.releasedContainers[subscription.container] else {
            return "its Subscription was released"
        }
        return "its container's owner (the cell, the screen) was released with "
            + "\(Narrator.count(UInt64(count), "subscription")) still bound; empty the container in `deinit`"
    }

    /// One finding per site and kind: the first, with the count of the times it happened. Each
    /// subscription is a time; Outputs count once per event they are judged at (`perEvent`: the scope's
    /// end), so two Outputs one line leaves per screen (a combine and a flatMap) count once per screen.
    private func mergedBySite(_ findings: [Finding], perEvent: Bool = false) -> [Finding] {
        var bySite: [SourceSite?: (finding: Finding, events: Set<UInt64>)] = [:]
        var order: [SourceSite?] = []
        for (index, finding) in findings.sorted(by: {
            ($0.event, $0.outputs.first ?? 0, $0.subscriptions.first ?? 0)
                < ($1.event, $1.outputs.first ?? 0, $1.subscriptions.first ?? 0)
        }).enumerated() {
            let time = perEvent ? finding.event : UInt64(index)
            if var existing = bySite[finding.site] {
                existing.events.insert(time)
                existing.finding.outputs += finding.outputs
                existing.finding.subscriptions += finding.subscriptions
                bySite[finding.site] = existing
            } else {
                bySite[finding.site] = (finding, [time])
                order.append(finding.site)
            }
        }
        return order.map { site in
            var (finding, events) = bySite[site]!
            if events.count > 1 { finding.message += " (\(events.count) times from this line)" }
            return finding
        }
    }
}
