import BindTraceFormat

#if Tracing
import CBindTrace

/// What the recording lock guards: the buffer being filled, the chunks waiting for the file, the
/// running captures, string ids, and which Outputs each sink has seen. No method does I/O (but
/// the crash flush's).
///
/// Every event takes its sequence number from the stream word (`bind_trace_stream_word`). The locked
/// events are encoded at once; updates recorded without the lock wait in their threads' rings, and
/// each locked event first merges the rings' records numbered before it, so the buffer always holds
/// events in sequence order (docs/trace-format.md, "Event records").
struct RecorderState {
    /// A buffer is handed on when it holds this much.
    static let bufferThreshold = 64 * 1024
    /// Room past the threshold for the largest record (a string of at most 1 KiB).
    static let bufferCapacity = bufferThreshold + 16 * 1024
    /// Pending chunks past which the thread that recorded writes them itself.
    static let maximumPendingChunks = 8

    /// A full buffer waiting to be written to the file (its `chunk` record first), its number in
    /// the file and how many events it holds. It stays in `pendingChunks` until it is wholly in the
    /// file, so a crash flush finds every chunk not yet written, and only those.
    struct Chunk {
        var bytes: [UInt8]
        var events: Int
        var number: UInt64
    }

    /// On whole cache lines, as the state itself (``TraceRecorder/state``).
    let buffer = TraceRecorder.cacheLineAligned(UInt8.self, count: RecorderState.bufferCapacity)
    var count = 0
    var eventsInBuffer = 0
    var pendingChunks: [Chunk] = []
    /// The first of `pendingChunks` a writer has taken and is writing: still queued (for a crash
    /// flush), but not a backlog the recording thread should write itself.
    var chunksInFlight = 0
    /// Chunks no writer has taken yet.
    var backlog: Int { pendingChunks.count - chunksInFlight }
    /// The number the next chunk for the file takes (1, 2, … in each file).
    var nextChunk: UInt64 = 1
    /// The last chunk wholly in the file, and the file's length with it: what a crash flush keeps
    /// (a write it interrupted is cut back to here) and what it writes after (chunks numbered higher).
    var committedChunk: UInt64 = 0
    var committedBytes = 0
    /// The file's first event in the stream's numbering: chunk records count from it.
    var fileFirstEvent: UInt64 = 1
    /// The sequence number of the buffer's first event (meaningless while it holds none).
    var firstInBuffer: UInt64 = 0
    /// Room for the `chunk` record the crash flush writes before the buffer (it must not allocate).
    let chunkRecordScratch = TraceRecorder.cacheLineAligned(UInt8.self, count: 64)

    var streamOpen = false
    /// Whether a file is being written (its descriptor, for a crash flush; -1 otherwise).
    var fileDescriptor: Int32 = -1
    /// The pattern the file was opened from, so a forked child opens its own.
    var filePattern: String?
    /// Bumped for each new stream and sink, so Outputs that already existed are announced again.
    var epoch: UInt32 = 0
    /// The epoch the stream began in: an Output announced since then was seen by some sink.
    var streamEpoch: UInt32 = 0
    /// The sequence number of the last event in the buffer (or handed on).
    var lastWritten: UInt64 = 0
    /// The stream's first event: a cause before it is one a thread still carries from an earlier
    /// stream, which no sink of this one can resolve.
    var streamFirstEvent: UInt64 = 1
    var lastTicks: UInt64 = 0
    var lastThread: UInt32 = 0
    var threadCount: UInt32 = 0
    var eventsSinceClock = false
    var strings = TraceStrings()
    /// Each thread's name in the current strings, distinct from the others'.
    var threadNames = ThreadNames()
    /// Set only by the crash flush: a full buffer is written to this descriptor at once, since
    /// handing it on allocates.
    var crashDescriptor: Int32 = -1

    /// The events of the stream since the oldest running capture began (nil when none runs).
    var capture: [UInt8]?
    /// Where each running capture starts in `capture`, and how many bytes of string records it
    /// takes as its prefix: the strings defined before it began.
    var captures: [Int: (offset: Int, strings: Int)] = [:]
    var nextCapture = 1

