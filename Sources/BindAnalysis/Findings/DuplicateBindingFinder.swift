@_spi(Harness) import BindTraceModel

/// The Binder bindings of one target from one site, whatever Output they are bound to.
final class BindingGroup {
    /// By symbol: grouping a bind compares integers, not strings (``BindingGroupTable``).
    struct Key: Hashable {
        let target: TargetKey
        let site: SiteKey
    }

    /// Set again when the group is recycled (``DuplicateBindingFinder``).
    fileprivate(set) var key: Key
    // Unchecked: only the replay's thread touches a group, and never re-entrantly.
    @exclusivity(unchecked) var members: [SubscriptionNode] = []
    /// The members at the moment there were most of them.
    @exclusivity(unchecked) var peak: [SubscriptionNode] = []
    @exclusivity(unchecked) var peakSequence: UInt64 = 0
    @exclusivity(unchecked) var isCandidate = false
    /// Members a newer member superseded: a group is a duplicate only while it has some.
    @exclusivity(unchecked) var supersededMembers = 0
    /// The current run of binds made in one go (one scope, one propagation, no other target bound
    /// from the site in between): the sequence of its first bind, its scope's trace id (0: none)
    /// and its root (0: top level).
    @exclusivity(unchecked) var runStart: UInt64 = 0
    @exclusivity(unchecked) var runScope: UInt64 = 0
    @exclusivity(unchecked) var runRoot: UInt64 = 0

    init(key: Key) { self.key = key }

    /// A duplicate-binding finding covers it.
    var isReported: Bool { isCandidate && confirmedPeak.count >= 2 }

    /// The peak without the bindings whose target died while another member's target lived:
    /// those had a different target at a reused address, not the same one twice.
    var confirmedPeak: [SubscriptionNode] {
        peak.filter { member in
            let died = member.firstDanglingUpdate
            guard died != 0 else { return true }
            return !peak.contains { other in
                other !== member && other.boundAt < died && (other.unboundAt ?? .max) > died
                    && (other.firstDanglingUpdate == 0 || other.firstDanglingUpdate > died)
            }
        }
    }
}

/// Finds `duplicate-binding`: a Binder target bound from the same site several times at once — to
/// the same Output (a screen that binds again on every appearance) or to different ones (a reused
/// cell that never unbound its previous row) — and closure binds of one site piling up in one
/// `SubscriptionContainer` (see ``ContainerGroup``).
///
/// The newest binding of a target is the one meant to be there; the older ones are *superseded*
/// but still bound. Bindings of one target to different Outputs created at different lines, made in
/// one go — in one scope and one propagation (both at top level, or both in the same update's
/// subscribers), with no other target bound from the site in between (a loop over sources, last
/// writer wins) — are one use of the target, and do not supersede each other; the closure rule
/// exempts the same loop. Outputs created at one line are rows of one kind: a cell configured for
/// one row, then the next, supersedes even without scopes.
///
/// The finding is at the bind line whether or not anything is alive when the trace ends, with the
/// evidence when the trace has it: an update of a superseded binding's Output after the newer
/// binding was made, which reached the target.
///
/// A target's identity is its address, which a new object may reuse after the old one is gone. A
/// binding whose target is seen gone (a dangling delivery) leaves its group at once, and one seen
/// gone later while another member of its group still delivers fine had a different target: neither
/// counts. (The recorder writes a dangling record for the old binding when a new target is bound at
/// a dead one's address.)
struct DuplicateBindingFinder {
    private var groups = BindingGroupTable()
    private var candidates: [BindingGroup] = []
    /// Superseded bindings still bound, by Output, for the evidence.
    private var superseded: [UInt64: [SubscriptionNode]] = [:]
    /// Groups that emptied without ever being a candidate, for the next new ones: most groups have
    /// one member at a time (a cell's Binder, bound and unbound), so this saves two allocations per bind.
    private var spareGroups: [BindingGroup] = []
    private var recentTargets = RecentBinderTargets()
    var containers = ContainerBindingFinder()

