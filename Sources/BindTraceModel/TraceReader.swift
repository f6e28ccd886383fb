import Bind

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// Streams the events of a trace file (or of an in-memory recording) without loading it whole.
///
/// Trace files are untrusted input: every length is checked before it is used, and a problem
/// throws a ``TraceReadError`` naming its byte offset. A trace cut short (a killed process) is not
/// an error: the reader returns every whole record before the cut and adds a ``TraceWarning``.
///
/// ```swift
/// let reader = try TraceReader(path: "app.trace")
/// while let event = try reader.next() { print(event.sequence, event.kind.name) }
/// ```
/// - Complexity: O(1) memory in the trace's length (plus its distinct strings).
public final class TraceReader {
    /// Problems that did not stop reading: a cut-off end, unknown record kinds, a missing end record.
    public private(set) var warnings: [TraceWarning] = []
    /// Whether the trace ended with the end record a recording writes when it stops normally.
    public private(set) var isComplete = false
    /// The format version of the trace.
    public private(set) var version: (major: UInt16, minor: UInt16) = (0, 0)
    /// Names of the recording threads, by thread number.
    public private(set) var threadNames: [UInt32: String] = [:]

    /// The bytes read and not yet consumed: `buffer[position..<count]`. Never reallocated.
    private let buffer: UnsafeMutableRawBufferPointer
    private var count = 0
    /// Where `buffer[0]` is in the trace.
    private var bufferOffset = 0
    private var position = 0
    private var descriptor: Int32 = -1
    private var atEndOfSource = false
    private var finished = false
    /// An error is final: every later call rethrows it and no event follows a corruption.
    private var failure: TraceReadError?

    private var strings: [String] = [""]
    private var sequence: UInt64 = 0
    private var ticks: UInt64 = 0
    private var clock: (ticks: UInt64, nanoseconds: UInt64, ticksPerSecond: UInt64)?
    private var startNanoseconds: UInt64?
    private var thread: UInt32 = 0
    private var skippedTags: Set<UInt8> = []
    private var droppedCauses = 0

    /// Read size; the buffer also holds one whole record (at most 1 MiB) past a read.
    private static let chunkSize = 1 << 20