    var isRecording: Bool { fileDescriptor >= 0 || !captures.isEmpty }

    // MARK: - Sinks

    /// A file joins: a new stream if none is open, else the running one (after its strings).
    mutating func openFile(pattern: String, descriptor: Int32, header: inout [UInt8]) {
        if streamOpen {
            joinNewSink()
            header += strings.records
        } else {
            openStream()
        }
        fileDescriptor = descriptor
        filePattern = pattern
        fileFirstEvent = lastWritten &+ 1
        nextChunk = 1
        committedChunk = 0
        committedBytes = 0
        writeClock()
    }

    /// `chunk` was written to the file, which is now `bytes` long: a crash flush neither writes it
    /// again nor cuts it off.
    mutating func committed(chunk: UInt64, bytes: Int) {
        if chunk > committedChunk { committedChunk = chunk }
        committedBytes = bytes
        pendingChunks.removeAll { $0.number <= committedChunk }
    }

    /// The file leaves the stream: everything recorded so far is flushed, and the chunks still
    /// owed to the file are returned (to be written before it closes); none is queued after.
    /// `keepingStream`: another file takes its place at once (``openFile(pattern:descriptor:header:)``
    /// next, under the same hold of the lock), so the stream stays open for it.
    mutating func fileClosed(keepingStream: Bool = false) -> [Chunk] {
        flush()
        let owed = pendingChunks
        pendingChunks = []
        chunksInFlight = 0
        fileDescriptor = -1
        filePattern = nil
        if captures.isEmpty && !keepingStream { closeStream() }
        return owed
    }

    /// Starts a capture. Captures may overlap (tests run in parallel): each gets the events from
    /// its own start, with every string and — by a new epoch — every Output it uses announced.
    mutating func beginCapture() -> Int {
        if !streamOpen { openStream() }
        // Joined first: the updates numbered before the join are merged and handed on before
        // the capture's start is taken.
        joinNewSink()
        if capture == nil { capture = [] }
        let session = nextCapture
        nextCapture += 1
        captures[session] = (capture!.count, strings.records.count)
        writeClock()
        return session
    }

    /// Ends a capture and returns its trace: header, the strings defined before it began, its
    /// events, and the end record a stopped recording writes.
    mutating func endCapture(_ session: Int) -> [UInt8] {
        flush()
        guard let start = captures.removeValue(forKey: session), let events = capture else { return [] }
        var bytes = TraceFormat.header
        bytes.reserveCapacity(bytes.count + start.strings + events.count - start.offset + 2)
        bytes += strings.records[..<start.strings]
        bytes += events[start.offset...]
        TraceRecord.end.encode(into: &bytes)
        if let oldest = captures.values.map(\.offset).min() {
            // Drop what no running capture needs any more.
            if oldest > 0 {
                capture!.removeFirst(oldest)
                for (key, value) in captures { captures[key] = (value.offset - oldest, value.strings) }
            }
        } else {
            capture = nil
            if fileDescriptor < 0 { closeStream() }
        }
        return bytes
    }

    /// A new sink joins the open stream: a new epoch, so every Output it sees is announced to it.
    /// The updates numbered under the old epoch are merged and handed on first: they precede it.
    private mutating func joinNewSink() {
        epoch = Self.epoch(after: epoch)
        let last = bind_trace_stream_set_epoch(epoch)
        mergeRings(through: last)
        handOn()
        lastThread = 0
    }

    /// Starts a new stream: string ids and announcements start over. Sequence numbers go on from
    /// the last stream's (a reader counts from its first event, and causes count back), so a cause
    /// a thread still carries from an earlier stream is told apart and dropped.
    private mutating func openStream() {
        count = 0
        eventsInBuffer = 0
        epoch = Self.epoch(after: epoch)
        streamEpoch = epoch
        // The rings are empty: the last stream's close merged them, and took no update since.
        lastWritten = bind_trace_stream_set_epoch(epoch)
        streamFirstEvent = lastWritten + 1
        lastThread = 0
        strings.reset()
        streamOpen = true
        capture = nil
    }

