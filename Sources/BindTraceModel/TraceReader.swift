@_exported import BindTraceFormat

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
    /// Events missing from the trace: the recorder's `lost` records (a failed write, a crash flush
    /// that could not order them) summed, the events of the file this one continues (``continuedFrom``),
    /// and events whose numbers are missing between two chunks with no `lost` record saying so.
    public private(set) var lostEvents: UInt64 = 0
    /// Sequence numbers that no event of the trace takes: those of the events the trace says it
    /// lost, so that the events after a loss keep the numbers the recorder gave them (and their
    /// causes, counted back, stay right). An event's ``TraceEvent/sequence`` is its position in the
    /// trace plus the numbers skipped before it.
    public private(set) var skippedSequenceNumbers: UInt64 = 0
    /// Chunks the file holds twice (a writer that wrote one again), read once: their second copies
    /// were skipped.
    public private(set) var repeatedChunks = 0
    /// The file this trace continues, when it was deleted, replaced or truncated while the recorder
    /// wrote it: its path and how.
    public private(set) var continuedFrom: (path: String, how: String)?
    /// The process that wrote the trace (its `writer` record), if the trace says.
    package private(set) var writer: (process: UInt64, group: UInt64, session: UInt64)?
    /// Bytes at the end that hold an incomplete record and were ignored (the trace was cut short).
    public private(set) var ignoredBytes = 0
    /// Events whose cause comes from before the trace's first event, read as top level: the
    /// recording (a capture or a file that joined a running stream) began during a delivery.
    /// Expected whenever a sink joins while another thread delivers, so not a warning.
    @exclusivity(unchecked) public private(set) var causesBeforeStart = 0
    /// Why the trace is not whole, once it has been read to its end: empty for a whole trace. A
    /// gate should fail on a trace with gaps unless the user accepts incomplete traces.
    public var gaps: [TraceGap] {
        var gaps: [TraceGap] = []
        if lostEvents > 0 { gaps.append(.lostEvents(lostEvents)) }
        if ignoredBytes > 0 { gaps.append(.cutShort(ignoredBytes: ignoredBytes)) }
        if finished && failure == nil && !isComplete { gaps.append(.noEndRecord) }
        return gaps
    }
    /// Names of the recording threads, by thread number.
    package private(set) var threadNames: [UInt32: String] = [:]

    // Hot state: exclusivity is not checked at run time (a reader is used from one thread at a
    // time and never re-enters itself); the checks cost about a tenth of reading.
    /// The bytes read and not yet consumed: `buffer[position..<count]`. Never reallocated.
    private let buffer: UnsafeMutableRawBufferPointer
    @exclusivity(unchecked) private var count = 0
    /// Where `buffer[0]` is in the trace.
    @exclusivity(unchecked) private var bufferOffset = 0
    @exclusivity(unchecked) private var position = 0
    private var descriptor: Int32 = -1
    @exclusivity(unchecked) private var atEndOfSource = false
    @exclusivity(unchecked) private var finished = false
    /// An error is final: every later call rethrows it and no event follows a corruption.
    @exclusivity(unchecked) private var failure: TraceReadError?

    @exclusivity(unchecked) private var strings: [String] = [""]
    /// How many of `strings` batches have carried to their consumer (``EventBatch/strings``).
    @exclusivity(unchecked) private var stringsHandedOut = 1
    /// Each distinct text once: a string defined again under another id shares the first one's storage.
    private var distinctStrings: [String: Int] = [:]
    /// Call sites by id (`site` records), defined in increasing order; gaps are sites whose records
    /// were lost with a failed write.
    private var sites: [UInt64: SourceSite] = [:]
    private var lastSiteID: UInt64 = 0
    @exclusivity(unchecked) private var sequence: UInt64 = 0
    @exclusivity(unchecked) private var ticks: UInt64 = 0
    @exclusivity(unchecked) private var clock: (ticks: UInt64, nanoseconds: UInt64, ticksPerSecond: UInt64)?
    @exclusivity(unchecked) private var startNanoseconds: UInt64?
    /// `clock` and `startNanoseconds` as the `Double`s ``time()`` computes with, converted once per
    /// clock record instead of once per event (the same values, so the same times).
    @exclusivity(unchecked) private var clockNanoseconds = 0.0
    @exclusivity(unchecked) private var clockRate = 1.0
    @exclusivity(unchecked) private var start = 0.0
    @exclusivity(unchecked) private var thread: UInt32 = 0
    private var skippedTags: Set<UInt8> = []
    /// The last chunk read (0: none yet), and the one warning that sums the `lost` records.
    private var lastChunk: UInt64 = 0
    private var lostRecords: (count: Int, events: UInt64, warning: Int)?
    /// The one-event batch ``next()`` decodes into.
    @exclusivity(unchecked) private var single = EventBatch()

    /// ``TraceFormat/maximumRecordLength``, read once: a global of another module is a call per record.
    private let maximumRecordLength = UInt64(TraceFormat.maximumRecordLength)

    /// Read size; the buffer also holds one whole record (at most 64 KiB) past a read.
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
        single.removeAll()
        do {
            while !finished {
                if try readRecord(into: &single) { return TraceEvent(single.events[0], in: single, strings: strings) }
            }
        } catch {
            fail(error)
            throw error
        }
        return nil
    }

    /// Decodes the next events into `batch` (emptied first): up to `maximumEvents`, fewer at the
    /// end of the trace or at an error, which ends the batch as its ``EventBatch/failure``.
    ///
    /// The events are those ``next()`` would return one by one. After the last batch
    /// (``EventBatch/isLast``) every call gives an empty last batch (with the error again, if any).
    // Hot path: no allocation once the batch's storage has grown, no reference counting for most events.
    package func read(into batch: inout EventBatch, maximumEvents: Int = EventBatch.defaultCapacity) {
        batch.removeAll()
        if let failure {
            batch.failure = failure
        } else {
            do {
                while !finished && batch.events.count < maximumEvents { _ = try readRecord(into: &batch) }
            } catch {
                fail(error)
                batch.failure = error
            }
        }
        // The strings defined since the previous batch, for the consumer's ``DefinedStrings``.
        batch.firstString = stringsHandedOut
        if stringsHandedOut < strings.count {
            batch.strings += strings[stringsHandedOut...]
            stringsHandedOut = strings.count
        }
        batch.isLast = finished
        batch.bytesRead = bytesRead
    }

    /// An error is final: later reads rethrow it.
    private func fail(_ error: TraceReadError) {
        failure = error
        finished = true
        closeSource()
    }

    /// Every remaining event. Fine for tests and small traces; stream with ``next()`` otherwise.
    package func readAll() throws(TraceReadError) -> [TraceEvent] {
        var events: [TraceEvent] = []
        while let event = try next() { events.append(event) }
        return events
    }

    /// How many bytes of the trace have been consumed.
    public var bytesRead: Int { bufferOffset + position }

    // MARK: - Records

    /// Reads one record; appends the event it holds to `batch` and returns true, or returns false
    /// for metadata and at the end. Small on purpose: the optimiser inlines the update decoder only
    /// into a small enough caller, so every other record is read by ``readOtherRecord``.
    @inline(__always)
    private func readRecord(into batch: inout EventBatch) throws(TraceReadError) -> Bool {
        let recordOffset = bufferOffset + position
        guard let frame = try readFrame(at: recordOffset) else { return false }
        position = frame.payload.upperBound
        // Hot path: an update or fire without a preview (`TraceRecord.decodeUpdate`, inlined here),
        // straight into its compact form. A malformed one takes the general path, which throws its error.
        let isUpdate = frame.tag == TraceFormat.Tag.update.rawValue
        if isUpdate || frame.tag == TraceFormat.Tag.fire.rawValue {
            var payload = PayloadDecoder(
                bytes: UnsafeRawBufferPointer(buffer), start: frame.payload.lowerBound, end: frame.payload.upperBound)
            if let update = payload.updateFields() {
                ticks &+= update.delta
                sequence += 1
                let cause = resolve(back: update.causeBack, subscription: update.causeSubscription)
                batch.events.append(
                    CompactEvent(
                        sequence: sequence, time: time(), thread: thread, offset: recordOffset,
                        tag: isUpdate ? .update : .fire,
                        kind: isUpdate
                            ? .updated(output: update.output, cause: cause)
                            : .fired(output: update.output, cause: cause)))
                return true
            }
        }
        return try readOtherRecord(tag: frame.tag, payload: frame.payload, at: recordOffset, into: &batch)
    }

    /// ``readRecord(into:)`` for every record but an update or fire without a preview.
    @inline(never)
    private func readOtherRecord(
        tag tagByte: UInt8, payload range: Range<Int>, at recordOffset: Int, into batch: inout EventBatch
    ) throws(TraceReadError) -> Bool {
        guard let tag = TraceFormat.Tag.decoded(tagByte) else {
            if skippedTags.insert(tagByte).inserted {
                warnings.append(
                    TraceWarning(offset: recordOffset, message: "skipped records of unknown kind \(tagByte)"))
            }
            return false
        }
        var payload = PayloadDecoder(
            bytes: UnsafeRawBufferPointer(buffer), start: range.lowerBound, end: range.upperBound)
        // A switch, not `==`: the synthesised `==` of a tag is a generic call from this module.
        switch tag {
        case .clock, .string, .thread, .end, .lost, .site, .chunk, .continues, .writer:
            let record: TraceRecord
            do {
                record = try TraceRecord.decode(tag, &payload)
            } catch {
                throw .malformedRecord(offset: recordOffset, tag: tagByte, reason: error.reason)
            }
            try apply(metadata: record, tag: tagByte, at: recordOffset)
            return false
        default: break
        }
        if let kind = try structuralKind(tag, payload, at: recordOffset, into: &batch) {
            batch.events.append(
                CompactEvent(
                    sequence: sequence, time: time(), thread: thread, offset: recordOffset, tag: tag, kind: kind))
            return true
        }
        let delta: UInt64
        let event: EventRecord
        do {
            // An event's fields straight from its payload, as `TraceRecord.decode` reads them (without
            // wrapping them in a record only to take them out again).
            delta = try payload.varint()
            event = try EventRecord.decodeFields(tag, &payload)
        } catch {
            throw .malformedRecord(offset: recordOffset, tag: tagByte, reason: error.reason)
        }
        ticks &+= delta
        sequence += 1
        try append(event, at: recordOffset, to: &batch)
        return true
    }

    /// The common structural events (binds, unbinds, creations, releases, edges, scope ends) read
    /// straight into their compact form, as ``compactKind(of:at:into:)`` makes it from the general
    /// decoder's `EventRecord` (which costs an enum with an array payload per event). Counts the
    /// event (tick delta, sequence number) and returns its kind; `nil`, nothing counted, for
    /// another event or anything malformed, which the general path then reads and reports. Throws
    /// what the general path throws for a bad string id, in its order.
    @inline(__always)
    private func structuralKind(
        _ tag: TraceFormat.Tag, _ payload: PayloadDecoder, at offset: Int, into batch: inout EventBatch
    ) throws(TraceReadError) -> CompactEvent.Kind? {
        var fields = payload
        guard let delta = fields.varintIfWhole() else { return nil }
        switch tag {
        case .bound:
            guard let subscription = fields.varintIfWhole(), let output = fields.varintIfWhole(),
                let file = fields.varintIfWhole(), let line = fields.varintIfWhole(),
                let flags = fields.varintIfWhole()
            else { return nil }
            var target: CompactBinding.Target?
            if flags & TraceFormat.BindFlag.binder != 0 {
                guard let type = fields.varintIfWhole(), let identity = fields.varintIfWhole() else { return nil }
                target = CompactBinding.Target(type: type, identity: identity)
            }
            guard let scope = fields.varintIfWhole(), let cause = fields.causeIfWhole() else { return nil }
            try checkString(file, at: offset)
            if let target { try checkString(target.type, at: offset) }
            takeEvent(delta: delta)
            batch.bindings.append(
                CompactBinding(
                    subscription: subscription, output: output, file: file, line: line,
                    isInternal: flags & TraceFormat.BindFlag.internal != 0,
                    preexisting: flags & TraceFormat.BindFlag.preexisting != 0, target: target, scope: scope,
                    cause: resolve(cause)))
            return .bound(batch.bindings.count - 1)
        case .unbound:
            guard let subscription = fields.varintIfWhole(), let rawReason = fields.varintIfWhole(),
                rawReason <= UInt64(UInt8.max), let reason = UnbindReason(rawValue: UInt8(rawReason)),
                let cause = fields.causeIfWhole()
            else { return nil }
            takeEvent(delta: delta)
            return .unbound(subscription: subscription, reason: reason, cause: resolve(cause))
        case .outputCreated:
            guard let output = fields.varintIfWhole(), let rawKind = fields.varintIfWhole(),
                rawKind <= UInt64(UInt8.max), let kind = OutputKind(rawValue: UInt8(rawKind)),
                let valueType = fields.varintIfWhole(), let file = fields.varintIfWhole(),
                let line = fields.varintIfWhole(), let label = fields.varintIfWhole(),
                let scope = fields.varintIfWhole(), let preexisting = fields.varintIfWhole(),
                let cause = fields.causeIfWhole()
            else { return nil }
            try checkString(valueType, at: offset)
            try checkString(file, at: offset)
            if label != 0 { try checkString(label, at: offset) }
            takeEvent(delta: delta)
            batch.creations.append(
                CompactCreation(
                    output: output, kind: kind, valueType: valueType, file: file, line: line, label: label,
                    scope: scope, preexisting: preexisting != 0, cause: resolve(cause)))
            return .outputCreated(batch.creations.count - 1)
        case .released:
            guard let output = fields.varintIfWhole() else { return nil }
            takeEvent(delta: delta)
            return .released(output: output)
        case .scopeEnd:
            guard let id = fields.varintIfWhole() else { return nil }
            takeEvent(delta: delta)
            return .scopeEnded(id: id)
        case .edge:
            guard let source = fields.varintIfWhole(), let derived = fields.varintIfWhole(),
                let rawOperation = fields.varintIfWhole(), rawOperation <= UInt64(UInt8.max),
                let operation = OutputKind(rawValue: UInt8(rawOperation))
            else { return nil }
            takeEvent(delta: delta)
            return .edge(source: source, derived: derived, operation: operation)
        default:
            return nil
        }
    }

    /// An event's tick delta and sequence number, taken once it is known to be whole.
    @inline(__always)
    private func takeEvent(delta: UInt64) {
        ticks &+= delta
        sequence += 1
    }

    /// The next record's tag and where its payload lies in the buffer, made whole in it; nil at the end
    /// of the trace or when it is cut short inside this record.
    @inline(__always)
    private func readFrame(at recordOffset: Int) throws(TraceReadError) -> (tag: UInt8, payload: Range<Int>)? {
        // Most records: a one-byte length, the whole record already in the buffer.
        if position + 1 < count {
            let length = Int(buffer[position + 1])
            if length < 0x80, position + 2 + length <= count {
                return (buffer[position], position + 2..<position + 2 + length)
            }
        }
        return try readFrameSlowly(at: recordOffset)
    }

    /// ``readFrame(at:)`` in general: reads more of the trace when the record is not whole in the buffer.
    private func readFrameSlowly(at recordOffset: Int) throws(TraceReadError) -> (tag: UInt8, payload: Range<Int>)? {
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
            guard cursor < count else {
                cutShort(at: recordOffset)
                return nil
            }
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
        guard claimed <= maximumRecordLength else {
            throw .recordTooLong(offset: recordOffset, length: Int(clamping: claimed))
        }
        let length = Int(claimed)
        let headerLength = cursor - position
        try fill(atLeast: headerLength + length)
        let payloadStart = position + headerLength
        guard payloadStart + length <= count else {
            cutShort(at: recordOffset)
            return nil
        }
        return (tagByte, payloadStart..<payloadStart + length)
    }

    /// Takes in a record that is not an event: the clock, a string, the thread, the end, a loss.
    private func apply(metadata record: TraceRecord, tag tagByte: UInt8, at recordOffset: Int)
        throws(TraceReadError)
    {
        switch record {
        case .clock(let clockTicks, let nanoseconds, let rate):
            guard rate > 0 else {
                throw .malformedRecord(offset: recordOffset, tag: tagByte, reason: "clock rate is zero")
            }
            clock = (clockTicks, nanoseconds, rate)
            if startNanoseconds == nil { startNanoseconds = nanoseconds }
            clockNanoseconds = Double(nanoseconds)
            clockRate = Double(rate)
            start = Double(startNanoseconds ?? 0)
            ticks = clockTicks
        case .string(let id, let utf8):
            guard id == UInt64(strings.count) else {
                if id < UInt64(strings.count) { throw .stringDefinedTwice(offset: recordOffset, id: id) }
                throw .malformedRecord(
                    offset: recordOffset, tag: tagByte,
                    reason: "string \(id) defined out of order (expected \(strings.count))")
            }
            guard utf8.count <= TraceFormat.maximumReadableStringLength else {
                throw .malformedRecord(
                    offset: recordOffset, tag: tagByte,
                    reason: "string of \(utf8.count) bytes (at most \(TraceFormat.maximumReadableStringLength))")
            }
            defineString(String(decoding: utf8, as: UTF8.self))
        case .thread(let index, let nameID):
            guard index <= UInt64(UInt32.max) else {
                throw .malformedRecord(offset: recordOffset, tag: tagByte, reason: "thread number too large")
            }
            thread = UInt32(index)
            let name = try string(nameID, at: recordOffset)
            if !name.isEmpty { threadNames[thread] = name }
        case .site(let id, let file, let line):
            // Increasing, not dense: a failed write may have lost the records of some sites.
            guard id > lastSiteID else {
                throw .malformedRecord(
                    offset: recordOffset, tag: tagByte,
                    reason: "site \(id) defined out of order (after site \(lastSiteID))")
            }
            lastSiteID = id
            // Its file's string may have been lost with a failed write (the trace has said so).
            if file >= UInt64(strings.count) && lostEvents > 0 {
                sites[id] = SourceSite(file: "?", line: UInt(truncatingIfNeeded: line))
            } else {
                sites[id] = try site(file, line, at: recordOffset)
            }
        case .end:
            isComplete = true
        case .lost(let count):
            try skipNumbers(count, at: recordOffset, tag: tagByte)
            lost(count, at: recordOffset)
        case .chunk(let number, let firstEvent, let bytes):
            try chunk(number, firstEvent: firstEvent, bytes: bytes, at: recordOffset)
        case .continues(let rawReason, let writtenEvents, let lostBetween, let utf8):
            let how = TraceFormat.FileLoss(rawValue: rawReason)?.description ?? "lost"
            let path = String(decoding: utf8.prefix(TraceFormat.maximumReadableStringLength), as: UTF8.self)
            continuedFrom = (path, how)
            lostEvents &+= writtenEvents &+ lostBetween
            warnings.append(
                TraceWarning(
                    offset: recordOffset,
                    message:
                        "this trace continues \(path), which was \(how) while it was written: its \(writtenEvents) "
                        + "events are not here, and \(lostBetween) more reached neither file"))
        case .writer(let process, let group, let session):
            writer = (process, group, session)
        case .event:
            break
        }
    }

    /// A `lost` record: its events are counted, the event numbers go on past them, and one warning
    /// per trace sums every such record.
    private func lost(_ count: UInt64, at offset: Int) {
        lostEvents &+= count
        guard var summary = lostRecords else {
            lostRecords = (1, count, warnings.count)
            warnings.append(TraceWarning(offset: offset, message: "the recorder lost \(count) events here"))
            return
        }
        summary.count += 1
        summary.events &+= count
        lostRecords = summary
        warnings[summary.warning].message =
            "the recorder lost \(summary.events) events in \(summary.count) places (the first here)"
    }

    /// A `chunk` record. A chunk numbered like one read before is a second copy: its records are
    /// skipped, so no event is counted twice. A chunk whose first event is past the next number
    /// means events went missing with nothing to say so: they are counted as lost.
    private func chunk(_ number: UInt64, firstEvent: UInt64, bytes: UInt64, at offset: Int) throws(TraceReadError) {
        guard number > lastChunk else {
            repeatedChunks += 1
            warnings.append(
                TraceWarning(
                    offset: offset,
                    message: "chunk \(number) is written again here (\(bytes) bytes); its events were read once"))
            try skip(bytes: bytes, chunkAt: offset)
            return
        }
        lastChunk = number
        let expected = sequence &+ 1
        if firstEvent > expected {
            let missing = firstEvent - expected
            try skipNumbers(missing, at: offset, tag: TraceFormat.Tag.chunk.rawValue)
            lostEvents &+= missing
            warnings.append(
                TraceWarning(
                    offset: offset,
                    message: "\(missing) events are missing before chunk \(number), and no lost record says so"))
        } else if firstEvent < expected {
            warnings.append(
                TraceWarning(
                    offset: offset,
                    message: "chunk \(number) starts at event \(firstEvent), but \(expected - 1) events came before it")
            )
        }
    }

    /// The next event's number is `count` past the last one's; a trace never numbers more than
    /// ``TraceFormat/maximumSequence`` events.
    private func skipNumbers(_ count: UInt64, at offset: Int, tag: UInt8) throws(TraceReadError) {
        guard count <= TraceFormat.maximumSequence - min(sequence, TraceFormat.maximumSequence) else {
            throw .malformedRecord(offset: offset, tag: tag, reason: "\(count) lost events: more than a trace numbers")
        }
        sequence += count
        skippedSequenceNumbers += count
    }

    /// Skips the records of a repeated chunk: `bytes` bytes of whole records after its `chunk` record.
    private func skip(bytes: UInt64, chunkAt offset: Int) throws(TraceReadError) {
        let end = UInt64(bufferOffset + position) &+ bytes
        while UInt64(bufferOffset + position) < end {
            guard let frame = try readFrame(at: bufferOffset + position) else { return }
            position = frame.payload.upperBound
        }
        guard UInt64(bufferOffset + position) == end else {
            throw .malformedRecord(
                offset: offset, tag: TraceFormat.Tag.chunk.rawValue, reason: "its records end past its length")
        }
    }

    /// Appends the event, its cause made absolute, to `batch`.
    // Not inlined, and the kind built here rather than returned: a kind handed back through memory
    // was written field by field and read back whole, which stalls the load on every event.
    @inline(never)
    private func append(_ event: EventRecord, at offset: Int, to batch: inout EventBatch) throws(TraceReadError) {
        let kind = try compactKind(of: event, at: offset, into: &batch)
        batch.events.append(
            CompactEvent(sequence: sequence, time: time(), thread: thread, offset: offset, tag: event.tag, kind: kind))
    }

    /// The event with its cause made absolute. A bind or creation goes to the batch's `bindings` or
    /// `creations`, its string ids checked (not looked up); one with other strings goes to `details`,
    /// strings looked up.
    @inline(__always)
    private func compactKind(of event: EventRecord, at offset: Int, into batch: inout EventBatch)
        throws(TraceReadError) -> CompactEvent.Kind
    {
        switch event {
        case .bound(let subscription, let output, let file, let line, let flags, let target, let scope, let cause):
            // The checks `kind(of:at:)` makes, in its order: the same error for a bad id.
            try checkString(file, at: offset)
            if let target { try checkString(target.type, at: offset) }
            batch.bindings.append(
                CompactBinding(
                    subscription: subscription, output: output, file: file, line: line,
                    isInternal: flags & TraceFormat.BindFlag.internal != 0,
                    preexisting: flags & TraceFormat.BindFlag.preexisting != 0,
                    target: target.map { CompactBinding.Target(type: $0.type, identity: $0.identity) }, scope: scope,
                    cause: resolve(cause)))
            return .bound(batch.bindings.count - 1)
        case .outputCreated(
            let output, let kind, let valueType, let file, let line, let label, let scope, let preexisting, let cause):
            try checkString(valueType, at: offset)
            try checkString(file, at: offset)
            if label != 0 { try checkString(label, at: offset) }
            batch.creations.append(
                CompactCreation(
                    output: output, kind: kind, valueType: valueType, file: file, line: line, label: label,
                    scope: scope, preexisting: preexisting, cause: resolve(cause)))
            return .outputCreated(batch.creations.count - 1)
        case .update(let output, let cause, nil): return .updated(output: output, cause: resolve(cause))
        case .fire(let output, let cause, nil): return .fired(output: output, cause: resolve(cause))
        case .unbound(let subscription, let reason, let cause):
            return .unbound(subscription: subscription, reason: reason, cause: resolve(cause))
        case .released(let output): return .released(output: output)
        case .edge(let source, let derived, let operation):
            return .edge(source: source, derived: derived, operation: operation)
        case .innerSwitch(let flatMap, let inner): return .innerSwitch(flatMap: flatMap, inner: inner)
        case .dangling(let subscription): return .dangling(subscription: subscription)
        case .scopeEnd(let id): return .scopeEnded(id: id)
        case .contained(let subscription, let container):
            return .subscriptionContained(subscription: subscription, container: container)
        case .handleReleased(let subscription): return .handleReleased(subscription: subscription)
        case .stopped(let derived, let source): return .stopped(derived: derived, source: source)
        case .update, .fire, .scopeBegin, .mark, .label, .calledAt:
            batch.details.append(try kind(of: event, at: offset))
            return .detailed(batch.details.count - 1)
        }
    }

    /// The event with its strings looked up and its cause made absolute.
    private func kind(of event: EventRecord, at offset: Int) throws(TraceReadError) -> TraceEvent.Kind {
        switch event {
        case .outputCreated(
            let output, let kind, let valueType, let file, let line, let label, let scope,
            let preexisting, let cause):
            return .outputCreated(
                TraceEvent.OutputCreation(
                    output: output, kind: kind, valueType: try string(valueType, at: offset),
                    site: try site(file, line, at: offset), label: label == 0 ? nil : try string(label, at: offset),
                    scope: scope, preexisting: preexisting, cause: resolve(cause)))
        case .edge(let source, let derived, let operation):
            return .edge(source: source, derived: derived, operation: operation)
        case .innerSwitch(let flatMap, let inner):
            return .innerSwitch(flatMap: flatMap, inner: inner)
        case .bound(let subscription, let output, let file, let line, let flags, let target, let scope, let cause):
            return .bound(
                TraceEvent.Binding(
                    subscription: subscription, output: output, site: try site(file, line, at: offset),
                    isInternal: flags & TraceFormat.BindFlag.internal != 0,
                    target: try target.map { target throws(TraceReadError) in
                        BinderTarget(type: try string(target.type, at: offset), identity: target.identity)
                    },
                    scope: scope, preexisting: flags & TraceFormat.BindFlag.preexisting != 0, cause: resolve(cause)))
        case .update(let output, let cause, let preview):
            return .updated(
                output: output, cause: resolve(cause), preview: preview.map { String(decoding: $0, as: UTF8.self) })
        case .fire(let output, let cause, let preview):
            return .fired(
                output: output, cause: resolve(cause), preview: preview.map { String(decoding: $0, as: UTF8.self) })
        case .unbound(let subscription, let reason, let cause):
            return .unbound(subscription: subscription, reason: reason, cause: resolve(cause))
        case .dangling(let subscription):
            return .dangling(subscription: subscription)
        case .released(let output):
            return .released(output: output)
        case .scopeBegin(let id, let parent, let name, let file, let line):
            return .scopeBegan(
                id: id, parent: parent, name: try string(name, at: offset), site: try site(file, line, at: offset))
        case .scopeEnd(let id):
            return .scopeEnded(id: id)
        case .mark(let name, let scope):
            return .mark(name: try string(name, at: offset), scope: scope)
        case .label(let output, let label):
            return .labeled(output: output, label: try string(label, at: offset))
        case .contained(let subscription, let container):
            return .subscriptionContained(subscription: subscription, container: container)
        case .handleReleased(let subscription):
            return .handleReleased(subscription: subscription)
        case .calledAt(let back, let site):
            guard back != 0, back < sequence else {
                throw .malformedRecord(
                    offset: offset, tag: TraceFormat.Tag.calledAt.rawValue,
                    reason: "call site of event \(back) back, before the trace's first event")
            }
            if let known = sites[site] { return .calledAt(event: sequence - back, site: known) }
            // A definition lost with a failed write (the trace has said so): the call site is unknown.
            guard lostEvents > 0, site <= lastSiteID else {
                throw .malformedRecord(
                    offset: offset, tag: TraceFormat.Tag.calledAt.rawValue, reason: "undefined call site \(site)")
            }
            return .calledAt(event: sequence - back, site: SourceSite(file: "?", line: 0))
        case .stopped(let derived, let source):
            return .stopped(derived: derived, source: source)
        }
    }

    /// The cause, or nil; a cause from before the trace's first event (a recording that started
    /// during a delivery) is dropped and counted in ``causesBeforeStart``.
    private func resolve(_ cause: CauseField) -> TraceCause? {
        resolve(back: cause.back, subscription: cause.subscription)
    }

    @inline(__always)
    private func resolve(back: UInt64, subscription: UInt64) -> TraceCause? {
        guard back != 0 else { return nil }
        guard back < sequence else {
            causesBeforeStart += 1
            return nil
        }
        return TraceCause(subscription: subscription, event: sequence - back)
    }

    private func defineString(_ text: String) {
        if let index = distinctStrings[text] {
            strings.append(strings[index])
        } else {
            distinctStrings[text] = strings.count
            strings.append(text)
        }
    }

    @inline(__always)
    private func checkString(_ id: UInt64, at offset: Int) throws(TraceReadError) {
        guard id < UInt64(strings.count) else { throw .unknownString(offset: offset, id: id) }
    }

    private func string(_ id: UInt64, at offset: Int) throws(TraceReadError) -> String {
        guard id < UInt64(strings.count) else { throw .unknownString(offset: offset, id: id) }
        return strings[Int(id)]
    }

    private func site(_ file: UInt64, _ line: UInt64, at offset: Int) throws(TraceReadError) -> SourceSite {
        SourceSite(file: try string(file, at: offset), line: UInt(truncatingIfNeeded: line))
    }

    /// Nanoseconds since the first clock record, from the latest clock record's anchor and rate.
    @inline(__always)
    private func time() -> UInt64 {
        guard let clock else { return 0 }
        let elapsedTicks = Double(Int64(bitPattern: ticks &- clock.ticks))
        let nanoseconds = clockNanoseconds + elapsedTicks * 1e9 / clockRate
        return nanoseconds > start ? UInt64(min(nanoseconds - start, 1.8e19)) : 0
    }

    private func cutShort(at offset: Int) {
        let total = bufferOffset + count
        ignoredBytes = total - offset
        warnings.append(
            TraceWarning(
                offset: offset,
                message:
                    "trace is cut short: the last \(total - offset) bytes hold an incomplete record and were ignored"
            ))
        finished = true
        isComplete = false
        closeSource()
    }

    private func finish(at offset: Int) {
        finished = true
        closeSource()
        if !isComplete {
            warnings.append(
                TraceWarning(
                    offset: offset,
                    message: "trace has no end record: the recording process was killed or is still running"))
        }
    }

    // MARK: - Input

    /// Makes at least `wanted` bytes available from `position`, unless the source ends first.
    @inline(__always)
    private func fill(atLeast wanted: Int) throws(TraceReadError) {
        // Hot path: the record is already in the buffer.
        guard count - position < wanted else { return }
        try refill(atLeast: wanted)
    }

    @inline(never)
    private func refill(atLeast wanted: Int) throws(TraceReadError) {
        guard !atEndOfSource, descriptor >= 0 else { return }
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
            let got = readBytes(descriptor, buffer.baseAddress! + count, room)
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

/// `read(2)`, out of the reader so that ``TraceReader/read(into:maximumEvents:)`` does not hide it.
private func readBytes(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
