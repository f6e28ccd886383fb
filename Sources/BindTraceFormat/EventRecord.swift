// An event record's fields, its encoding and its decoding side by side: the one place an event's fields
// are defined (TraceRecord.swift frames it; docs/trace-format.md lists the fields).

/// The cause of an event as written: how many events back the delivering event is (0: no cause),
/// and the subscription whose closure was running.
@usableFromInline
package struct CauseField: Equatable, Sendable {
    @usableFromInline package var back: UInt64
    @usableFromInline package var subscription: UInt64

    @inlinable
    package init(back: UInt64, subscription: UInt64) {
        self.back = back
        self.subscription = subscription
    }

    /// Computed, not stored: a stored static is a lazy global, and the recorder reads this per event.
    @inlinable package static var none: CauseField { CauseField(back: 0, subscription: 0) }
}

/// The fields of each event record, after the tick delta. docs/trace-format.md lists them.
package enum EventRecord: Equatable, Sendable {
    case outputCreated(
        output: UInt64, kind: OutputKind, valueType: UInt64, file: UInt64, line: UInt64, label: UInt64,
        scope: UInt64, preexisting: Bool, cause: CauseField)
    case edge(source: UInt64, derived: UInt64, operation: OutputKind)
    case innerSwitch(flatMap: UInt64, inner: UInt64)
    /// `target` is set for a Binder's subscription (its type's string id and its identity).
    case bound(
        subscription: UInt64, output: UInt64, file: UInt64, line: UInt64, flags: UInt64,
        target: BoundTarget?, scope: UInt64, cause: CauseField)
    case update(output: UInt64, cause: CauseField, preview: [UInt8]?)
    case fire(output: UInt64, cause: CauseField, preview: [UInt8]?)
    case unbound(subscription: UInt64, reason: UnbindReason, cause: CauseField)
    case dangling(subscription: UInt64)
    case released(output: UInt64)
    case scopeBegin(id: UInt64, parent: UInt64, name: UInt64, file: UInt64, line: UInt64)
    case scopeEnd(id: UInt64)
    case mark(name: UInt64, scope: UInt64)
    case label(output: UInt64, label: UInt64)
    /// A subscription was added to a `SubscriptionContainer`.
    case contained(subscription: UInt64, container: UInt64)
    /// A subscription's handle was released while it was still bound.
    case handleReleased(subscription: UInt64)
    /// The update or fire `back` events before this one was called at `site` (a ``TraceRecord/site``
    /// id) by code no subscription ran: the root of a propagation. Since 1.3.
    case calledAt(back: UInt64, site: UInt64)
    /// The operator `derived` (a combine) stopped: its source `source` was released.
    case stopped(derived: UInt64, source: UInt64)
    /// What the closure of `subscription` (for an operator's subscription, its transform) captures,
    /// written right after its `bound`. Since 1.4.
    case captured(subscription: UInt64, captures: [CaptureField])
    /// The delivery of the update, fire or bind `delivery.back` events before this one to the
    /// subscription `delivery.subscription` resumes here: Bind deferred a step of it past its nesting
    /// limit and runs it now, inside `cause` (what ran when the step was taken up). Since 1.4.
    case resumed(delivery: CauseField, cause: CauseField)

    /// A Binder subscription's target: its type (string id) and identity.
    package struct BoundTarget: Equatable, Sendable {
        package var type: UInt64
        package var identity: UInt64

        package init(type: UInt64, identity: UInt64) {
            self.type = type
            self.identity = identity
        }
    }

    package var tag: TraceFormat.Tag {
        switch self {
        case .outputCreated: .outputCreated
        case .edge: .edge
        case .innerSwitch: .innerSwitch
        case .bound: .bound
        case .update: .update
        case .fire: .fire
        case .unbound: .unbound
        case .dangling: .dangling
        case .released: .released
        case .scopeBegin: .scopeBegin
        case .scopeEnd: .scopeEnd
        case .mark: .mark
        case .label: .label
        case .contained: .contained
        case .handleReleased: .handleReleased
        case .calledAt: .calledAt
        case .stopped: .stopped
        case .captured: .captured
        case .resumed: .resumed
        }
    }
}