    /// Ends the lock-free path before the process ends (a signal): the stream's epoch becomes 0, so
    /// every later update takes the locked path, and every update numbered until then is merged.
    /// (Closing the stream merges what the rings hold and drops it with the buffer: an update taken
    /// between the file's last flush and that close would be made and never written.)
    mutating func stopTakingUpdates() {
        guard streamOpen else { return }
        mergeRings(through: bind_trace_stream_set_epoch(0))
    }

    /// The last sink left: no update is taken any more, and those still in rings are dropped with
    /// the buffer (the sinks have what they wanted).
    private mutating func closeStream() {
        mergeRings(through: bind_trace_stream_set_epoch(0))
        count = 0
        eventsInBuffer = 0
        streamOpen = false
    }

    /// Epochs count in the stream word's 20 bits, never 0 (which means no stream).
    static func epoch(after epoch: UInt32) -> UInt32 {
        let next = (epoch &+ 1) & UInt32(BIND_TRACE_EPOCH_MASK)
        return next == 0 ? 1 : next
    }

    /// Whether an Output announced in `announced` was seen by a sink of the current stream.
    func wasSeenInStream(_ announced: UInt32) -> Bool {
        let mask = UInt32(BIND_TRACE_EPOCH_MASK)
        return announced != 0 && (announced &- streamEpoch) & mask <= (epoch &- streamEpoch) & mask
    }

    /// Forgets everything but the ids (a forked child: the parent's events are the parent's).
    mutating func resetAfterFork() {
        bind_trace_rings_reset_after_fork()
        lastWritten = bind_trace_stream_set_epoch(0)
        count = 0
        eventsInBuffer = 0
        pendingChunks = []
        chunksInFlight = 0
        streamOpen = false
        fileDescriptor = -1
        capture = nil
        captures = [:]
        strings.reset()
        lastThread = 0
    }

    // MARK: - Announcing

    /// Writes the creation of `output` once per epoch; an Output that existed before the recording
    /// started is marked preexisting, and so are the subscriptions it already had.
    mutating func announce(
        _ output: OutputTraceInfo, subscribers: SubscriberProbes,
        except skipped: UnsafeMutablePointer<SubscriptionProbe>?
    ) {
        // Once an Output is announced, so is every subscription it has: those bound later are
        // written as they are bound. So the walk happens once per Output and recording.
        guard output.announcedEpoch != epoch else { return }
        announce(output, preexisting: true, scope: 0, cause: bind_trace_cause())
        for subscription in subscribers where subscription != skipped && subscription.pointee.announcedEpoch != epoch {
            writeBound(&subscription.pointee, of: output, preexisting: true, scope: 0, cause: bind_trace_cause())
        }
    }

    mutating func announce(_ output: OutputTraceInfo, preexisting: Bool, scope: UInt64, cause: bind_trace_cause) {
        guard streamOpen, output.announcedEpoch != epoch else { return }
        let typeID = intern(output.valueType)
        let fileID = intern(output.file)
        let labelID = output.label.map { intern($0) } ?? 0
        let kind = BindTraceFormat.OutputKind(rawValue: output.kind.rawValue) ?? .output
        append(cause: cause) { field in
            .outputCreated(
                output: output.id, kind: kind, valueType: typeID, file: fileID, line: UInt64(output.line),
                label: labelID, scope: scope, preexisting: preexisting, cause: field)
        }
        // Marked once written: a lock-free update that sees the mark takes a later number.
        output.announcedEpoch = epoch
        // A new recording has seen no call site of it yet.
        output.lastCallFile = 0
    }