    /// Opens the trace file at `path` and checks its header.
    public init(path: String) throws(TraceReadError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotOpen(reason: String(cString: strerror(errno))) }
        var status = stat()
        if fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
            close(descriptor)
            throw .cannotOpen(reason: "is a directory")
        }
        self.descriptor = descriptor
        buffer = .allocate(byteCount: Self.chunkSize + TraceFormat.maximumRecordLength + 64, alignment: 8)
        try readHeader()
    }

    /// Reads a trace held in memory, such as a `BindTrace.Recording`'s bytes.
    public init(bytes: [UInt8]) throws(TraceReadError) {
        buffer = .allocate(byteCount: max(bytes.count, 1), alignment: 8)
        bytes.withUnsafeBytes { buffer.copyMemory(from: $0) }
        count = bytes.count
        atEndOfSource = true
        try readHeader()
    }

    private func readHeader() throws(TraceReadError) {
        do {
            try fill(atLeast: TraceFormat.headerSize)
        } catch {
            closeSource()
            throw error
        }
        let magic = TraceFormat.magic
        if count < TraceFormat.headerSize {
            closeSource()
            let prefix = min(count, magic.count)
            if (0..<prefix).allSatisfy({ buffer[$0] == magic[$0] }) { throw .truncatedHeader(length: count) }
            throw .notATrace
        }
        guard (0..<magic.count).allSatisfy({ buffer[$0] == magic[$0] }) else {
            closeSource()
            throw .notATrace
        }
        let major = UInt16(buffer[8]) | UInt16(buffer[9]) << 8
        let minor = UInt16(buffer[10]) | UInt16(buffer[11]) << 8
        guard major == TraceFormat.majorVersion else {
            closeSource()
            throw .unsupportedVersion(major: major, minor: minor)
        }
        version = (major, minor)
        position = TraceFormat.headerSize
    }

    deinit {
        closeSource()
        buffer.deallocate()
    }

    /// The next event, or `nil` at the end of the trace.
    ///
    /// - Throws: ``TraceReadError`` at the first corruption; every later call throws it again.
    public func next() throws(TraceReadError) -> TraceEvent? {
        if let failure { throw failure }
        do {
            while !finished {
                if let event = try readRecord() { return event }
            }
        } catch {
            failure = error
            finished = true
            closeSource()
            throw error
        }
        return nil
    }

    /// Every remaining event. Fine for tests and small traces; stream with ``next()`` otherwise.
    public func readAll() throws(TraceReadError) -> [TraceEvent] {
        var events: [TraceEvent] = []
        while let event = try next() { events.append(event) }
        return events
    }

    /// How many bytes of the trace have been consumed.
    public var bytesRead: Int { bufferOffset + position }

    // MARK: - Records

    /// Reads one record; returns the event it holds, or nil for metadata and at the end.
    private func readRecord() throws(TraceReadError) -> TraceEvent? {
        let recordOffset = bufferOffset + position
        // A tag and a varint length: at most 1 + 10 bytes.
        try fill(atLeast: 11)
        guard position < count else {
            finish(at: recordOffset)
            return nil
        }
        let tagByte = buffer[position]
        var cursor = position + 1
        var claimed: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard cursor < count else { return cutShort(at: recordOffset) }
            let byte = buffer[cursor]
            cursor += 1
            if shift == 63 && byte & 0x7F > 1 {
                throw .malformedRecord(offset: recordOffset, tag: tagByte, reason: "record length does not fit 64 bits")
            }
            if shift < 64 { claimed |= UInt64(byte & 0x7F) << shift }
            if byte & 0x80 == 0 { break }
            shift += 7
            guard shift < 70 else {
                throw .malformedRecord(offset: recordOffset, tag: tagByte, reason: "record length does not end")
            }
        }
        guard claimed <= UInt64(TraceFormat.maximumRecordLength) else {
            throw .recordTooLong(offset: recordOffset, length: Int(clamping: claimed))
        }
        let length = Int(claimed)
        let headerLength = cursor - position
        try fill(atLeast: headerLength + length)
        let payloadStart = position + headerLength
        guard payloadStart + length <= count else { return cutShort(at: recordOffset) }
        position = payloadStart + length
        var payload = PayloadDecoder(
            bytes: UnsafeRawBufferPointer(buffer), start: payloadStart, end: payloadStart + length,
            offset: recordOffset, tag: tagByte)

        guard let tag = TraceFormat.Tag(rawValue: tagByte) else {
            if skippedTags.insert(tagByte).inserted {
                warnings.append(TraceWarning(offset: recordOffset, message: "skipped records of unknown kind \(tagByte)"))
            }
            return nil
        }
        switch tag {
        case .clock:
            let clockTicks = try payload.varint()
            let nanoseconds = try payload.varint()
            let rate = try payload.varint()
            guard rate > 0 else { throw payload.malformed("clock rate is zero") }
            clock = (clockTicks, nanoseconds, rate)
            if startNanoseconds == nil { startNanoseconds = nanoseconds }
            ticks = clockTicks
            return nil
        case .string:
            let id = try payload.varint()
            guard id == UInt64(strings.count) else {
                if id < UInt64(strings.count) { throw .stringDefinedTwice(offset: recordOffset, id: id) }
                throw payload.malformed("string \(id) defined out of order (expected \(strings.count))")
            }
            strings.append(payload.remainingString())
            return nil
        case .thread:
            let index = try payload.varint()
            guard index <= UInt64(UInt32.max) else { throw payload.malformed("thread number too large") }
            thread = UInt32(index)
            let name = try string(payload.varint(), at: recordOffset)
            if !name.isEmpty { threadNames[thread] = name }
            return nil
        case .end:
            isComplete = true
            return nil
        case .lost:
            let count = try payload.varint()
            warnings.append(TraceWarning(offset: recordOffset, message: "the recorder lost \(count) events here"))
            return nil
        default:
            return try decodeEvent(tag, &payload, offset: recordOffset)
        }
    }

    private func decodeEvent(_ tag: TraceFormat.Tag, _ payload: inout PayloadDecoder, offset: Int)
        throws(TraceReadError) -> TraceEvent
    {
        let delta = try payload.varint()
        ticks &+= delta
        sequence += 1
        let kind: TraceEvent.Kind
        switch tag {
        case .outputCreated:
            let output = try payload.varint()
            let outputKind = try payload.outputKind()
            let valueType = try string(payload.varint(), at: offset)
            let site = try self.site(&payload, at: offset)
            let labelID = try payload.varint()
            let label = labelID == 0 ? nil : try string(labelID, at: offset)
            let scope = try payload.varint()
            let preexisting = try payload.varint() != 0
            let cause = try payload.cause(sequence: sequence, dropped: &droppedCauses)
            kind = .outputCreated(
                TraceEvent.OutputCreation(
                    output: output, kind: outputKind, valueType: valueType, site: site, label: label, scope: scope,
                    preexisting: preexisting, cause: cause))
        case .edge:
            kind = .edge(source: try payload.varint(), derived: try payload.varint(), operation: try payload.outputKind())
        case .innerSwitch:
            kind = .innerSwitch(flatMap: try payload.varint(), inner: try payload.varint())
        case .bound:
            let subscription = try payload.varint()
            let output = try payload.varint()
            let site = try self.site(&payload, at: offset)
            let flags = try payload.varint()
            var target: BinderTarget?
            if flags & TraceFormat.BindFlag.binder != 0 {
                target = BinderTarget(type: try string(payload.varint(), at: offset), identity: try payload.varint())
            }
            let scope = try payload.varint()
            let cause = try payload.cause(sequence: sequence, dropped: &droppedCauses)
            kind = .bound(
                TraceEvent.Binding(
                    subscription: subscription, output: output, site: site,
                    isInternal: flags & TraceFormat.BindFlag.internal != 0, target: target, scope: scope,
                    preexisting: flags & TraceFormat.BindFlag.preexisting != 0, cause: cause))
        case .update, .fire:
            let output = try payload.varint()
            let cause = try payload.cause(sequence: sequence, dropped: &droppedCauses)
            let preview = try payload.varint() != 0 ? payload.remainingString() : nil
            kind = tag == .update
                ? .updated(output: output, cause: cause, preview: preview)
                : .fired(output: output, cause: cause, preview: preview)
        case .unbound:
            let subscription = try payload.varint()
            let rawReason = try payload.varint()
            guard rawReason <= UInt64(UInt8.max), let reason = UnbindReason(rawValue: UInt8(rawReason)) else {
                throw payload.malformed("unknown unbind reason \(rawReason)")
            }
            kind = .unbound(subscription: subscription, reason: reason, cause: try payload.cause(sequence: sequence, dropped: &droppedCauses))
        case .dangling:
            kind = .dangling(subscription: try payload.varint())
        case .released:
            kind = .released(output: try payload.varint())
        case .scopeBegin:
            let id = try payload.varint()
            let parent = try payload.varint()
            let name = try string(payload.varint(), at: offset)
            kind = .scopeBegan(id: id, parent: parent, name: name, site: try site(&payload, at: offset))
        case .scopeEnd:
            kind = .scopeEnded(id: try payload.varint())
        case .mark:
            kind = .mark(name: try string(payload.varint(), at: offset), scope: try payload.varint())
        case .label:
            kind = .labeled(output: try payload.varint(), label: try string(payload.varint(), at: offset))
        case .clock, .string, .thread, .end, .lost:
            throw payload.malformed("not an event")
        }
        return TraceEvent(sequence: sequence, time: time(), thread: thread, offset: offset, kind: kind)
    }

    private func string(_ id: UInt64, at offset: Int) throws(TraceReadError) -> String {
        guard id < UInt64(strings.count) else { throw .unknownString(offset: offset, id: id) }
        return strings[Int(id)]
    }

    private func site(_ payload: inout PayloadDecoder, at offset: Int) throws(TraceReadError) -> SourceSite {
        let file = try string(payload.varint(), at: offset)
        let line = try payload.varint()
        return SourceSite(file: file, line: UInt(truncatingIfNeeded: line))
    }

    /// Nanoseconds since the first clock record, from the latest clock record's anchor and rate.
    private func time() -> UInt64 {
        guard let clock, let start = startNanoseconds else { return 0 }
        let elapsedTicks = Double(Int64(bitPattern: ticks &- clock.ticks))
        let nanoseconds = Double(clock.nanoseconds) + elapsedTicks * 1e9 / Double(clock.ticksPerSecond)
        return nanoseconds > Double(start) ? UInt64(min(nanoseconds - Double(start), 1.8e19)) : 0
    }

    private func cutShort(at offset: Int) -> TraceEvent? {
        let total = bufferOffset + count
        warnings.append(
            TraceWarning(
                offset: offset,
                message: "trace is cut short: the last \(total - offset) bytes hold an incomplete record and were ignored"
            ))
        finished = true
        isComplete = false
        closeSource()
        return nil
    }

    private func finish(at offset: Int) {
        finished = true
        closeSource()
        if droppedCauses > 0 {
            warnings.append(
                TraceWarning(
                    offset: offset,
                    message: "\(droppedCauses) events name a cause from before the trace started (recording began "
                        + "during a delivery); they are treated as top level"))
        }
        if !isComplete {
            warnings.append(
                TraceWarning(
                    offset: offset,
                    message: "trace has no end record: the recording process was killed or is still running"))
        }
    }

    // MARK: - Input

    /// Makes at least `wanted` bytes available from `position`, unless the source ends first.
    private func fill(atLeast wanted: Int) throws(TraceReadError) {
        guard count - position < wanted, !atEndOfSource, descriptor >= 0 else { return }
        if position > 0 {
            // Keep the unread tail (at most one partial record) at the front.
            let remaining = count - position
            if remaining > 0 {
                buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + position, byteCount: remaining)
            }
            bufferOffset += position
            count = remaining
            position = 0
        }
        while count < wanted && !atEndOfSource {
            let room = min(Self.chunkSize, buffer.count - count)
            let got = read(descriptor, buffer.baseAddress! + count, room)
            if got < 0 {
                if errno == EINTR { continue }
                throw .readFailed(offset: bufferOffset + count, reason: String(cString: strerror(errno)))
            }
            if got == 0 { atEndOfSource = true }
            count += got
        }
    }

    private func closeSource() {
        atEndOfSource = true
        if descriptor >= 0 {
            close(descriptor)
            descriptor = -1
        }
    }
}

