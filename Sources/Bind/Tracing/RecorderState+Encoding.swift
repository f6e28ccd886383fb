// The recorder's state, encoding: sequence numbers, causes, ticks and threads, the rings merged in
// order, chunks handed on, and the strings each event refers to.
import BindTraceFormat

#if Tracing
import CBindTrace

extension RecorderState {
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