    /// Writes the bind of `subscription` (given its id now if it has none) and marks it announced.
    @discardableResult
    mutating func writeBound(
        _ subscription: inout SubscriptionProbe, of output: OutputTraceInfo, preexisting: Bool,
        scope: UInt64, cause: bind_trace_cause
    ) -> UInt64 {
        subscription.announcedEpoch = epoch
        let id = subscription.recordedID()
        let fileID = intern(subscription.file)
        let line = UInt64(subscription.line)
        var flags: UInt64 = preexisting ? TraceFormat.BindFlag.preexisting : 0
        let binder: BinderTarget?
        switch subscription.origin {
        case .closure: binder = nil
        case .operator:
            binder = nil
            flags |= TraceFormat.BindFlag.internal
        case .binder(let target): binder = target.takeUnretainedValue()
        }
        guard let binder else {
            let outputID = output.id
            return appendInPlace(maximumLength: 92, cause: cause) { base, delta, field in
                RecordEncoder.encodeBound(
                    at: base, delta: delta, subscription: id, output: outputID, file: fileID, line: line, flags: flags,
                    scope: scope, cause: field)
            }
        }
        let target = EventRecord.BoundTarget(type: intern(binder.type), identity: UInt64(binder.identity))
        return append(cause: cause) { field in
            .bound(
                subscription: id, output: output.id, file: fileID, line: line, flags: flags, target: target,
                scope: scope, cause: field)
        }
    }

    /// Writes what the closure just bound as `subscription` captures, right after its bind. The
    /// Outputs its captures hold were announced under their own locks as they were found; again
    /// here only if a sink joined in between (then without their subscribers).
    mutating func writeCaptured(subscription: UInt64, _ captures: [CaptureFact]) {
        var fields: [CaptureField] = []
        fields.reserveCapacity(captures.count)
        for capture in captures {
            var holds: [CaptureField.HeldOutput] = []
            for held in capture.holds {
                announce(held.output, preexisting: true, scope: 0, cause: bind_trace_cause())
                holds.append(
                    CaptureField.HeldOutput(path: held.path.isEmpty ? 0 : intern(held.path), output: held.output.id))
            }
            fields.append(
                CaptureField(
                    strength: capture.strength, type: intern(capture.typeName), identity: UInt64(capture.identity),
                    holds: holds))
        }
        append(.captured(subscription: subscription, captures: fields))
    }

    mutating func writeUnbound(
        _ subscription: inout SubscriptionProbe, of output: OutputTraceInfo, reason: UnbindReason,
        cause: bind_trace_cause
    ) {
        if subscription.announcedEpoch != epoch {
            writeBound(&subscription, of: output, preexisting: true, scope: 0, cause: bind_trace_cause())
        }
        let id = subscription.recordedID()
        appendInPlace(maximumLength: 52, cause: cause) { base, delta, field in
            RecordEncoder.encodeUnbound(at: base, delta: delta, subscription: id, reason: reason, cause: field)
        }
    }

    /// The cause as the event numbered `own` writes it: events back from it, or none when the
    /// cause is older than the stream. A cause older than a sink that joined later is kept: the
    /// sinks share the stream's bytes, and the older ones resolve it (a reader drops a cause from
    /// before its first event; docs/trace-format.md, "Captures").
    func causeField(_ cause: bind_trace_cause, own: UInt64) -> CauseField {
        let back = causeBack(cause.event, own: own)
        return CauseField(back: back, subscription: back == 0 ? 0 : cause.subscription)
    }

    /// How many events back from `own` its cause `event` is (0: none; see ``causeField(_:own:)``).
    @inline(__always)
    func causeBack(_ event: UInt64, own: UInt64) -> UInt64 {
        event >= streamFirstEvent && event < own ? own - event : 0
    }

    // MARK: - Encoding

    /// Appends one event that has no cause field; returns its sequence number.
    @discardableResult
    mutating func append(_ event: EventRecord) -> UInt64 { append { _ in event } }

    /// Appends one event that `make` builds given its cause field; returns its sequence number.
    @discardableResult
    mutating func append(cause: bind_trace_cause = bind_trace_cause(), _ make: (CauseField) -> EventRecord) -> UInt64 {
        let own = takeSequence()
        let event = make(causeField(cause, own: own))
        // The tick delta takes at most 10 bytes, as the length bound of any delta allows for.
        write(own, maximumLength: TraceRecord.event(delta: 0, event).maximumEncodedLength) { base, delta in
            TraceRecord.event(delta: delta, event).encode(at: base)
        }
        return own
    }

