import BindTraceFormat

#if Tracing
import CBindTrace

/// What the recording lock guards: the buffer being filled, the chunks waiting for the file, the
/// running captures, string ids, and which Outputs each sink has seen. No method does I/O.
struct RecorderState {
    /// A buffer is handed on when it holds this much.
    static let bufferThreshold = 64 * 1024
    /// Room past the threshold for the largest record (a string of at most 1 KiB).
    static let bufferCapacity = bufferThreshold + 16 * 1024
    /// Pending chunks past which the thread that recorded writes them itself.
    static let maximumPendingChunks = 8

    /// A full buffer waiting to be written to the file, and how many events it holds.
    struct Chunk {
        var bytes: [UInt8]
        var events: Int
    }

    let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: RecorderState.bufferCapacity)
    var count = 0
    var eventsInBuffer = 0
    var pendingChunks: [Chunk] = []

    var streamOpen = false
    /// Whether a file is being written (its descriptor, for a crash flush; -1 otherwise).
    var fileDescriptor: Int32 = -1
    /// The pattern the file was opened from, so a forked child opens its own.
    var filePattern: String?
    /// Bumped for each new stream and sink, so Outputs that already existed are announced again.
    var epoch: UInt32 = 0
    /// The epoch the stream began in: an Output announced since then was seen by some sink.
    var streamEpoch: UInt32 = 0
    var sequence: UInt64 = 0
    /// Causes before this event belong to a delivery that began before the newest sink joined.
    var firstJoinedEvent: UInt64 = 1
    var lastTicks: UInt64 = 0
    var lastThread: UInt32 = 0
    var threadCount: UInt32 = 0
    var eventsSinceClock = false
    var strings = TraceStrings()

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
            flush()
            header += strings.records
            joinNewSink()
        } else {
            openStream()
        }
        fileDescriptor = descriptor
        filePattern = pattern
        writeClock()
    }

    mutating func fileClosed() {
        fileDescriptor = -1
        filePattern = nil
        if captures.isEmpty { streamOpen = false }
    }

    /// Starts a capture. Captures may overlap (tests run in parallel): each gets the events from
    /// its own start, with every string and — by a new epoch — every Output it uses announced.
    mutating func beginCapture() -> Int {
        if !streamOpen { openStream() }
        flush()
        if capture == nil { capture = [] }
        let session = nextCapture
        nextCapture += 1
        captures[session] = (capture!.count, strings.records.count)
        joinNewSink()
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
            if fileDescriptor < 0 { streamOpen = false }
        }
        return bytes
    }

    private mutating func joinNewSink() {
        firstJoinedEvent = sequence + 1
        epoch &+= 1
        lastThread = 0
    }

    /// Starts a new stream: string ids, sequence numbers and announcements start over.
    private mutating func openStream() {
        count = 0
        eventsInBuffer = 0
        epoch &+= 1
        streamEpoch = epoch
        sequence = 0
        firstJoinedEvent = 1
        lastThread = 0
        strings.reset()
        streamOpen = true
        capture = nil
    }

    /// Whether an Output announced in `announced` was seen by a sink of the current stream.
    func wasSeenInStream(_ announced: UInt32) -> Bool {
        announced != 0 && announced &- streamEpoch <= epoch &- streamEpoch
    }

    /// Forgets everything but the ids (a forked child: the parent's events are the parent's).
    mutating func resetAfterFork() {
        count = 0
        eventsInBuffer = 0
        pendingChunks = []
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
        announce(output, preexisting: true, scope: 0, cause: bt_cause())
        for subscription in subscribers where subscription != skipped && subscription.pointee.announcedEpoch != epoch {
            writeBound(&subscription.pointee, of: output, preexisting: true, scope: 0, cause: bt_cause())
        }
    }

    mutating func announce(_ output: OutputTraceInfo, preexisting: Bool, scope: UInt64, cause: bt_cause) {
        guard streamOpen, output.announcedEpoch != epoch else { return }
        output.announcedEpoch = epoch
        let typeID = intern(output.valueType)
        let fileID = intern(output.file)
        let labelID = output.label.map { intern($0) } ?? 0
        let kind = BindTraceFormat.OutputKind(rawValue: output.kind.rawValue) ?? .output
        append(
            .outputCreated(
                output: output.id, kind: kind, valueType: typeID, file: fileID, line: UInt64(output.line),
                label: labelID, scope: scope, preexisting: preexisting, cause: causeField(cause)))
    }

    /// Writes the bind of `subscription` (given its id now if it has none) and marks it announced.
    @discardableResult
    mutating func writeBound(
        _ subscription: inout SubscriptionProbe, of output: OutputTraceInfo, preexisting: Bool,
        scope: UInt64, cause: bt_cause
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
            let field = causeField(cause)
            let outputID = output.id
            return appendInPlace(maximumLength: 92) { base, delta in
                TraceRecord.encodeBound(
                    at: base, delta: delta, subscription: id, output: outputID, file: fileID, line: line, flags: flags,
                    scope: scope, cause: field)
            }
        }
        let target = EventRecord.BoundTarget(type: intern(binder.type), identity: UInt64(binder.identity))
        return append(
            .bound(
                subscription: id, output: output.id, file: fileID, line: line, flags: flags, target: target,
                scope: scope, cause: causeField(cause)))
    }

    mutating func writeUnbound(
        _ subscription: inout SubscriptionProbe, of output: OutputTraceInfo, reason: UnbindReason,
        cause: bt_cause
    ) {
        if subscription.announcedEpoch != epoch {
            writeBound(&subscription, of: output, preexisting: true, scope: 0, cause: bt_cause())
        }
        let field = causeField(cause)
        let id = subscription.recordedID()
        appendInPlace(maximumLength: 52) { base, delta in
            TraceRecord.encodeUnbound(at: base, delta: delta, subscription: id, reason: reason, cause: field)
        }
    }

    /// The cause as the next event writes it: events back from it, or none when the cause is older
    /// than the newest sink (which could not resolve it).
    func causeField(_ cause: bt_cause) -> CauseField {
        let own = sequence + 1
        guard cause.event >= firstJoinedEvent, cause.event < own else { return .none }
        return CauseField(back: own - cause.event, subscription: cause.subscription)
    }

    // MARK: - Encoding

    /// Appends one event (a thread record first when the thread changed); returns its sequence number.
    @discardableResult
    mutating func append(_ event: EventRecord) -> UInt64 {
        // The tick delta takes at most 10 bytes, as the length bound of any delta allows for.
        appendInPlace(maximumLength: TraceRecord.event(delta: 0, event).maximumEncodedLength) { base, delta in
            TraceRecord.event(delta: delta, event).encode(at: base)
        }
    }

    /// Appends one event that `encode` writes in place (at most `maximumLength` bytes, given where
    /// and the tick delta), a thread record first when the thread changed; returns its sequence
    /// number. Every event but the plain update's fast path comes through here. A cause field must
    /// be made before this call: it counts back from the event this makes.
    @inline(__always) @discardableResult
    mutating func appendInPlace(maximumLength: Int, _ encode: (UnsafeMutablePointer<UInt8>, UInt64) -> Int) -> UInt64 {
        switchThreadIfNeeded()
        let now = bt_ticks()
        let delta = now > lastTicks ? now - lastTicks : 0
        if now > lastTicks { lastTicks = now }
        if count + maximumLength > Self.bufferCapacity { flush() }
        sequence += 1
        eventsSinceClock = true
        eventsInBuffer += 1
        count += encode(buffer + count, delta)
        if count >= Self.bufferThreshold { flush() }
        return sequence
    }

    /// Appends an update or fire without a preview of an Output this epoch has announced (the caller
    /// checked), from the thread of the previous event: the hot path, encoded in place. Nil when
    /// another thread recorded last or the buffer is full (then ``appendUpdate(of:fire:cause:)``).
    @inline(__always)
    mutating func appendPlainUpdate(of output: OutputTraceInfo, fire: Bool, cause: bt_cause) -> UInt64? {
        guard count < Self.bufferThreshold, lastThread != 0, bt_thread_slot()!.pointee == lastThread
        else { return nil }
        let now = bt_ticks()
        let delta = now > lastTicks ? now - lastTicks : 0
        if now > lastTicks { lastTicks = now }
        let field = causeField(cause)
        sequence += 1
        eventsSinceClock = true
        eventsInBuffer += 1
        count += TraceRecord.encodeUpdate(
            at: buffer + count, fire: fire, delta: delta, output: output.id, causeBack: field.back,
            causeSubscription: field.subscription)
        return sequence
    }

    /// Appends an update or fire without a preview of an Output this epoch has announced, when the
    /// fast path does not apply (another thread recorded last, or the buffer is full): encoded in
    /// place all the same, after the thread record.
    mutating func appendUpdate(of output: OutputTraceInfo, fire: Bool, cause: bt_cause) -> UInt64 {
        let field = causeField(cause)
        let id = output.id
        // Tag, length, and four varints of at most 10 bytes, and the empty preview.
        return appendInPlace(maximumLength: 43) { base, delta in
            TraceRecord.encodeUpdate(
                at: base, fire: fire, delta: delta, output: id, causeBack: field.back,
                causeSubscription: field.subscription)
        }
    }

    mutating func appendRecord(_ record: TraceRecord) {
        if count + record.maximumEncodedLength > Self.bufferCapacity { flush() }
        count += record.encode(at: buffer + count)
        if count >= Self.bufferThreshold { flush() }
    }

    private mutating func switchThreadIfNeeded() {
        let slot = bt_thread_slot()!
        var index = slot.pointee
        if index == 0 {
            threadCount += 1
            index = threadCount
            slot.pointee = index
        }
        guard index != lastThread else { return }
        lastThread = index
        // The name as it was at the thread's first event of this stream's strings.
        let cache = bt_thread_name_slot()!
        if cache.pointee.generation != strings.generation {
            cache.pointee = bt_thread_name_cache(
                generation: strings.generation, id: intern(Self.currentThreadName()))
        }
        appendRecord(.thread(index: UInt64(index), name: cache.pointee.id))
    }

    private static func currentThreadName() -> String {
        var name = [CChar](repeating: 0, count: 64)
        bt_thread_name(&name, Int32(name.count))
        return String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    mutating func writeClock() {
        eventsSinceClock = false
        let ticks = bt_ticks()
        // Readers restart their tick count at every clock record; so does the writer.
        lastTicks = ticks
        appendRecord(
            .clock(ticks: ticks, nanoseconds: bt_monotonic_ns(), ticksPerSecond: TraceLifecycle.ticksPerSecond))
    }

    /// Hands the buffer on: appended to the running captures, queued for the file. No I/O.
    mutating func flush() {
        guard count > 0 else { return }
        let bytes = UnsafeBufferPointer(start: buffer, count: count)
        if capture != nil { capture!.append(contentsOf: bytes) }
        if fileDescriptor >= 0 { pendingChunks.append(Chunk(bytes: Array(bytes), events: eventsInBuffer)) }
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
