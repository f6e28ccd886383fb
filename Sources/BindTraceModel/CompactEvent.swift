import BindTraceFormat

/// One event as the reader decodes it for the replay: plain numbers only, so making, copying and
/// dropping it costs no reference counting.
///
/// The common events (updates and fires without a preview, unbinds, releases, edges, …) are whole
/// here. Binds and Output creations, a tenth of a trace, are in their batch's ``EventBatch/bindings``
/// and ``EventBatch/creations`` with their strings as the trace's string ids (``DefinedStrings`` gives
/// the texts). The rare events with other strings (a scope's beginning, a mark, a label, a value
/// preview) are ``Kind/detailed(_:)``: their ``TraceEvent/Kind``, strings resolved, is in the
/// ``EventBatch/details`` of the batch. ``TraceEvent`` is built from it
/// (``DefinedStrings/event(in:at:)``), so both forms hold the same event.
package struct CompactEvent: Equatable, Sendable {
    /// As ``TraceEvent/sequence``.
    package var sequence: UInt64
    /// As ``TraceEvent/time``.
    package var time: UInt64
    /// As ``TraceEvent/offset``.
    package var offset: Int
    /// As ``TraceEvent/thread``.
    package var thread: UInt32
    /// The tag of its record, whichever form its fields take (a ``Kind/detailed(_:)`` one's too):
    /// what the statistics count it under.
    package var tag: TraceFormat.Tag
    package var kind: Kind

    package init(sequence: UInt64, time: UInt64, thread: UInt32, offset: Int, tag: TraceFormat.Tag, kind: Kind) {
        self.sequence = sequence
        self.time = time
        self.thread = thread
        self.offset = offset
        self.tag = tag
        self.kind = kind
    }

    /// The kinds of ``TraceEvent/Kind`` that can come once per update or per bind, in a form without
    /// strings; every other kind is ``detailed(_:)``. A new kind starts detailed: it needs a case
    /// here only when it can be that frequent (a profile of `bind-trace check` says what it costs).
    package enum Kind: Equatable, Sendable {
        case edge(source: UInt64, derived: UInt64, operation: OutputKind)
        case innerSwitch(flatMap: UInt64, inner: UInt64)
        /// An update without a value preview.
        case updated(output: UInt64, cause: TraceCause?)
        /// A fire without a value preview.
        case fired(output: UInt64, cause: TraceCause?)
        case unbound(subscription: UInt64, reason: UnbindReason, cause: TraceCause?)
        case released(output: UInt64)
        case scopeEnded(id: UInt64)
        case subscriptionContained(subscription: UInt64, container: UInt64)
        case handleReleased(subscription: UInt64)
        /// A bind: `bindings[index]` of its ``EventBatch``.
        case bound(Int)
        /// An Output's creation: `creations[index]` of its ``EventBatch``.
        case outputCreated(Int)
        /// Any other event: its kind is `details[index]` of its ``EventBatch``.
        case detailed(Int)
    }
}

/// A bind (``TraceEvent/Binding``) with its strings as the trace's string ids: no string is
/// retained to decode, queue or replay it.
package struct CompactBinding: Equatable, Sendable {
    package var subscription: UInt64
    package var output: UInt64
    /// The string id of the bind site's file.
    package var file: UInt64
    package var line: UInt64
    package var isInternal: Bool
    package var preexisting: Bool
    /// A Binder's target; `nil` for a closure.
    package var target: Target?
    package var scope: UInt64
    package var cause: TraceCause?

    package init(
        subscription: UInt64, output: UInt64, file: UInt64, line: UInt64, isInternal: Bool, preexisting: Bool,
        target: Target?, scope: UInt64, cause: TraceCause?
    ) {
        self.subscription = subscription
        self.output = output
        self.file = file
        self.line = line
        self.isInternal = isInternal
        self.preexisting = preexisting
        self.target = target
        self.scope = scope
        self.cause = cause
    }

    /// A Binder target: the string id of its type, and its identity.
    package struct Target: Equatable, Sendable {
        package var type: UInt64
        package var identity: UInt64

        package init(type: UInt64, identity: UInt64) {
            self.type = type
            self.identity = identity
        }
    }
}