/// One reference a closure's context holds, as written in a `captured` event.
package struct CaptureField: Equatable, Sendable {
    /// At most this many captures per event, and Outputs per capture: the reader rejects more.
    package static let maximumCount = 64

    /// How the closure holds the captured value.
    package enum Strength: UInt8, Sendable, CaseIterable {
        /// A strong reference to a class instance: it keeps the instance alive.
        case strong = 0
        /// `weak`: it keeps nothing alive.
        case weak = 1
        /// `unowned`: it keeps nothing alive (and crashes if it outlives it).
        case unowned = 2
        /// The reader could not describe it (a generic context, reflection metadata stripped).
        case unknown = 3
    }

    package var strength: Strength
    /// The captured value's type name (string id); for `unknown`, why it is unknown.
    package var type: UInt64
    /// The instance's address for a strong or unowned capture of a class instance, else 0.
    package var identity: UInt64
    /// The Outputs the instance holds through its stored properties (strong references only): the
    /// path of property names (string id; 0 when the instance is the Output itself) and the Output.
    package var holds: [HeldOutput]

    package init(strength: Strength, type: UInt64, identity: UInt64, holds: [HeldOutput] = []) {
        self.strength = strength
        self.type = type
        self.identity = identity
        self.holds = holds
    }

    /// An Output a captured instance keeps alive, and the stored properties leading to it.
    package struct HeldOutput: Equatable, Sendable {
        package var path: UInt64
        package var output: UInt64

        package init(path: UInt64, output: UInt64) {
            self.path = path
            self.output = output
        }
    }
}

extension EventRecord {
    func encodeFields(into record: inout RecordWriter) {
        switch self {
        case .outputCreated(
            let output, let kind, let valueType, let file, let line, let label, let scope,
            let preexisting, let cause):
            record.varint(output)
            record.varint(UInt64(kind.rawValue))
            record.varint(valueType)
            record.varint(file)
            record.varint(line)
            record.varint(label)
            record.varint(scope)
            record.varint(preexisting ? 1 : 0)
            record.cause(cause)
        case .edge(let source, let derived, let operation):
            record.varint(source)
            record.varint(derived)
            record.varint(UInt64(operation.rawValue))
        case .innerSwitch(let flatMap, let inner):
            record.varint(flatMap)
            record.varint(inner)
        case .bound(let subscription, let output, let file, let line, let flags, let target, let scope, let cause):
            record.varint(subscription)
            record.varint(output)
            record.varint(file)
            record.varint(line)
            record.varint(target == nil ? flags & ~TraceFormat.BindFlag.binder : flags | TraceFormat.BindFlag.binder)
            if let target {
                record.varint(target.type)
                record.varint(target.identity)
            }
            record.varint(scope)
            record.cause(cause)
        case .update(let output, let cause, let preview), .fire(let output, let cause, let preview):
            record.varint(output)
            record.cause(cause)
            if let preview {
                record.varint(1)
                record.bytes(preview)
            } else {
                record.varint(0)
            }
        case .unbound(let subscription, let reason, let cause):
            record.varint(subscription)
            record.varint(UInt64(reason.rawValue))
            record.cause(cause)
        case .dangling(let subscription), .handleReleased(let subscription):
            record.varint(subscription)
        case .released(let output):
            record.varint(output)
        case .scopeBegin(let id, let parent, let name, let file, let line):
            record.varint(id)
            record.varint(parent)
            record.varint(name)
            record.varint(file)
            record.varint(line)
        case .scopeEnd(let id):
            record.varint(id)
        case .mark(let name, let scope):
            record.varint(name)
            record.varint(scope)
        case .label(let output, let label):
            record.varint(output)
            record.varint(label)
        case .contained(let subscription, let container):
            record.varint(subscription)
            record.varint(container)
        case .calledAt(let back, let site):
            record.varint(back)
            record.varint(site)
        case .stopped(let derived, let source):
            record.varint(derived)
            record.varint(source)
        case .captured(let subscription, let captures):
            record.varint(subscription)
            record.varint(UInt64(captures.count))
            for capture in captures {
                record.varint(UInt64(capture.strength.rawValue))
                record.varint(capture.type)
                record.varint(capture.identity)
                record.varint(UInt64(capture.holds.count))
                for held in capture.holds {
                    record.varint(held.path)
                    record.varint(held.output)
                }
            }
        case .resumed(let delivery, let cause):
            record.cause(delivery)
            record.cause(cause)
        }
    }
}

