/// Every record of the format, with its encoding and its decoding side by side: the one place an
/// event's fields are defined. The recorder encodes these, the reader decodes them, and the tests
/// build traces from them.
///
/// Strings are ids (defined by a `.string` record before first use, 0 = none), so a record stays
/// small and the same text is stored once per trace.
package enum TraceRecord: Equatable, Sendable {
    case clock(ticks: UInt64, nanoseconds: UInt64, ticksPerSecond: UInt64)
    case string(id: UInt64, utf8: [UInt8])
    /// The events that follow were recorded by thread `index` (named by string `name`, 0 = none).
    case thread(index: UInt64, name: UInt64)
    case end
    /// `count` events did not reach the file here (a failed write, a crash flush that could not
    /// order them); the next event's sequence number is `count` past the last one's.
    case lost(count: UInt64)
    /// The start of chunk `number` (1, 2, … in a file) of `bytes` bytes of records after this one,
    /// whose first event is the file's event `firstEvent` (its sequence number, counted from 1).
    case chunk(number: UInt64, firstEvent: UInt64, bytes: UInt64)
    /// This file continues the one at `path`, lost while it was written (`reason`, a
    /// ``TraceFormat/FileLoss`` raw value) after it received `writtenEvents` events; `lostEvents`
    /// more were recorded and reached neither file.
    case continues(reason: UInt64, writtenEvents: UInt64, lostEvents: UInt64, path: [UInt8])
    /// The process writing the file: its id, process group and session.
    case writer(process: UInt64, group: UInt64, session: UInt64)
    /// An event, `delta` ticks after the previous event (or the last clock record).
    case event(delta: UInt64, EventRecord)
    /// A call site of an update or fire (id from 1, defined once before first use): `file` (string
    /// id) and `line`. Since 1.3.
    case site(id: UInt64, file: UInt64, line: UInt64)
    /// The recording ended because the process got `number` (written right before the end record).
    /// Since 1.4.
    case signal(number: UInt64)
    /// Opens a later segment of a flight recording (after its `writer` record): the recording numbered
    /// `eventsBefore` events before this file's first, of which the segment before this one (its
    /// `.previous.trace` file) holds or counts the last `inPrevious`; the rest were dropped. That
    /// segment began at `windowStart` (CLOCK_MONOTONIC ns, as clock records): nothing before it is
    /// kept. `segment` numbers the files of the recording (the first is 1). Since 1.4.
    case window(eventsBefore: UInt64, inPrevious: UInt64, windowStart: UInt64, segment: UInt64)

    package var tag: TraceFormat.Tag {
        switch self {
        case .clock: .clock
        case .string: .string
        case .thread: .thread
        case .end: .end
        case .lost: .lost
        case .site: .site
        case .signal: .signal
        case .window: .window
        case .chunk: .chunk
        case .continues: .continues
        case .writer: .writer
        case .event(_, let event): event.tag
        }
    }
}

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

extension TraceRecord {
    /// At most how many bytes the record takes, framing included: 10 per number, plus byte fields.
    package var maximumEncodedLength: Int {
        switch self {
        case .string(_, let utf8), .continues(_, _, _, let utf8): 64 + utf8.count
        case .event(_, .update(_, _, let preview?)), .event(_, .fire(_, _, let preview?)): 64 + preview.count
        case .event(_, .captured(_, let captures)):
            64 + captures.reduce(0) { $0 + 40 + 20 * $1.holds.count }
        default: 160
        }
    }

    /// Writes the record at `base`; returns how many bytes it took (at most ``maximumEncodedLength``).
    package func encode(at base: UnsafeMutablePointer<UInt8>) -> Int {
        base[0] = tag.rawValue
        // The payload is written after one byte for its length; moved when the length needs more.
        var payload = RecordWriter(base: base + 2)
        encodePayload(into: &payload)
        let length = payload.count
        if length < 0x80 {
            base[1] = UInt8(length)
            return 2 + length
        }
        var lengthSize = 1
        var rest = length >> 7
        while rest > 0 {
            lengthSize += 1
            rest >>= 7
        }
        // Overlapping regions: `update(from:count:)` moves like memmove.
        (base + 1 + lengthSize).update(from: base + 2, count: length)
        var lengthField = RecordWriter(base: base + 1)
        lengthField.varint(UInt64(length))
        return 1 + lengthSize + length
    }

    /// Appends the encoded record to `bytes`.
    package func encode(into bytes: inout [UInt8]) {
        let start = bytes.count
        let room = maximumEncodedLength
        bytes.append(contentsOf: repeatElement(0, count: room))
        let used = bytes.withUnsafeMutableBufferPointer { encode(at: $0.baseAddress! + start) }
        bytes.removeLast(room - used)
    }