/// An Output's creation (``TraceEvent/OutputCreation``) with its strings as the trace's string ids.
package struct CompactCreation: Equatable, Sendable {
    package var output: UInt64
    package var kind: OutputKind
    /// String ids: the value type, the creation site's file, the label (0: none).
    package var valueType: UInt64
    package var file: UInt64
    package var line: UInt64
    package var label: UInt64
    package var scope: UInt64
    package var preexisting: Bool
    package var cause: TraceCause?

    package init(
        output: UInt64, kind: OutputKind, valueType: UInt64, file: UInt64, line: UInt64, label: UInt64,
        scope: UInt64, preexisting: Bool, cause: TraceCause?
    ) {
        self.output = output
        self.kind = kind
        self.valueType = valueType
        self.file = file
        self.line = line
        self.label = label
        self.scope = scope
        self.preexisting = preexisting
        self.cause = cause
    }
}

extension CompactEvent {
    /// The compact form of `event`, or `nil` when its kind has none (it needs a ``Kind/detailed(_:)``).
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
        case .released(let output): kind = .released(output: output)
        case .scopeEnded(let id): kind = .scopeEnded(id: id)
        case .subscriptionContained(let subscription, let container):
            kind = .subscriptionContained(subscription: subscription, container: container)
        case .handleReleased(let subscription): kind = .handleReleased(subscription: subscription)
        // Binds and creations are compact only with their strings as ids, which only the reader knows;
        // every other kind is detailed.
        default: return nil
        }
        self.init(
            sequence: event.sequence, time: event.time, thread: event.thread, offset: event.offset,
            tag: event.kind.tag, kind: kind)
    }
}

extension TraceEvent {
    /// The event `event` of `batch` holds; `strings` are the trace's strings by id, up to the batch's end.
    package init(_ event: CompactEvent, in batch: borrowing EventBatch, strings: [String]) {
        func text(_ id: UInt64) -> String {
            // The reader checked every id against the strings defined before the event.
            id < UInt64(strings.count) ? strings[Int(id)] : ""
        }
        func site(_ file: UInt64, _ line: UInt64) -> SourceSite {
            SourceSite(file: text(file), line: UInt(truncatingIfNeeded: line))
        }
        let kind: Kind
        switch event.kind {
        case .edge(let source, let derived, let operation):
            kind = .edge(source: source, derived: derived, operation: operation)
        case .innerSwitch(let flatMap, let inner): kind = .innerSwitch(flatMap: flatMap, inner: inner)
        case .updated(let output, let cause): kind = .updated(output: output, cause: cause, preview: nil)
        case .fired(let output, let cause): kind = .fired(output: output, cause: cause, preview: nil)
        case .unbound(let subscription, let reason, let cause):
            kind = .unbound(subscription: subscription, reason: reason, cause: cause)
        case .released(let output): kind = .released(output: output)
        case .scopeEnded(let id): kind = .scopeEnded(id: id)
        case .subscriptionContained(let subscription, let container):
            kind = .subscriptionContained(subscription: subscription, container: container)
        case .handleReleased(let subscription): kind = .handleReleased(subscription: subscription)
        case .bound(let index):
            let binding = batch.bindings[index]
            kind = .bound(
                Binding(
                    subscription: binding.subscription, output: binding.output, site: site(binding.file, binding.line),
                    isInternal: binding.isInternal,
                    target: binding.target.map { BinderTarget(type: text($0.type), identity: $0.identity) },
                    scope: binding.scope, preexisting: binding.preexisting, cause: binding.cause))
        case .outputCreated(let index):
            let creation = batch.creations[index]
            kind = .outputCreated(
                OutputCreation(
                    output: creation.output, kind: creation.kind, valueType: text(creation.valueType),
                    site: site(creation.file, creation.line), label: creation.label == 0 ? nil : text(creation.label),
                    scope: creation.scope, preexisting: creation.preexisting, cause: creation.cause))
        case .detailed(let index): kind = batch.details[index]
        }
        self.init(sequence: event.sequence, time: event.time, thread: event.thread, offset: event.offset, kind: kind)
    }
}
