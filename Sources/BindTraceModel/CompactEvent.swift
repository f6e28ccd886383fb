import BindTraceFormat

/// One event as the reader decodes it for the replay: plain numbers only, so making, copying and
/// dropping it costs no reference counting.
///
/// The common events (updates and fires without a preview, unbinds, releases, edges, …) are whole
/// here. An event that carries strings (an Output's creation, a bind, a scope's beginning, a mark,
/// a label, a value preview) is ``Kind/detailed(_:)``: its ``TraceEvent/Kind``, strings resolved,
/// is in the ``EventBatch/details`` of its batch. ``TraceEvent`` is built from it
/// (``EventBatch/event(at:)``), so both forms hold the same event.
package struct CompactEvent: Equatable, Sendable {
    /// As ``TraceEvent/sequence``.
    package var sequence: UInt64
    /// As ``TraceEvent/time``.
    package var time: UInt64
    /// As ``TraceEvent/offset``.
    package var offset: Int
    /// As ``TraceEvent/thread``.
    package var thread: UInt32
    package var kind: Kind

    package init(sequence: UInt64, time: UInt64, thread: UInt32, offset: Int, kind: Kind) {
        self.sequence = sequence
        self.time = time
        self.thread = thread
        self.offset = offset
        self.kind = kind
    }

    /// The cases of ``TraceEvent/Kind`` that hold no string, with the same fields.
    package enum Kind: Equatable, Sendable {
        case edge(source: UInt64, derived: UInt64, operation: OutputKind)
        case innerSwitch(flatMap: UInt64, inner: UInt64)
        /// An update without a value preview.
        case updated(output: UInt64, cause: TraceCause?)
        /// A fire without a value preview.
        case fired(output: UInt64, cause: TraceCause?)
        case unbound(subscription: UInt64, reason: UnbindReason, cause: TraceCause?)
        case dangling(subscription: UInt64)
        case released(output: UInt64)
        case scopeEnded(id: UInt64)
        case subscriptionContained(subscription: UInt64, container: UInt64)
        case handleReleased(subscription: UInt64)
        /// Any other event: its kind is `details[index]` of its ``EventBatch``.
        case detailed(Int)
    }
}

extension CompactEvent {
    /// The compact form of `event`, or `nil` when its kind holds strings (it needs a ``Kind/detailed(_:)``).
    package init?(_ event: TraceEvent) {
        let kind: Kind
        switch event.kind {
        case .edge(let source, let derived, let operation):
            kind = .edge(source: source, derived: derived, operation: operation)
        case .innerSwitch(let flatMap, let inner): kind = .innerSwitch(flatMap: flatMap, inner: inner)
        case .updated(let output, let cause, nil): kind = .updated(output: output, cause: cause)
        case .fired(let output, let cause, nil): kind = .fired(output: output, cause: cause)
        case .unbound(let subscription, let reason, let cause):
            kind = .unbound(subscription: subscription, reason: reason, cause: cause)
        case .dangling(let subscription): kind = .dangling(subscription: subscription)
        case .released(let output): kind = .released(output: output)
        case .scopeEnded(let id): kind = .scopeEnded(id: id)
        case .subscriptionContained(let subscription, let container):
            kind = .subscriptionContained(subscription: subscription, container: container)
        case .handleReleased(let subscription): kind = .handleReleased(subscription: subscription)
        case .outputCreated, .bound, .updated, .fired, .scopeBegan, .mark, .labeled: return nil
        }
        self.init(sequence: event.sequence, time: event.time, thread: event.thread, offset: event.offset, kind: kind)
    }
}

extension TraceEvent {
    /// The event `event` holds; `details` are the kinds of its batch's detailed events.
    package init(_ event: CompactEvent, details: [TraceEvent.Kind]) {
        let kind: Kind
        switch event.kind {
        case .edge(let source, let derived, let operation):
            kind = .edge(source: source, derived: derived, operation: operation)
        case .innerSwitch(let flatMap, let inner): kind = .innerSwitch(flatMap: flatMap, inner: inner)
        case .updated(let output, let cause): kind = .updated(output: output, cause: cause, preview: nil)
        case .fired(let output, let cause): kind = .fired(output: output, cause: cause, preview: nil)
        case .unbound(let subscription, let reason, let cause):
            kind = .unbound(subscription: subscription, reason: reason, cause: cause)
        case .dangling(let subscription): kind = .dangling(subscription: subscription)
        case .released(let output): kind = .released(output: output)
        case .scopeEnded(let id): kind = .scopeEnded(id: id)
        case .subscriptionContained(let subscription, let container):
            kind = .subscriptionContained(subscription: subscription, container: container)
        case .handleReleased(let subscription): kind = .handleReleased(subscription: subscription)
        case .detailed(let index): kind = details[index]
        }
        self.init(sequence: event.sequence, time: event.time, thread: event.thread, offset: event.offset, kind: kind)
    }
}