    func encodePayload(into record: inout RecordWriter) {
        switch self {
        case .clock(let ticks, let nanoseconds, let rate):
            record.varint(ticks)
            record.varint(nanoseconds)
            record.varint(rate)
        case .string(let id, let utf8):
            record.varint(id)
            record.bytes(utf8)
        case .thread(let index, let name):
            record.varint(index)
            record.varint(name)
        case .end:
            break
        case .lost(let count):
            record.varint(count)
        case .signal(let number):
            record.varint(number)
        case .window(let eventsBefore, let inPrevious, let windowStart, let segment):
            record.varint(eventsBefore)
            record.varint(inPrevious)
            record.varint(windowStart)
            record.varint(segment)
        case .site(let id, let file, let line):
            record.varint(id)
            record.varint(file)
            record.varint(line)
        case .chunk(let number, let firstEvent, let bytes):
            record.varint(number)
            record.varint(firstEvent)
            record.varint(bytes)
        case .continues(let reason, let writtenEvents, let lostEvents, let path):
            record.varint(reason)
            record.varint(writtenEvents)
            record.varint(lostEvents)
            record.bytes(path)
        case .writer(let process, let group, let session):
            record.varint(process)
            record.varint(group)
            record.varint(session)
        case .event(let delta, let event):
            record.varint(delta)
            event.encodeFields(into: &record)
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

/// Writes varints and bytes at a pointer; the caller provides the room.
struct RecordWriter {
    let base: UnsafeMutablePointer<UInt8>
    var count = 0

    init(base: UnsafeMutablePointer<UInt8>) { self.base = base }

    mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            base[count] = UInt8(truncatingIfNeeded: value) | 0x80
            count += 1
            value >>= 7
        }
        base[count] = UInt8(value)
        count += 1
    }

    mutating func bytes(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { source in
            if let address = source.baseAddress { (base + count).update(from: address, count: source.count) }
        }
        count += bytes.count
    }

    mutating func cause(_ cause: CauseField) {
        varint(cause.back)
        if cause.back != 0 { varint(cause.subscription) }
    }
}

// MARK: - Decoding

extension TraceRecord {
    /// Decodes the payload of a record with `tag`; checks every field against the payload's end.
    ///
    /// - Throws: ``RecordDecodingError`` for a payload that ends inside a field or holds a value
    ///   the format does not define.
    // Inlinable so the reader specialises decoding into its own loop (no call per field).
    @inlinable
    package static func decode(_ tag: TraceFormat.Tag, _ payload: inout PayloadDecoder)
        throws(RecordDecodingError) -> TraceRecord
    {
        switch tag {
        case .clock:
            return .clock(
                ticks: try payload.varint(), nanoseconds: try payload.varint(), ticksPerSecond: try payload.varint())
        case .string:
            let id = try payload.varint()
            return .string(id: id, utf8: payload.remainingBytes())
        case .thread:
            return .thread(index: try payload.varint(), name: try payload.varint())
        case .end:
            return .end
        case .lost:
            return .lost(count: try payload.varint())
        case .site:
            return .site(id: try payload.varint(), file: try payload.varint(), line: try payload.varint())
        case .chunk:
            return .chunk(number: try payload.varint(), firstEvent: try payload.varint(), bytes: try payload.varint())
        case .continues:
            return .continues(
                reason: try payload.varint(), writtenEvents: try payload.varint(), lostEvents: try payload.varint(),
                path: payload.remainingBytes())
        case .writer:
            return .writer(process: try payload.varint(), group: try payload.varint(), session: try payload.varint())
        case .signal:
            return .signal(number: try payload.varint())
        case .window:
            return .window(
                eventsBefore: try payload.varint(), inPrevious: try payload.varint(), windowStart: try payload.varint(),
                segment: try payload.varint())
        default:
            let delta = try payload.varint()
            return .event(delta: delta, try EventRecord.decodeFields(tag, &payload))
        }
    }
}

extension TraceFormat.Tag {
    /// The tag whose raw value is `byte`, as `init(rawValue:)` gives it, but inlined into the
    /// reader's loop: the synthesised initialiser is a call into this module, once per record.
    @inlinable @inline(__always)
    package static func decoded(_ byte: UInt8) -> TraceFormat.Tag? {
        switch byte {
        case 1: .clock
        case 2: .string
        case 3: .thread
        case 4: .end
        case 5: .lost
        case 6: .chunk
        case 7: .continues
        case 8: .writer
        case 10: .outputCreated
        case 11: .edge
        case 12: .innerSwitch
        case 13: .bound
        case 14: .update
        case 15: .fire
        case 16: .unbound
        case 17: .dangling
        case 18: .released
        case 19: .scopeBegin
        case 20: .scopeEnd
        case 21: .mark
        case 22: .label
        case 23: .contained
        case 24: .handleReleased
        case 30: .site
        case 31: .calledAt
        case 25: .stopped
        case 26: .captured
        case 33: .resumed
        case 34: .signal
        case 35: .window
        default: nil
        }
    }
}

extension TraceRecord {
    /// An update or fire record without a preview, decoded in one pass: the reader's hot path (most
    /// events; the reader calls ``PayloadDecoder/updateFields()``, which this wraps with errors), as
    /// ``RecordEncoder/encodeUpdate(at:fire:delta:output:causeBack:causeSubscription:)`` is the
    /// recorder's. Reads the fields ``decode(_:_:)`` reads for
    /// `.event(delta:, .update(output:, cause:, preview: nil))` (or `.fire`), with the same errors.
    ///
    /// - Returns: the fields, or `nil` when the record has a preview (decode it with ``decode(_:_:)``;
    ///   `payload` is left as it was).
    @inlinable @inline(__always)
    package static func decodeUpdate(_ payload: inout PayloadDecoder)
        throws(RecordDecodingError) -> (delta: UInt64, output: UInt64, cause: CauseField)?
    {
        var fields = payload.updateFields()
        if fields == nil { fields = try payload.updateFieldsChecked() }
        guard let fields else { return nil }
        return (fields.delta, fields.output, CauseField(back: fields.causeBack, subscription: fields.causeSubscription))
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