    /// A Binder bind numbered `sequence`, made in the propagation whose root is event `root` (0: a
    /// bind at top level, which no subscription's closure made).
    mutating func bound(_ node: SubscriptionNode, sequence: UInt64, root: UInt64) {
        guard let target = node.targetKey else { return }
        let key = BindingGroup.Key(target: target, site: node.siteKey)
        let group: BindingGroup
        if let existing = groups[key] {
            group = existing
        } else {
            group = spareGroups.popLast() ?? BindingGroup(key: key)
            group.key = key
            groups.insert(group, for: key)
        }
        // Unretained: a strong reference to the scope cost a retain and a release per bind.
        let scope = node.scopeReference?._withUnsafeGuaranteedRef { $0.id } ?? 0
        // The site's previous Binder bind went to this target (noted at every bind, before testing).
        let previousTarget = recentTargets.exchange(target, boundFrom: key.site)
        let continuesRun =
            !group.members.isEmpty && group.runScope == scope && group.runRoot == root && previousTarget == target
        if !continuesRun {
            group.runStart = sequence
            group.runScope = scope
            group.runRoot = root
        }
        for older in group.members where older.supersededBy == nil {
            // Bound in one go with this one to another Output, made elsewhere: the same use of the
            // target (a loop over sources). Outputs made at one site are rows of one kind: a cell
            // configured for one row, then the next, without a scope around each.
            if continuesRun && older.boundAt >= group.runStart && older.output != node.output
                && older.outputNode?.siteKey != node.outputNode?.siteKey
            {
                continue
            }
            older.supersededBy = node
            group.supersededMembers += 1
            older.outputNode?.supersededBindings += 1
            superseded[older.output, default: []].append(older)
        }
        group.members.append(node)
        node.bindingGroup = group
        // A peak without a superseded member is never reported: no snapshot (it would share
        // `members`' storage, so the next removal would copy it) until there is one.
        if group.supersededMembers > 0 && group.members.count > group.peak.count {
            group.peak = group.members
            group.peakSequence = sequence
            if group.members.count >= 2 && !group.isCandidate {
                group.isCandidate = true
                candidates.append(group)
            }
        }
    }

    mutating func unbound(_ node: SubscriptionNode) {
        guard let reference = node.bindingGroupReference else { return }
        node.bindingGroup = nil
        let (isEmpty, key) = reference._withUnsafeGuaranteedRef { group in
            // A member once (`removeAll(where:)` costs ten times as much for one of a few).
            if let index = group.members.lastIndex(where: { $0 === node }) { group.members.remove(at: index) }
            if node.supersededBy != nil { group.supersededMembers -= 1 }
            return (group.members.isEmpty, group.key)
        }
        // A group that was never a candidate has no peak and is held by `groups` only: it can be reused.
        if isEmpty, var group = groups.removeValue(forKey: key), !group.isCandidate,
            isKnownUniquelyReferenced(&group), spareGroups.count < 64
        {
            spareGroups.append(group)
        }
        if node.supersededBy != nil {
            node.outputNode?.supersededBindings -= 1
            superseded[node.output]?.removeAll { $0 === node }
            if superseded[node.output]?.isEmpty == true { superseded[node.output] = nil }
        }
    }

    /// An update of `output`, which has superseded bindings still bound: they received it.
    mutating func delivered(output: UInt64, sequence: UInt64) {
        guard let nodes = superseded[output] else { return }
        for node in nodes where node.supersededDelivery == 0 { node.supersededDelivery = sequence }
    }

    func findings() -> [Finding] {
        struct Site: Hashable {
            let site: SiteKey
            let targetType: UInt32
        }
        var bySite: [Site: (peak: [SubscriptionNode], instances: Int, sequence: UInt64)] = [:]
        for group in candidates {
            let peak = group.confirmedPeak
            guard peak.count >= 2, peak.contains(where: \.inFocus) else { continue }
            let key = Site(site: group.key.site, targetType: group.key.target.type)
            if var existing = bySite[key] {
                existing.instances += 1
                if peak.count > existing.peak.count || evidence(in: existing.peak) == nil && evidence(in: peak) != nil {
                    existing.peak = peak
                    existing.sequence = group.peakSequence
                }
                bySite[key] = existing
            } else {
                bySite[key] = (peak, 1, group.peakSequence)
            }
        }
        return bySite.map { _, value in
            finding(
                site: value.peak[0].site, target: value.peak[0].target, peak: value.peak, instances: value.instances,
                sequence: value.sequence)
        } + containers.findings()
    }

    /// The first superseded member that received an update after it was superseded.
    private func evidence(in peak: [SubscriptionNode]) -> SubscriptionNode? {
        peak.filter { $0.supersededDelivery != 0 }.min { $0.supersededDelivery < $1.supersededDelivery }
    }