    /// Appends one event that `encode` writes in place (at most `maximumLength` bytes, given where,
    /// the tick delta and the cause field); returns its sequence number. Every locked event but
    /// those built as an `EventRecord` comes through here.
    @inline(__always) @discardableResult
    mutating func appendInPlace(
        maximumLength: Int, cause: bind_trace_cause, _ encode: (UnsafeMutablePointer<UInt8>, UInt64, CauseField) -> Int
    ) -> UInt64 {
        let own = takeSequence()
        let field = causeField(cause, own: own)
        write(own, maximumLength: maximumLength) { base, delta in encode(base, delta, field) }
        return own
    }

    /// Takes the next sequence number for a locked event, after merging the updates the rings
    /// hold with smaller numbers.
    @inline(__always)
    mutating func takeSequence() -> UInt64 {
        let own = bind_trace_stream_take()
        if own != lastWritten &+ 1 { mergeRings(through: own - 1) }
        return own
    }

    /// The tick delta of an event stamped `ticks` after the last time written, `last`, which it
    /// becomes. A time before it (another core's clock, or a thread that read its clock late)
    /// counts as it: times never go back in a trace.
    @inline(__always)
    static func tickDelta(from last: inout UInt64, to ticks: UInt64) -> UInt64 {
        guard ticks > last else { return 0 }
        defer { last = ticks }
        return ticks &- last
    }

    /// Writes the event numbered `own` on the calling thread (a thread record first when the
    /// thread changed).
    @inline(__always)
    private mutating func write(
        _ own: UInt64, maximumLength: Int, _ encode: (UnsafeMutablePointer<UInt8>, UInt64) -> Int
    ) {
        switchThread(to: currentRing())
        let delta = Self.tickDelta(from: &lastTicks, to: bind_trace_ticks())
        if count + maximumLength > Self.bufferCapacity { handOn() }
        lastWritten = own
        eventsSinceClock = true
        if eventsInBuffer == 0 { firstInBuffer = own }
        eventsInBuffer += 1
        count += encode(buffer + count, delta)
        if count >= Self.bufferThreshold { handOn() }
    }

    /// Appends an update or fire without a preview of an Output this epoch has announced (the
    /// caller checked), when the lock-free path did not take it (no ring yet, or the ring full).
    mutating func appendUpdate(of output: OutputTraceInfo, fire: Bool, cause: bind_trace_cause) -> UInt64 {
        let id = output.id
        // Tag, length, and four varints of at most 10 bytes, and the empty preview.
        return appendInPlace(maximumLength: 43, cause: cause) { base, delta, field in
            RecordEncoder.encodeUpdate(
                at: base, fire: fire, delta: delta, output: id, causeBack: field.back,
                causeSubscription: field.subscription)
        }
    }

    /// Appends a `resumed` event: the delivery `delivery` goes on inside `enclosing`. Nothing when
    /// the delivery began before the stream (a reader could not name it).
    mutating func appendResumed(_ delivery: bind_trace_cause, inside enclosing: bind_trace_cause) {
        guard causeBack(delivery.event, own: bind_trace_stream_last() &+ 1) != 0 else { return }
        let own = takeSequence()
        let event = EventRecord.resumed(
            delivery: causeField(delivery, own: own), cause: causeField(enclosing, own: own))
        write(own, maximumLength: TraceRecord.event(delta: 0, event).maximumEncodedLength) { base, delta in
            TraceRecord.event(delta: delta, event).encode(at: base)
        }
    }

    /// Encodes, in sequence order, the updates the threads' rings hold up to number `last` (every
    /// number after `lastWritten` up to it is an update in some ring: the locked events are
    /// written as they take theirs). A number taken but not yet written is waited for; the crash
    /// flush waits a bounded time, then writes one `lost` record for the numbers no ring holds (its
    /// thread stopped between taking and writing: the one the signal interrupted, say) and goes
    /// on with the next number a ring holds.
    mutating func mergeRings(through last: UInt64) {
        let patience: UInt64 = crashDescriptor >= 0 ? 10_000 : 0
        while lastWritten < last {
            var found: UnsafeMutablePointer<bind_trace_ring>?
            guard let record = bind_trace_rings_find(lastWritten + 1, &found, patience), let ring = found else {
                let next = bind_trace_rings_oldest_pending()
                let resume = next > lastWritten && next <= last ? next : last &+ 1
                if resume > lastWritten + 1 { appendRecord(.lost(count: resume - lastWritten - 1)) }
                lastWritten = resume - 1
                continue
            }
            switchThread(to: ring)
            mergeRun(of: ring, from: record, through: last)
        }
    }

