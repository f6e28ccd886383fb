@_spi(Harness) import BindTraceModel

/// `leaked-output` findings: one per scope, its roots, retain cycles and derived Outputs (see ``LeakFinder``).
extension LeakFinder {
    func outputFindings(
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
    func ownerGroups(_ rootIDs: [UInt64], reason: Reason, reported: [UInt64: [SubscriptionNode]])
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

    func when(_ reason: Reason) -> String {
        switch reason {
        case .scope(let scope): "created in scope '\(scope.name)' and still alive after it ended"
        case .exit: "still alive at exit"
        }
    }

    func scopeNote(_ reason: Reason) -> [Finding.Related] {
        guard case .scope(let scope) = reason, let site = scope.site else { return [] }
        return [Finding.Related(site: site, note: "scope '\(scope.name)' begins here")]
    }

    func event(_ reason: Reason) -> UInt64 {
        if case .scope(let scope) = reason { return scope.endedAt ?? 0 }
        return replay.lastSequence
    }

    /// A derived Output kept alive by a longer-lived source: the operator call is the line.
    func derivedFinding(
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
    func cycleFinding(
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
    func provenCycleFinding(
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
    func lateOutputFinding(_ leaks: (first: LateOutputLeak, count: Int)) -> Finding {
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
}