    private func finding(
        site: SourceSite, target: BinderTarget?, peak: [SubscriptionNode], instances: Int, sequence: UInt64
    ) -> Finding {
        let targetName = target.map { Narrator.name(of: $0) } ?? "target"
        var outputs: [OutputNode] = []
        for member in peak {
            if let output = member.outputNode, !outputs.contains(where: { $0 === output }) { outputs.append(output) }
        }
        let plainNames = outputs.map(\.narrated)
        var names = plainNames
        if Set(names).count < names.count {
            // Outputs of one declaration (each row's 'title'): their values tell them apart, when recorded.
            names = outputs.map { output in output.lastPreview.map { "\(output.narrated) = \($0)" } ?? output.narrated }
        }
        func compose(_ names: [String]) -> String {
            func named(_ node: SubscriptionNode) -> String {
                outputs.firstIndex { $0 === node.outputNode }.map { names[$0] } ?? node.outputName
            }
            var message: String
            if outputs.count <= 1 {
                let name = peak[0].outputName
                message =
                    "\(name) is bound \(peak.count) times at once to the same \(targetName) from this line: the earlier "
                    + "binding was never unbound, so every value reaches the \(targetName) \(peak.count) times; "
                    + "unsubscribe the previous Subscription before binding again"
            } else {
                // Names in order of first appearance, a repeated one counted: "'post title' (String) × 6".
                var distinct: [(name: String, count: Int)] = []
                for name in names {
                    if let index = distinct.firstIndex(where: { $0.name == name }) {
                        distinct[index].count += 1
                    } else {
                        distinct.append((name, 1))
                    }
                }
                let list =
                    distinct.prefix(3).map { $0.count > 1 ? "\($0.name) × \($0.count)" : $0.name }.joined(
                        separator: ", ")
                    + (distinct.count > 3 ? ", …" : "")
                message =
                    "one \(targetName) is bound from this line to \(outputs.count) Outputs at once (\(list)): "
                    + "the earlier bindings were superseded but never unbound"
                if let witness = evidence(in: peak), let newer = witness.supersededBy {
                    message +=
                        "; an update of \(named(witness)) at event #\(witness.supersededDelivery) reached the "
                        + "\(targetName) now showing "
                        + (named(newer) == named(witness) ? "another \(named(newer))" : named(newer))
                }
                message +=
                    "; a reused cell must unbind its previous row (empty its SubscriptionContainer) before it "
                    + "is configured again"
            }
            if instances > 1 { message += " (\(instances) targets)" }
            return message
        }
        let message = compose(names)
        var related: [Finding.Related] = []
        for output in outputs.prefix(3) {
            related.append(output.createdHere())
        }
        var finding = Finding(
            kind: .duplicateBinding, message: message, site: site, related: related,
            outputs: outputs.map(\.id), subscriptions: peak.map(\.id), event: sequence)
        // The same bug in every run, whatever values the rows showed this time.
        if names != plainNames { finding.identity = compose(plainNames) }
        return finding
    }
}

/// The target of the latest Binder bind from each site, for telling a loop over sources into one
/// target (consecutive binds from the site to the same target) from a pool of cells configured in
/// turn. Direct-mapped by site, without hashing: a site whose slot another site took is not
/// remembered, and its next bind counts as made apart (superseding, as without the memo). Fibonacci
/// hashing puts nearby lines of one file (a loop body's binds) in distinct slots.
private struct RecentBinderTargets {
    private struct Entry {
        var site = SiteKey(file: 0, line: 0)
        var target = TargetKey(type: 0, identity: 0)
    }

    private static var slots: Int { 1024 }
    private var entries = [Entry](repeating: Entry(), count: Self.slots)

    /// Notes that `site` bound `target` and returns the target of its previous Binder bind, if known.
    // Hot path (every Binder bind): one slot read and written in place, one uniqueness check.
    @inline(__always)
    mutating func exchange(_ target: TargetKey, boundFrom site: SiteKey) -> TargetKey? {
        let mixed = (UInt64(site.file) << 32 ^ UInt64(truncatingIfNeeded: site.line)) &* 0x9E37_79B9_7F4A_7C15
        let index = Int(truncatingIfNeeded: mixed &>> UInt64(64 - Self.slots.trailingZeroBitCount))
        return entries.withUnsafeMutableBufferPointer { entries in
            let previous = entries[index].site == site ? entries[index].target : nil
            entries[index] = Entry(site: site, target: target)
            return previous
        }
    }
}

/// The closure bindings of one site held by one `SubscriptionContainer`.
final class ContainerGroup {
    struct Key: Hashable {
        let container: UInt64
        let site: SiteKey
    }