    /// Encodes the run of consecutive numbers `ring` holds from `first` on (its thread recorded
    /// them in a row), up to `last`: the loop every recorded update goes through once. The buffer's
    /// bookkeeping stays in locals for a stretch of records and is stored once at its end: stored
    /// per record, it was a third of the merge's instructions. A stretch ends below the buffer's
    /// threshold (which leaves room for a record of at most 43 bytes), so it never overflows; a
    /// crash flush that finds the lock held sees the state of the last whole stretch.
    @inline(__always)
    private mutating func mergeRun(
        of ring: UnsafeMutablePointer<bind_trace_ring>, from first: UnsafePointer<bind_trace_update_record>,
        through last: UInt64
    ) {
        var record = first
        while true {
            var count = self.count
            var lastTicks = self.lastTicks
            var own = lastWritten
            var merged = 0
            if eventsInBuffer == 0 { firstInBuffer = record.pointee.sequence }
            while true {
                let update = record.pointee
                own = update.sequence
                let delta = Self.tickDelta(from: &lastTicks, to: update.ticks)
                count &+= RecordEncoder.encodeUpdate(
                    at: buffer + count, fire: update.fire != 0, delta: delta, output: update.output,
                    causeBack: causeBack(update.cause_event, own: own), causeSubscription: update.cause_subscription)
                merged &+= 1
                bind_trace_ring_consume(ring)
                guard own < last, count < Self.bufferThreshold, let next = bind_trace_ring_oldest(ring, own &+ 1) else {
                    break
                }
                record = next
            }
            self.count = count
            self.lastTicks = lastTicks
            lastWritten = own
            eventsInBuffer += merged
            eventsSinceClock = true
            if count >= Self.bufferThreshold { handOn() }
            guard own < last, let next = bind_trace_ring_oldest(ring, own &+ 1) else { return }
            record = next
        }
    }

    mutating func appendRecord(_ record: TraceRecord) {
        if count + record.maximumEncodedLength > Self.bufferCapacity { handOn() }
        count += record.encode(at: buffer + count)
        if count >= Self.bufferThreshold { handOn() }
    }

    /// The calling thread's ring, claimed (and numbered) on its first event.
    private mutating func currentRing() -> UnsafeMutablePointer<bind_trace_ring>? {
        if let ring = bind_trace_ring_current() { return ring }
        guard let ring = bind_trace_ring_claim() else { return nil }
        threadCount += 1
        ring.pointee.thread = threadCount
        return ring
    }

    /// Writes a thread record when the next event's thread is not the last one's. A thread's name
    /// is the one it had at its first event of this stream's strings.
    private mutating func switchThread(to ring: UnsafeMutablePointer<bind_trace_ring>?) {
        guard let ring, ring.pointee.thread != lastThread else { return }
        lastThread = ring.pointee.thread
        if ring.pointee.name_generation != strings.generation {
            if crashDescriptor >= 0 {
                // The crash flush looks nothing up and interns nothing (a new string allocates):
                // the thread goes unnamed.
                ring.pointee.name_id = 0
            } else {
                if ring == bind_trace_ring_current() { bind_trace_ring_read_name(ring) }
                let name = threadNames.distinct(
                    Self.name(of: ring), thread: ring.pointee.thread, generation: strings.generation)
                ring.pointee.name_id = intern(name)
                ring.pointee.name_generation = strings.generation
            }
        }
        appendRecord(.thread(index: UInt64(ring.pointee.thread), name: ring.pointee.name_id))
    }

