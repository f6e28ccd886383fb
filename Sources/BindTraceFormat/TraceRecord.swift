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
