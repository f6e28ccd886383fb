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

extension EventRecord {
    /// A Binder subscription's target: its type (string id) and identity.
    package struct BoundTarget: Equatable, Sendable {
        package var type: UInt64
        package var identity: UInt64

        package init(type: UInt64, identity: UInt64) {
            self.type = type
            self.identity = identity
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

// The codec of the one kind whose fields are not a plain list (EventKinds.toml, `custom`): a bind's
// flags say whether a Binder's target follows.
extension EventRecord {
    func encodeBound(into record: inout RecordWriter) {
        guard
            case .bound(let subscription, let output, let file, let line, let flags, let target, let scope, let cause) =
                self
        else { return }
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
    }

    @inlinable
    static func decodeBound(_ payload: inout PayloadDecoder) throws(RecordDecodingError) -> EventRecord {
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
    }
}

extension RecordWriter {
    /// An update's or fire's preview: a flag, then the bytes to the payload's end.
    mutating func preview(_ preview: [UInt8]?) {
        if let preview {
            varint(1)
            bytes(preview)
        } else {
            varint(0)
        }
    }

    /// A `captured` event's list: its count, then each capture and its held Outputs, counted.
    mutating func captures(_ captures: [CaptureField]) {
        varint(UInt64(captures.count))
        for capture in captures {
            varint(UInt64(capture.strength.rawValue))
            varint(capture.type)
            varint(capture.identity)
            varint(UInt64(capture.holds.count))
            for held in capture.holds {
                varint(held.path)
                varint(held.output)
            }
        }
    }
}

extension PayloadDecoder {
    @usableFromInline
    mutating func unbindReason() throws(RecordDecodingError) -> UnbindReason {
        let rawReason = try varint()
        guard rawReason <= UInt64(UInt8.max), let reason = UnbindReason(rawValue: UInt8(rawReason)) else {
            throw RecordDecodingError("unknown unbind reason \(rawReason)")
        }
        return reason
    }

    /// A `captured` event's list; more than ``CaptureField/maximumCount`` captures or held Outputs is
    /// corruption.
    package mutating func captures() throws(RecordDecodingError) -> [CaptureField] {
        let count = try varint()
        guard count <= UInt64(CaptureField.maximumCount) else {
            throw RecordDecodingError("\(count) captures (at most \(CaptureField.maximumCount))")
        }
        var captures: [CaptureField] = []
        for _ in 0..<count {
            let rawStrength = try varint()
            guard rawStrength <= UInt64(UInt8.max), let strength = CaptureField.Strength(rawValue: UInt8(rawStrength))
            else { throw RecordDecodingError("unknown capture strength \(rawStrength)") }
            let type = try varint()
            let identity = try varint()
            let heldCount = try varint()
            guard heldCount <= UInt64(CaptureField.maximumCount) else {
                throw RecordDecodingError("\(heldCount) held Outputs (at most \(CaptureField.maximumCount))")
            }
            var holds: [CaptureField.HeldOutput] = []
            for _ in 0..<heldCount {
                holds.append(CaptureField.HeldOutput(path: try varint(), output: try varint()))
            }
            captures.append(CaptureField(strength: strength, type: type, identity: identity, holds: holds))
        }
        return captures
    }
}