    private static func name(of ring: UnsafeMutablePointer<bind_trace_ring>) -> String {
        let name = UnsafeRawPointer(bind_trace_ring_name(ring)!)
        let bytes = UnsafeRawBufferPointer(start: name, count: Int(BIND_TRACE_THREAD_NAME_LENGTH))
        return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }

    mutating func writeClock() {
        eventsSinceClock = false
        let ticks = bind_trace_ticks()
        // Readers restart their tick count at every clock record; so does the writer.
        lastTicks = ticks
        appendRecord(
            .clock(ticks: ticks, nanoseconds: bind_trace_monotonic_ns(), ticksPerSecond: TraceLifecycle.ticksPerSecond))
    }

    /// Merges the rings up to the last number taken, then hands the buffer on. No I/O.
    mutating func flush() {
        if streamOpen { mergeRings(through: bind_trace_stream_last()) }
        handOn()
    }

    /// Hands the buffer on: appended to the running captures, queued for the file as a numbered
    /// chunk. No I/O (but in the crash flush, which writes it).
    mutating func handOn() {
        guard count > 0 else { return }
        let bytes = UnsafeBufferPointer(start: buffer, count: count)
        let chunk = TraceRecord.chunk(
            number: nextChunk,
            firstEvent: (eventsInBuffer > 0 ? firstInBuffer : lastWritten &+ 1) &- fileFirstEvent &+ 1,
            bytes: UInt64(count))
        if crashDescriptor >= 0 {
            // The chunk record is encoded in memory that exists already: nothing allocates here.
            let length = chunk.encode(at: chunkRecordScratch)
            if TraceFile.writeAll(crashDescriptor, UnsafeRawBufferPointer(start: chunkRecordScratch, count: length)),
                TraceFile.writeAll(crashDescriptor, UnsafeRawBufferPointer(bytes))
            {
                committedChunk = nextChunk
            }
            nextChunk += 1
        } else {
            if capture != nil { capture!.append(contentsOf: bytes) }
            if fileDescriptor >= 0 {
                var chunkBytes: [UInt8] = []
                chunkBytes.reserveCapacity(count + 32)
                chunk.encode(into: &chunkBytes)
                chunkBytes.append(contentsOf: bytes)
                pendingChunks.append(Chunk(bytes: chunkBytes, events: eventsInBuffer, number: nextChunk))
                nextChunk += 1
            }
        }
        count = 0
        eventsInBuffer = 0
    }

    // MARK: - Strings

    mutating func intern(_ file: StaticString) -> UInt64 {
        if let id = strings.recentID(of: file) { return id }
        var defined: TraceRecord?
        let id = strings.id(of: file) { defined = $0 }
        if let defined { appendRecord(defined) }
        return id
    }

    /// Writes where the root update or fire numbered `event` was called: the site defined first if
    /// this stream has not seen it, then a `calledAt` event referring to it.
    mutating func appendCalledAt(event: UInt64, file: StaticString, line: UInt) {
        let fileID = intern(file)
        var defined: TraceRecord?
        let site = strings.siteID(file: fileID, line: UInt64(line)) { defined = $0 }
        if let defined { appendRecord(defined) }
        let own = takeSequence()
        // Tag, length and three varints of at most 10 bytes: written in place, like the hot events.
        write(own, maximumLength: 32) { base, delta in
            base[0] = TraceFormat.Tag.calledAt.rawValue
            var count = RecordEncoder.writeVarint(delta, at: base, 2)
            count = RecordEncoder.writeVarint(own &- event, at: base, count)
            count = RecordEncoder.writeVarint(site, at: base, count)
            base[1] = UInt8(count - 2)
            return count
        }
    }

    mutating func intern(_ type: Any.Type) -> UInt64 {
        var defined: TraceRecord?
        let id = strings.id(of: type) { defined = $0 }
        if let defined { appendRecord(defined) }
        return id
    }

    mutating func intern(_ text: String) -> UInt64 {
        var defined: TraceRecord?
        let id = strings.id(of: text) { defined = $0 }
        if let defined { appendRecord(defined) }
        return id
    }
}
#endif