    let key: Key
    var members: [SubscriptionNode] = []
    /// The number of container binds from this site when this container last got one.
    var lastSiteCount = 0
    /// The scope every member was bound in, while they share one (a loop): no scan needed then.
    var sharedScope: ScopeNode?
    var membersShareScope = true
    init(key: Key) { self.key = key }
}

/// Closure binds have no visible target: their equivalent of a reused target is one
/// `SubscriptionContainer` holding live subscriptions from one bind site, the earlier one(s) left
/// from a previous use of the container: bound in a scope that has ended (each configuration of a
/// cell in its scope), or before other containers got binds from the same site (a pool of cells
/// configured in turn: A, B, C, then A again). Bindings made in one go into one container (a screen
/// binding its rows in a loop) are not reported. Needs the recorder's containment events.
struct ContainerBindingFinder {
    private var groups: [ContainerGroup.Key: ContainerGroup] = [:]
    /// Container binds so far, by site.
    private var siteCounts: [SiteKey: Int] = [:]
    /// Per site: the largest set of bindings seen piled up, and the number of containers.
    private var reported: [SiteKey: (members: [SubscriptionNode], containers: Set<UInt64>, sequence: UInt64)] = [:]

    /// Returns whether the container is being used again without being emptied.
    @discardableResult
    mutating func contained(_ node: SubscriptionNode, container: UInt64, sequence: UInt64) -> Bool {
        guard node.target == nil, !node.isInternal, node.unboundAt == nil else { return false }
        node.container = container
        let key = ContainerGroup.Key(container: container, site: node.siteKey)
        let group = groups[key] ?? ContainerGroup(key: key)
        groups[key] = group
        let count = siteCounts[node.siteKey, default: 0]
        // Another container got a bind from this site since this one's last: a pool used in turn.
        let reusedInTurn = !group.members.isEmpty && group.lastSiteCount != count
        siteCounts[node.siteKey] = count + 1
        group.lastSiteCount = count + 1
        let stale: [SubscriptionNode]
        if reusedInTurn {
            stale = group.members
        } else if node.scope == nil || group.membersShareScope && group.sharedScope === node.scope {
            stale = []  // bound in one go (a loop), or no scope to tell uses apart
        } else {
            stale = group.members.filter { older in
                older.scope != nil && older.scope !== node.scope && older.scope?.endedAt != nil
            }
        }
        if group.members.isEmpty {
            group.sharedScope = node.scope
            group.membersShareScope = true
        } else if group.sharedScope !== node.scope {
            group.membersShareScope = false
        }
        group.members.append(node)
        node.containerGroup = group
        guard !stale.isEmpty else { return false }
        for older in stale where older.supersededBy == nil { older.supersededBy = node }
        let members = stale + [node]
        var entry = reported[node.siteKey] ?? ([], [], sequence)
        entry.containers.insert(container)
        if members.count > entry.members.count {
            entry.members = members
            entry.sequence = sequence
        }
        reported[node.siteKey] = entry
        return true
    }

    mutating func unbound(_ node: SubscriptionNode) {
        guard let group = node.containerGroup else { return }
        group.members.removeAll { $0 === node }
        node.containerGroup = nil
        if group.members.isEmpty { groups[group.key] = nil }
    }

    func findings() -> [Finding] {
        reported.compactMap { _, entry in
            // Every member was bound at the entry's site.
            let site = entry.members[0].site
            guard entry.members.contains(where: \.inFocus) else { return nil }
            var outputs: [OutputNode] = []
            for member in entry.members {
                if let output = member.outputNode, !outputs.contains(where: { $0 === output }) {
                    outputs.append(output)
                }
            }
            let names = outputs.prefix(3).map(\.narrated).joined(separator: ", ") + (outputs.count > 3 ? ", …" : "")
            let what = outputs.count == 1 ? names : "different Outputs (\(names))"
            var message =
                "one SubscriptionContainer holds \(entry.members.count) closures bound from this line to \(what), "
                + "the earlier ones bound in scopes that have ended and never unbound: empty the container before "
                + "binding again (a reused cell's prepareForReuse, a screen's next appearance)"
            if entry.containers.count > 1 { message += " (\(entry.containers.count) containers)" }
            return Finding(
                kind: .duplicateBinding, message: message, site: site,
                related: outputs.prefix(3).map {
                    $0.createdHere()
                },
                outputs: outputs.map(\.id), subscriptions: entry.members.map(\.id), event: entry.sequence)
        }
    }
}