extension EventRecord {
    /// Decodes the fields of an event record with `tag`, after its tick delta (``TraceRecord/decode(_:_:)``
    /// for the whole record).
    @inlinable
    package static func decodeFields(_ tag: TraceFormat.Tag, _ payload: inout PayloadDecoder)
        throws(RecordDecodingError) -> EventRecord
    {
        switch tag {
        case .outputCreated:
            return .outputCreated(
                output: try payload.varint(), kind: try payload.outputKind(), valueType: try payload.varint(),
                file: try payload.varint(), line: try payload.varint(), label: try payload.varint(),
                scope: try payload.varint(), preexisting: try payload.varint() != 0, cause: try payload.cause())
        case .edge:
            return .edge(
                source: try payload.varint(), derived: try payload.varint(), operation: try payload.outputKind())
        case .innerSwitch:
            return .innerSwitch(flatMap: try payload.varint(), inner: try payload.varint())
        case .bound:
            let subscription = try payload.varint()
            let output = try payload.varint()
            let file = try payload.varint()
            let line = try payload.varint()
            let flags = try payload.varint()
            var target: BoundTarget?
            if flags & TraceFormat.BindFlag.binder != 0 {
                target = BoundTarget(type: try payload.varint(), identity: try payload.varint())
            }
            return .bound(
                subscription: subscription, output: output, file: file, line: line, flags: flags, target: target,
                scope: try payload.varint(), cause: try payload.cause())
        case .update, .fire:
            let output = try payload.varint()
            let cause = try payload.cause()
            let preview = try payload.varint() != 0 ? payload.remainingBytes() : nil
            // A pattern, not `==`: the synthesised `==` of a tag is a generic call from here.
            if case .update = tag { return .update(output: output, cause: cause, preview: preview) }
            return .fire(output: output, cause: cause, preview: preview)
        case .unbound:
            let subscription = try payload.varint()
            let rawReason = try payload.varint()
            guard rawReason <= UInt64(UInt8.max), let reason = UnbindReason(rawValue: UInt8(rawReason)) else {
                throw RecordDecodingError("unknown unbind reason \(rawReason)")
            }
            return .unbound(subscription: subscription, reason: reason, cause: try payload.cause())
        case .dangling:
            return .dangling(subscription: try payload.varint())
        case .released:
            return .released(output: try payload.varint())
        case .scopeBegin:
            return .scopeBegin(
                id: try payload.varint(), parent: try payload.varint(), name: try payload.varint(),
                file: try payload.varint(), line: try payload.varint())
        case .scopeEnd:
            return .scopeEnd(id: try payload.varint())
        case .mark:
            return .mark(name: try payload.varint(), scope: try payload.varint())
        case .label:
            return .label(output: try payload.varint(), label: try payload.varint())
        case .contained:
            return .contained(subscription: try payload.varint(), container: try payload.varint())
        case .handleReleased:
            return .handleReleased(subscription: try payload.varint())
        case .calledAt:
            return .calledAt(back: try payload.varint(), site: try payload.varint())
        case .stopped:
            return .stopped(derived: try payload.varint(), source: try payload.varint())
        case .captured:
            let subscription = try payload.varint()
            let count = try payload.varint()
            guard count <= UInt64(CaptureField.maximumCount) else {
                throw RecordDecodingError("\(count) captures (at most \(CaptureField.maximumCount))")
            }
            var captures: [CaptureField] = []
            for _ in 0..<count {
                let rawStrength = try payload.varint()
                guard rawStrength <= UInt64(UInt8.max),
                    let strength = CaptureField.Strength(rawValue: UInt8(rawStrength))
                else { throw RecordDecodingError("unknown capture strength \(rawStrength)") }
                let type = try payload.varint()
                let identity = try payload.varint()
                let heldCount = try payload.varint()
                guard heldCount <= UInt64(CaptureField.maximumCount) else {
                    throw RecordDecodingError("\(heldCount) held Outputs (at most \(CaptureField.maximumCount))")
                }
                var holds: [CaptureField.HeldOutput] = []
                for _ in 0..<heldCount {
                    holds.append(CaptureField.HeldOutput(path: try payload.varint(), output: try payload.varint()))
                }
                captures.append(CaptureField(strength: strength, type: type, identity: identity, holds: holds))
            }
            return .captured(subscription: subscription, captures: captures)
        case .resumed:
            return .resumed(delivery: try payload.cause(), cause: try payload.cause())
        case .clock, .string, .thread, .end, .lost, .chunk, .continues, .writer, .site, .signal, .window:
            throw RecordDecodingError("not an event")
        }
    }
}