/// Decodes the fields of one record's payload, never reading past its end.
struct PayloadDecoder {
    let bytes: UnsafeRawBufferPointer
    var cursor: Int
    let end: Int
    let offset: Int
    let tag: UInt8

    init(bytes: UnsafeRawBufferPointer, start: Int, end: Int, offset: Int, tag: UInt8) {
        self.bytes = bytes
        self.cursor = start
        self.end = end
        self.offset = offset
        self.tag = tag
    }

    func malformed(_ reason: String) -> TraceReadError {
        .malformedRecord(offset: offset, tag: tag, reason: reason)
    }

    mutating func varint() throws(TraceReadError) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard cursor < end else { throw malformed("record ends inside a field") }
            let byte = bytes[cursor]
            cursor += 1
            if shift == 63 && byte > 1 { throw malformed("number does not fit in 64 bits") }
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
            guard shift <= 63 else { throw malformed("number does not fit in 64 bits") }
        }
    }

    mutating func outputKind() throws(TraceReadError) -> OutputKind {
        let raw = try varint()
        guard raw <= UInt64(UInt8.max), let kind = OutputKind(rawValue: UInt8(raw)) else {
            throw malformed("unknown output kind \(raw)")
        }
        return kind
    }

    /// The cause, or nil; a cause from before the trace's first event (a recording that started
    /// during a delivery) is dropped and counted in `dropped`.
    mutating func cause(sequence: UInt64, dropped: inout Int) throws(TraceReadError) -> TraceCause? {
        let back = try varint()
        guard back != 0 else { return nil }
        let subscription = try varint()
        guard back < sequence else {
            dropped += 1
            return nil
        }
        return TraceCause(subscription: subscription, event: sequence - back)
    }

    /// The rest of the payload as text; invalid UTF-8 is repaired with U+FFFD.
    mutating func remainingString() -> String {
        defer { cursor = end }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[cursor..<end]), as: UTF8.self)
    }
}
