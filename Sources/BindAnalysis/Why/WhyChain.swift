@_spi(Harness) import BindTraceModel

/// The causal chain of one event, root first: what `bind-trace why` prints.
///
/// The root is the update, fire or bind that no subscription's closure caused (for an update or
/// fire, the app's call, with its call site when the trace recorded one); each later step was
/// caused by the one before it, through the subscription in its ``WhyStep/via``.
package struct WhyChain: Hashable, Sendable {
    /// The selected event's sequence number.
    package var selected: UInt64
    /// The steps, root first; the last one is the selected event.
    package var steps: [WhyStep]
    /// Whether the steps begin at the root. `false` when a cause was no longer open (a step Bind
    /// deferred in a chain more than 128 deep) or came before the trace's start.
    package var isComplete: Bool
    /// For a selection by closure: the subscription bound at that line, which the last step's
    /// Output delivered to.
    package var deliveredTo: WhySubscription?
    /// Whether the trace records values (`BIND_TRACE_VALUES=1`: an update or fire before the
    /// selected event carried a preview). A step without a value then means one the recorder never
    /// sees, an Output's value at creation, not previews turned off.
    package var recordsValues = false

    package init(
        selected: UInt64, steps: [WhyStep], isComplete: Bool, deliveredTo: WhySubscription? = nil,
        recordsValues: Bool = false
    ) {
        self.selected = selected
        self.steps = steps
        self.isComplete = isComplete
        self.deliveredTo = deliveredTo
        self.recordsValues = recordsValues
    }

    /// Marks the chain incomplete when its root is one of `events`, whose cause came before the
    /// trace began (a capture, or a flight recording's later segment): the reader could not keep
    /// that cause, and the event is not the root it would otherwise look like.
    package mutating func causedBeforeStart(_ events: Set<UInt64>) {
        if isComplete, let root = steps.first, events.contains(root.event) { isComplete = false }
    }
}

/// One event of a ``WhyChain``.
package struct WhyStep: Hashable, Sendable {
    /// What the event did.
    package enum Action: String, Hashable, Sendable {
        /// `update(withValue:)` (or an operator's update of its Output).
        case update
        /// A Relay's `fire()` or update.
        case fire
        /// A bind, which delivers the Output's current value at once.
        case bind
        /// Any other event (an unbind, a creation, …): the end of a chain, never a cause.
        case other
    }

    package var event: UInt64
    package var action: Action
    /// The event's kind name as `dump` prints it (`updated`, `bound`, …).
    package var eventName: String
    package var thread: UInt32
    package var threadName: String?
    /// Nanoseconds since the trace started.
    package var time: UInt64
    /// The Output updated, fired or bound to (nil for an event about no Output).
    package var output: WhyOutput?
    /// The value delivered, as the recorder previewed it (nil: previews were off).
    package var value: String?
    /// The Output's value before this event, from its previous previewed update (nil: unknown).
    package var previous: String?
    /// Where the app called `update(withValue:)` or `fire()` (root updates of traces since 1.3).
    package var calledAt: SourceSite?
    /// How the step before this one caused it; nil for the root.
    package var via: WhyHop?
    /// A `dangling` event: the value reached a Binder (``via``'s subscription) whose target was
    /// already gone, so it was dropped.
    package var reachedGoneTarget = false

    package init(
        event: UInt64, action: Action, eventName: String, thread: UInt32, threadName: String? = nil, time: UInt64,
        output: WhyOutput?, value: String? = nil, previous: String? = nil, calledAt: SourceSite? = nil,
        via: WhyHop? = nil
    ) {
        self.event = event
        self.action = action
        self.eventName = eventName
        self.thread = thread
        self.threadName = threadName
        self.time = time
        self.output = output
        self.value = value
        self.previous = previous
        self.calledAt = calledAt
        self.via = via
    }
}

/// An Output as a chain names it.
package struct WhyOutput: Hashable, Sendable {
    package var id: UInt64
    package var kind: OutputKind
    package var valueType: String
    /// Where it was made (for an operator's Output, the operator's call).
    package var site: SourceSite
    package var label: String?

    package init(id: UInt64, kind: OutputKind, valueType: String, site: SourceSite, label: String?) {
        self.id = id
        self.kind = kind
        self.valueType = valueType
        self.site = site
        self.label = label
    }

    /// ``Narrator``'s name for it: `'status' (String)`, `map → Bool at Form.swift:12`.
    package var name: String { Narrator.name(kind: kind, valueType: valueType, site: site, label: label) }
}

/// A subscription as a chain names it.
package struct WhySubscription: Hashable, Sendable {
    package var id: UInt64
    /// The Output it is bound to.
    package var output: UInt64
    /// Where it was bound: the closure's or Binder's bind, or the operator's call.
    package var site: SourceSite
    /// Bound by one of Bind's operators (map, combine, …) rather than by the app.
    package var isOperator: Bool
    package var target: BinderTarget?

    package init(id: UInt64, output: UInt64, site: SourceSite, isOperator: Bool, target: BinderTarget?) {
        self.id = id
        self.output = output
        self.site = site
        self.isOperator = isOperator
        self.target = target
    }

    /// `closure bound at Screen.swift:12`, `Binder to Label bound at …`, `operator at Form.swift:9`.
    package var name: String {
        if isOperator { return "operator's subscription at \(Narrator.place(site))" }
        return "\(Narrator.what(target: target)) bound at \(Narrator.place(site))"
    }
}

/// How one step caused the next: the subscription whose closure ran, and for a combine or merge,
/// which input changed and which only contributed their current values.
package struct WhyHop: Hashable, Sendable {
    package var subscription: WhySubscription?
    /// The subscription's id (also when the trace never recorded its bind).
    package var subscriptionID: UInt64
    /// For an operator's Output: the operator (map, combine, …) and its line.
    package var `operator`: OutputKind?
    /// For a combine or merge: the other inputs, which did not change and contributed their value.
    package var contributors: [WhyContributor]

    package init(
        subscription: WhySubscription?, subscriptionID: UInt64, operator: OutputKind?, contributors: [WhyContributor]
    ) {
        self.subscription = subscription
        self.subscriptionID = subscriptionID
        self.operator = `operator`
        self.contributors = contributors
    }
}

/// An input of a combine or merge that did not change in this step.
package struct WhyContributor: Hashable, Sendable {
    package var output: WhyOutput
    /// Its current value, from its last previewed update (nil: unknown).
    package var value: String?

    package init(output: WhyOutput, value: String?) {
        self.output = output
        self.value = value
    }
}
