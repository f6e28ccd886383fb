@_spi(Harness) import BindTraceModel

/// The life of one finding, told from the trace: `bind-trace why TRACE --finding N`.
///
/// What a user needs to act on it: for a leak, where each Output was created and in which scope,
/// where each subscription was bound and what its closure captures, when the scope ended, what
/// kept it alive, the updates it received after its scope ended, and the fix; for a duplicate or a
/// dangling binding, its binds and the update that reached the wrong (or a gone) target. One pass
/// over the events, keeping only what concerns the finding (a bounded number of lines).
package struct FindingStory {
    /// One moment of the finding's life.
    package struct Moment: Hashable, Sendable {
        package var event: UInt64
        package var text: String
        package var site: SourceSite?
    }

    package let finding: Finding
    package private(set) var moments: [Moment] = []
    /// Updates (and fires) of the finding's Outputs after its scope ended: how many, first, last.
    package private(set) var updatesAfterScope: (count: UInt64, first: UInt64, last: UInt64) = (0, 0, 0)
    /// The event whose causal chain explains the finding best: the finding's own event when it is
    /// an update or a delivery, else the last update after its scope ended (0: none).
    package private(set) var explainedEvent: UInt64 = 0

    /// At most this many moments are kept (the counts stay exact).
    package static let maximumMoments = 60

    private let outputs: Set<UInt64>
    private let subscriptions: Set<UInt64>
    private var narrator = EventNarrator()
    private var scopes: [UInt64: (name: String, site: SourceSite)] = [:]
    private var findingScope: UInt64 = 0
    private var scopeEnded: UInt64 = 0
    private var findingEventKind: String?

    package init(_ finding: Finding) {
        self.finding = finding
        outputs = Set(finding.outputs.prefix(16))
        subscriptions = Set(finding.subscriptions.prefix(16))
    }

    /// Reads one event, in trace order.
    package mutating func consume(_ event: TraceEvent) {
        let line = narrator.tell(event)
        if event.sequence == finding.event { findingEventKind = event.kind.name }
        switch event.kind {
        case .scopeBegan(let id, _, let name, let site):
            scopes[id] = (name, site)
        case .scopeEnded(let id):
            if id == findingScope || event.sequence == finding.event {
                scopeEnded = event.sequence
                findingScope = id
                add(event, "scope '\(Narrator.shortened(scopes[id]?.name ?? "#\(id)"))' ended", site: nil)
            }
        case .outputCreated(let creation) where outputs.contains(creation.output):
            if creation.scope != 0, findingScope == 0 { findingScope = creation.scope }
            add(event, line.text + begun(creation.scope), site: creation.site)
        case .bound(let binding) where subscriptions.contains(binding.subscription):
            if binding.scope != 0, findingScope == 0 { findingScope = binding.scope }
            add(event, line.text + begun(binding.scope), site: binding.site)
        case .captured(let subscription, _) where subscriptions.contains(subscription),
            .subscriptionContained(let subscription, _) where subscriptions.contains(subscription),
            .handleReleased(let subscription) where subscriptions.contains(subscription),
            .unbound(let subscription, _, _) where subscriptions.contains(subscription),
            .dangling(let subscription) where subscriptions.contains(subscription):
            add(event, line.text, site: nil)
        case .released(let output) where outputs.contains(output):
            add(event, line.text, site: nil)
        case .updated(let output, _, _) where outputs.contains(output),
            .fired(let output, _, _) where outputs.contains(output):
            if scopeEnded != 0 {
                updatesAfterScope.count += 1
                if updatesAfterScope.first == 0 { updatesAfterScope.first = event.sequence }
                updatesAfterScope.last = event.sequence
            }
        default:
            break
        }
    }

    /// Called after the last event: picks the event to explain.
    package mutating func finish() {
        switch findingEventKind {
        case "updated", "fired", "dangling", "bound": explainedEvent = finding.event
        default: explainedEvent = updatesAfterScope.last
        }
    }

    /// Where the scope something was made in began (the narrator names the scope itself).
    private func begun(_ scope: UInt64) -> String {
        guard scope != 0, let known = scopes[scope] else { return "" }
        return ", a scope begun at \(known.site)"
    }

    private mutating func add(_ event: TraceEvent, _ text: String, site: SourceSite?) {
        guard moments.count < Self.maximumMoments else { return }
        moments.append(Moment(event: event.sequence, text: text, site: site))
    }

    /// What to change, by kind (the finding's message says it for this case; this is the short form).
    package var fix: String {
        switch finding.kind {
        case .retainCycle:
            "capture the owner weakly in the closure at \(finding.site.map(Narrator.place) ?? "its line") "
                + "([weak self]), or unbind it when the owner goes away"
        case .leakedSubscription:
            "keep the Subscription and unbind it when its owner goes away (or add it to a SubscriptionContainer "
                + "emptied then)"
        case .leakedOutput:
            "derive it once, where its source is owned, or bind to the source directly"
        case .duplicateBinding:
            "unbind the previous binding before binding the target again (a reused cell: in prepareForReuse)"
        case .danglingBinder:
            "unbind the Binder when its target goes away (keep its Subscription in the target's container)"
        case .feedbackCycle, .structuralCycle:
            "break the loop: update the Output from outside its own propagation, or derive one value"
        case .glitch:
            "derive one value from the common source instead of combining two of its derivations"
        case .redundantUpdate:
            "skip the update when the value is unchanged, or bind through ignoringDuplicates()"
        case .stoppedCombine:
            "keep the combine's sources alive as long as its result is bound"
        }
    }
}
