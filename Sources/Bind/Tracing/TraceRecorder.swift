#if Tracing
import CBindTrace
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Encodes events into one process-wide buffer and writes it to the trace file and to captures.
///
/// One lock orders every event: sequence numbers are implicit (the order of event records), so the
/// file is already in global order and a reader streams it without sorting. Records are appended to
/// a 64 KB buffer that is written out when full, every 100 ms by a flusher thread, and at exit —
/// never dropped: a full buffer is written by the thread that filled it. The lock is a leaf: the
/// recorder never calls back into Bind or user code while holding it.
@usableFromInline
final class TraceRecorder: @unchecked Sendable {
    static let shared = TraceRecorder()

    private static let bufferThreshold = 64 * 1024
    /// Room for the largest record (strings are capped at 1 KB) past the threshold.
    private static let bufferCapacity = bufferThreshold + 16 * 1024

    /// What every event touches, behind a pointer: no retain of the recorder and no exclusivity
    /// check on the hot path (see `updated`). Guarded by `lock`, like everything below.
    struct HotState {
        var count = 0
        var streamOpen = false
        /// Bumped for each new stream and capture, so Outputs that already existed are announced again.
        var epoch: UInt32 = 0
        var sequence: UInt64 = 0
        /// Causes before this event belong to a delivery that began before the newest sink joined
        /// the stream (a capture or a file): they are written as "no cause", which every sink can read.
        var firstJoinedEvent: UInt64 = 1
        var lastTicks: UInt64 = 0
        var lastThread: UInt32 = 0
        var eventsSinceClock = false
    }

    /// Allocated once for the process and never freed, like the recorder.
    private nonisolated(unsafe) static let hot: UnsafeMutablePointer<HotState> = {
        let hot = UnsafeMutablePointer<HotState>.allocate(capacity: 1)
        hot.initialize(to: HotState())
        return hot
    }()
    private nonisolated(unsafe) static let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: bufferCapacity)

    private let lock = SpinLock()
    private var buffer: UnsafeMutablePointer<UInt8> { Self.buffer }
    private var count: Int {
        get { Self.hot.pointee.count }
        set { Self.hot.pointee.count = newValue }
    }
    private var streamOpen: Bool {
        get { Self.hot.pointee.streamOpen }
        set { Self.hot.pointee.streamOpen = newValue }
    }
    private var epoch: UInt32 {
        get { Self.hot.pointee.epoch }
        set { Self.hot.pointee.epoch = newValue }
    }
    private var sequence: UInt64 {
        get { Self.hot.pointee.sequence }
        set { Self.hot.pointee.sequence = newValue }
    }
    private var firstJoinedEvent: UInt64 {
        get { Self.hot.pointee.firstJoinedEvent }
        set { Self.hot.pointee.firstJoinedEvent = newValue }
    }
    private var lastTicks: UInt64 {
        get { Self.hot.pointee.lastTicks }
        set { Self.hot.pointee.lastTicks = newValue }
    }
    private var lastThread: UInt32 {
        get { Self.hot.pointee.lastThread }
        set { Self.hot.pointee.lastThread = newValue }
    }
    private var eventsSinceClock: Bool {
        get { Self.hot.pointee.eventsSinceClock }
        set { Self.hot.pointee.eventsSinceClock = newValue }
    }
    private var fileDescriptor: Int32 = -1
    private var filePath = ""
    /// The events of the stream since the oldest running capture began (nil when none runs).
    private var capture: [UInt8]?
    /// Where each running capture starts in `capture`, and how many bytes of `stringRecords` it
    /// takes as its prefix: the strings defined before it began.
    private var captures: [Int: (offset: Int, strings: Int)] = [:]
    private var nextCapture = 1
    private var captureCount: Int { captures.count }
    private var threadCount: UInt32 = 0
    private var fileStrings: [UInt: UInt64] = [:]
    private var typeStrings: [ObjectIdentifier: UInt64] = [:]
    private var textStrings: [String: UInt64] = [:]
    private var nextString: UInt64 = 1
    /// Every string record of the stream, so a capture that starts mid-stream can define them.
    private var stringRecords: [UInt8] = []
    private var flusherStarted = false
    private var exitHookInstalled = false

    private init() {
        if let path = bt_autostart_path() {
            let path = String(cString: path)
            do {
                try lock.withLock { try openFile(path: path) }
            } catch {
                Self.printError("bind-trace: \(error)")
                bt_set_recording(false)
            }
        }
    }

    // MARK: - Starting and stopping

    static func startFile(path: String) throws {
        try shared.lock.withLock { try shared.openFile(path: path) }
    }

    static func stop() {
        shared.lock.withLock { shared.closeFile() }
    }

    /// Starts a capture. Captures may overlap (tests run in parallel): each gets the events from
    /// its own start, with every string and — by a new epoch — every Output it uses announced.
    static func beginCapture() -> Int {
        let recorder = shared
        return recorder.lock.withLock {
            if !recorder.streamOpen { recorder.openStream() }
            recorder.flush()
            if recorder.capture == nil { recorder.capture = [] }
            let session = recorder.nextCapture
            recorder.nextCapture += 1
            recorder.captures[session] = (recorder.capture!.count, recorder.stringRecords.count)
            recorder.firstJoinedEvent = recorder.sequence + 1
            recorder.epoch &+= 1
            recorder.lastThread = 0
            recorder.writeClock()
            bt_set_recording(true)
            return session
        }
    }

    /// Ends a capture and returns its trace: header, the strings defined before it began, its
    /// events, and the end record a stopped recording writes.
    static func endCapture(_ session: Int) -> [UInt8] {
        let recorder = shared
        return recorder.lock.withLock {
            recorder.flush()
            guard let start = recorder.captures.removeValue(forKey: session), let capture = recorder.capture else {
                return []
            }
            var bytes = TraceFormat.header
            bytes.reserveCapacity(TraceFormat.header.count + start.strings + capture.count - start.offset + 2)
            bytes += recorder.stringRecords[..<start.strings]
            bytes += capture[start.offset...]
            bytes += [TraceFormat.Tag.end.rawValue, 0]
            if let oldest = recorder.captures.values.map(\.offset).min() {
                // Drop what no running capture needs any more.
                if oldest > 0 {
                    recorder.capture!.removeFirst(oldest)
                    for (key, value) in recorder.captures {
                        recorder.captures[key] = (value.offset - oldest, value.strings)
                    }
                }
            } else {
                recorder.capture = nil
                if recorder.fileDescriptor < 0 { recorder.streamOpen = false }
                bt_set_recording(recorder.fileDescriptor >= 0)
            }
            return bytes
        }
    }

    private func openFile(path: String) throws {
        closeFile()
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw TraceRecordingError(path: path, reason: String(cString: strerror(errno)))
        }
        if streamOpen {
            // A capture is running: the file joins its stream, with every string defined so far.
            flush()
            fileDescriptor = descriptor
            filePath = path
            writeToFile(TraceFormat.header + stringRecords)
            firstJoinedEvent = sequence + 1
            epoch &+= 1
            lastThread = 0
        } else {
            fileDescriptor = descriptor
            filePath = path
            openStream()
            writeRaw(TraceFormat.header)
        }
        writeClock()
        flush()
        bt_set_recording(true)
        startFlusher()
        installExitHook()
    }

    private func closeFile() {
        guard fileDescriptor >= 0 else { return }
        flush()
        // The end record goes to the file alone: a capture sharing the stream goes on.
        writeToFile([TraceFormat.Tag.end.rawValue, 0])
        close(fileDescriptor)
        fileDescriptor = -1
        if captureCount == 0 { streamOpen = false }
        bt_set_recording(captureCount > 0)
    }

    /// Starts a new stream: string ids, sequence numbers and announcements start over.
    private func openStream() {
        count = 0
        epoch &+= 1
        sequence = 0
        firstJoinedEvent = 1
        lastThread = 0
        fileStrings = [:]
        typeStrings = [:]
        textStrings = [:]
        nextString = 1
        stringRecords = []
        streamOpen = true
        if fileDescriptor < 0 { capture = nil }
    }

    private func startFlusher() {
        guard !flusherStarted else { return }
        flusherStarted = true
        var thread = pthread_t()
        _ = pthread_create(&thread, nil, { _ in
            let recorder = TraceRecorder.shared
            while true {
                usleep(100_000)
                recorder.lock.withLock {
                    if recorder.eventsSinceClock { recorder.writeClock() }
                    recorder.flush()
                }
            }
        }, nil)
        pthread_detach(thread)
    }

    private func installExitHook() {
        guard !exitHookInstalled else { return }
        exitHookInstalled = true
        atexit { TraceRecorder.stop() }
    }

    // MARK: - Events (each returns its sequence number, 0 when nothing was recorded)

    static func outputCreated(_ output: OutputTraceInfo) {
        let scope = BindTrace.currentScope
        let cause = TraceCause.current
        shared.lock.withLock { shared.announce(output, preexisting: false, scope: scope, cause: cause) }
    }

    static func bound<Siblings: Sequence<SubscriptionTraceInfo>>(
        _ subscription: SubscriptionTraceInfo, siblings: Siblings
    ) -> UInt64 {
        let scope = BindTrace.currentScope
        let cause = TraceCause.current
        let recorder = shared
        return recorder.lock.withLock {
            guard recorder.streamOpen else { return 0 }
            recorder.announce(subscription.output, subscribers: siblings, except: subscription)
            if let identity = subscription.targetIdentity {
                // A new target at the address of a dead one is not the same target: say the old
                // one is gone before the bind, so readers never take the two for one.
                for sibling in siblings
                where sibling !== subscription && sibling.targetIdentity == identity && sibling.targetIsGone {
                    recorder.appendEvent(.dangling) { $0.varint(sibling.id) }
                }
            }
            return recorder.writeBound(subscription, preexisting: false, scope: scope, cause: cause)
        }
    }

    /// Records an update (or a fire, for a Relay). `subscribers` is asked for only when the Output
    /// must be announced (its first event in this recording), so a traced update never walks them.
    @usableFromInline
    static func updated(
        _ output: OutputTraceInfo, preview: [UInt8]?, subscribers: () -> [SubscriptionTraceInfo]
    ) -> UInt64 {
        let cause = bt_cause_slot()!.pointee
        let recorder = shared
        let hot = Self.hot
        let tag: TraceFormat.Tag = output.kind == .relay ? .fire : .update
        let lock = SpinLock.shared
        bt_spin_lock(lock)
        defer { bt_spin_unlock(lock) }
        guard hot.pointee.streamOpen else { return 0 }
        // Hot path: the Output is known, the thread unchanged, room in the buffer, no preview —
        // encode the record in place, with no closure, retain or exclusivity check.
        if preview == nil, output.announcedEpoch == hot.pointee.epoch, hot.pointee.count < bufferThreshold,
            bt_thread_slot()!.pointee == hot.pointee.lastThread, hot.pointee.lastThread != 0
        {
            let now = bt_ticks()
            let last = hot.pointee.lastTicks
            let delta = now > last ? now - last : 0
            if now > last { hot.pointee.lastTicks = now }
            hot.pointee.sequence += 1
            hot.pointee.eventsSinceClock = true
            let start = hot.pointee.count
            let base = Self.buffer + start
            base[0] = tag.rawValue
            // Each field is at most 10 bytes: the payload is under 128, so its length is one byte.
            var record = RecordEncoder(base: base + 2)
            record.varint(delta)
            record.varint(output.id)
            record.cause(cause, sequence: hot.pointee.sequence, oldest: hot.pointee.firstJoinedEvent)
            record.varint(0)
            base[1] = UInt8(record.count)
            hot.pointee.count = start + 2 + record.count
            return hot.pointee.sequence
        }
        if output.announcedEpoch != hot.pointee.epoch {
            recorder.announce(output, subscribers: subscribers(), except: nil)
        }
        return recorder.appendEvent(tag) { record in
            record.varint(output.id)
            record.cause(cause, sequence: hot.pointee.sequence, oldest: hot.pointee.firstJoinedEvent)
            if let preview {
                record.varint(1)
                record.bytes(preview)
            } else {
                record.varint(0)
            }
        }
    }

    @usableFromInline
    static func unbound(_ subscription: SubscriptionTraceInfo, reason: UnbindReason) {
        let cause = TraceCause.current
        let recorder = shared
        recorder.lock.withLock {
            guard recorder.streamOpen else { return }
            recorder.announce(subscription.output, subscribers: [subscription], except: nil)
            recorder.writeUnbound(subscription, reason: reason, cause: cause)
        }
    }

    @usableFromInline
    static func dangling(_ subscription: UInt64) {
        let recorder = shared
        recorder.lock.withLock {
            guard recorder.streamOpen else { return }
            recorder.appendEvent(.dangling) { $0.varint(subscription) }
        }
    }

    static func outputReleased<Subscribers: Sequence<SubscriptionTraceInfo>>(
        _ output: OutputTraceInfo, subscribers: Subscribers
    ) {
        let recorder = shared
        recorder.lock.withLock {
            // An Output this recording never saw has nothing to tell.
            guard recorder.streamOpen, output.announcedEpoch == recorder.epoch else { return }
            for subscription in subscribers {
                recorder.writeUnbound(subscription, reason: .outputReleased, cause: bt_cause())
            }
            recorder.appendEvent(.released) { $0.varint(output.id) }
        }
    }

    static func edge<Subscribers: Sequence<SubscriptionTraceInfo>>(
        from source: OutputTraceInfo, to derived: OutputTraceInfo, kind: OutputKind,
        sourceSubscribers: Subscribers
    ) {
        let recorder = shared
        recorder.lock.withLock {
            guard recorder.streamOpen else { return }
            recorder.announce(source, subscribers: sourceSubscribers, except: nil)
            recorder.announce(derived, preexisting: true, scope: 0, cause: bt_cause())
            recorder.appendEvent(.edge) { record in
                record.varint(source.id)
                record.varint(derived.id)
                record.varint(UInt64(kind.rawValue))
            }
        }
    }

    static func innerSwitch<Subscribers: Sequence<SubscriptionTraceInfo>>(
        flatMap: OutputTraceInfo, inner: OutputTraceInfo, innerSubscribers: Subscribers
    ) {
        let recorder = shared
        recorder.lock.withLock {
            guard recorder.streamOpen else { return }
            recorder.announce(flatMap, preexisting: true, scope: 0, cause: bt_cause())
            recorder.announce(inner, subscribers: innerSubscribers, except: nil)
            recorder.appendEvent(.innerSwitch) { record in
                record.varint(flatMap.id)
                record.varint(inner.id)
            }
        }
    }

    static func labelChanged(_ output: OutputTraceInfo, to label: String) {
        let recorder = shared
        recorder.lock.withLock {
            output.label = label
            guard recorder.streamOpen, output.announcedEpoch == recorder.epoch else { return }
            let labelID = recorder.intern(label)
            recorder.appendEvent(.label) { record in
                record.varint(output.id)
                record.varint(labelID)
            }
        }
    }

    static func scopeBegan(id: UInt64, parent: UInt64, name: String, file: StaticString, line: UInt) {
        let recorder = shared
        recorder.lock.withLock {
            guard recorder.streamOpen else { return }
            let nameID = recorder.intern(name)
            let fileID = recorder.intern(file)
            recorder.appendEvent(.scopeBegin) { record in
                record.varint(id)
                record.varint(parent)
                record.varint(nameID)
                record.varint(fileID)
                record.varint(UInt64(line))
            }
        }
    }

    static func scopeEnded(id: UInt64) {
        let recorder = shared
        recorder.lock.withLock {
            guard recorder.streamOpen else { return }
            recorder.appendEvent(.scopeEnd) { $0.varint(id) }
        }
    }

    static func mark(_ name: String) {
        let scope = BindTrace.currentScope
        let recorder = shared
        recorder.lock.withLock {
            guard recorder.streamOpen else { return }
            let nameID = recorder.intern(name)
            recorder.appendEvent(.mark) { record in
                record.varint(nameID)
                record.varint(scope)
            }
        }
    }

    /// A bounded `String(describing:)` of `value`, cut at a character boundary.
    @usableFromInline
    static func preview<Value>(of value: Value) -> [UInt8] {
        TraceFormat.truncated(String(describing: value), to: TraceFormat.maximumPreviewLength)
    }

    // MARK: - Writing records (caller holds `lock`)

    /// Writes the creation of `output` once per epoch; an Output that existed before the recording
    /// started is marked preexisting, and so are the subscriptions it already had.
    private func announce<Subscribers: Sequence<SubscriptionTraceInfo>>(
        _ output: OutputTraceInfo, subscribers: Subscribers, except skipped: SubscriptionTraceInfo?
    ) {
        // Once an Output is announced, so is every subscription it has: those bound later are
        // written as they are bound. So the walk happens once per Output and recording.
        guard output.announcedEpoch != epoch else { return }
        announce(output, preexisting: true, scope: 0, cause: bt_cause())
        for subscription in subscribers where subscription !== skipped && subscription.announcedEpoch != epoch {
            writeBound(subscription, preexisting: true, scope: 0, cause: bt_cause())
        }
    }

    private func announce(_ output: OutputTraceInfo, preexisting: Bool, scope: UInt64, cause: bt_cause) {
        guard streamOpen, output.announcedEpoch != epoch else { return }
        output.announcedEpoch = epoch
        let typeID = intern(output.valueType)
        let fileID = intern(output.file)
        let labelID = output.label.map { intern($0) } ?? 0
        appendEvent(.outputCreated) { record in
            record.varint(output.id)
            record.varint(UInt64(output.kind.rawValue))
            record.varint(typeID)
            record.varint(fileID)
            record.varint(UInt64(output.line))
            record.varint(labelID)
            record.varint(scope)
            record.varint(preexisting ? 1 : 0)
            record.cause(cause, sequence: sequence, oldest: firstJoinedEvent)
        }
    }

    @discardableResult
    private func writeBound(_ subscription: SubscriptionTraceInfo, preexisting: Bool, scope: UInt64, cause: bt_cause)
        -> UInt64
    {
        subscription.announcedEpoch = epoch
        let fileID = intern(subscription.file)
        var flags: UInt64 = preexisting ? TraceFormat.BindFlag.preexisting : 0
        var target: (type: UInt64, identity: UInt64)?
        switch subscription.origin {
        case .closure: break
        case .operator: flags |= TraceFormat.BindFlag.internal
        case .binder(let type, let identity, _):
            flags |= TraceFormat.BindFlag.binder
            target = (intern(type), UInt64(identity))
        }
        return appendEvent(.bound) { record in
            record.varint(subscription.id)
            record.varint(subscription.output.id)
            record.varint(fileID)
            record.varint(UInt64(subscription.line))
            record.varint(flags)
            if let target {
                record.varint(target.type)
                record.varint(target.identity)
            }
            record.varint(scope)
            record.cause(cause, sequence: sequence, oldest: firstJoinedEvent)
        }
    }

    private func writeUnbound(_ subscription: SubscriptionTraceInfo, reason: UnbindReason, cause: bt_cause) {
        if subscription.announcedEpoch != epoch {
            writeBound(subscription, preexisting: true, scope: 0, cause: bt_cause())
        }
        appendEvent(.unbound) { record in
            record.varint(subscription.id)
            record.varint(UInt64(reason.rawValue))
            record.cause(cause, sequence: sequence, oldest: firstJoinedEvent)
        }
    }

    /// Appends one event record: a thread record first when the thread changed, then tag, length,
    /// the ticks since the previous event and `payload`. Returns the event's sequence number.
    @discardableResult
    private func appendEvent(_ tag: TraceFormat.Tag, _ payload: (inout RecordEncoder) -> Void) -> UInt64 {
        switchThreadIfNeeded()
        let now = bt_ticks()
        let delta = now > lastTicks ? now - lastTicks : 0
        if now > lastTicks { lastTicks = now }
        sequence += 1
        eventsSinceClock = true
        appendRecord(tag) { record in
            record.varint(delta)
            payload(&record)
        }
        return sequence
    }

    private func appendRecord(_ tag: TraceFormat.Tag, _ payload: (inout RecordEncoder) -> Void) {
        if count >= Self.bufferThreshold { flush() }
        // Tag, one byte reserved for the length, then the payload; most records are under 128 bytes.
        let start = count
        buffer[start] = tag.rawValue
        var record = RecordEncoder(base: buffer + start + 2)
        payload(&record)
        let length = record.count
        if length < 0x80 {
            buffer[start + 1] = UInt8(length)
            count = start + 2 + length
        } else {
            (buffer + start + 3).update(from: buffer + start + 2, count: length)
            buffer[start + 1] = UInt8(truncatingIfNeeded: length) | 0x80
            buffer[start + 2] = UInt8(truncatingIfNeeded: length >> 7)
            count = start + 3 + length
        }
    }

    private func switchThreadIfNeeded() {
        let slot = bt_thread_slot()!
        var index = slot.pointee
        if index == 0 {
            threadCount += 1
            index = threadCount
            slot.pointee = index
        }
        guard index != lastThread else { return }
        lastThread = index
        let nameID = intern(Self.currentThreadName())
        appendRecord(.thread) { record in
            record.varint(UInt64(index))
            record.varint(nameID)
        }
    }

    private static func currentThreadName() -> String {
        var name = [CChar](repeating: 0, count: 64)
        bt_thread_name(&name, Int32(name.count))
        return String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// One line on standard error, without touching the non-Sendable `stderr` global.
    static func printError(_ message: String) {
        let line = Array((message + "\n").utf8)
        line.withUnsafeBytes { _ = write(2, $0.baseAddress, $0.count) }
    }

    private func writeClock() {
        eventsSinceClock = false
        let rate = Self.ticksPerSecond
        let ticks = bt_ticks()
        let nanoseconds = bt_monotonic_ns()
        // Readers restart their tick count at every clock record; so does the writer.
        lastTicks = ticks
        appendRecord(.clock) { record in
            record.varint(ticks)
            record.varint(nanoseconds)
            record.varint(rate)
        }
    }

    /// Ticks of `bt_ticks` per second, measured once against CLOCK_MONOTONIC over 2 ms.
    private static let ticksPerSecond: UInt64 = {
        if bt_ticks_are_nanoseconds() { return 1_000_000_000 }
        let startTicks = bt_ticks()
        let startNanoseconds = bt_monotonic_ns()
        var nanoseconds = startNanoseconds
        while nanoseconds - startNanoseconds < 2_000_000 { nanoseconds = bt_monotonic_ns() }
        let ticks = bt_ticks() - startTicks
        return UInt64((Double(ticks) * 1e9 / Double(nanoseconds - startNanoseconds)).rounded())
    }()

    private func writeRaw(_ bytes: [UInt8]) {
        if count + bytes.count > Self.bufferCapacity { flush() }
        bytes.withUnsafeBufferPointer { (buffer + count).update(from: $0.baseAddress!, count: $0.count) }
        count += bytes.count
    }

    /// Writes the buffer to the file and to the capture.
    private func flush() {
        guard count > 0 else { return }
        writeToFile(UnsafeRawBufferPointer(start: buffer, count: count))
        if capture != nil {
            capture!.append(contentsOf: UnsafeBufferPointer(start: buffer, count: count))
        }
        count = 0
    }

    private func writeToFile(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { writeToFile($0) }
    }

    /// A failed write stops file recording with a one-line error rather than losing events silently.
    private func writeToFile(_ bytes: UnsafeRawBufferPointer) {
        guard fileDescriptor >= 0, let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let written = write(fileDescriptor, base + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                Self.printError(
                    "bind-trace: \(filePath): writing the trace failed: \(String(cString: strerror(errno)))"
                        + "; recording stopped")
                close(fileDescriptor)
                fileDescriptor = -1
                bt_set_recording(captureCount > 0)
                return
            }
            offset += written
        }
    }

    // MARK: - Strings

    private func intern(_ file: StaticString) -> UInt64 {
        guard file.hasPointerRepresentation else { return intern(file.description) }
        let key = UInt(bitPattern: file.utf8Start)
        if let id = fileStrings[key] { return id }
        let id = define(Array(UnsafeBufferPointer(start: file.utf8Start, count: file.utf8CodeUnitCount)))
        fileStrings[key] = id
        return id
    }

    private func intern(_ type: Any.Type) -> UInt64 {
        let key = ObjectIdentifier(type)
        if let id = typeStrings[key] { return id }
        let id = define(TraceFormat.truncated(String(describing: type), to: TraceFormat.maximumStringLength))
        typeStrings[key] = id
        return id
    }

    private func intern(_ text: String) -> UInt64 {
        if let id = textStrings[text] { return id }
        let id = define(TraceFormat.truncated(text, to: TraceFormat.maximumStringLength))
        textStrings[text] = id
        return id
    }

    private func define(_ bytes: [UInt8]) -> UInt64 {
        let id = nextString
        nextString += 1
        let start = count
        appendRecord(.string) { record in
            record.varint(id)
            record.bytes(bytes)
        }
        stringRecords.append(contentsOf: UnsafeBufferPointer(start: buffer + start, count: count - start))
        return id
    }
}

/// Writes varints and bytes into the recorder's buffer.
struct RecordEncoder {
    let base: UnsafeMutablePointer<UInt8>
    var count = 0

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
        bytes.withUnsafeBufferPointer { (base + count).update(from: $0.baseAddress!, count: $0.count) }
        count += bytes.count
    }

    /// The cause of an event: how many events back its parent is (0: none), then the subscription.
    mutating func cause(_ cause: bt_cause, sequence own: UInt64, oldest: UInt64) {
        guard cause.event >= oldest, cause.event < own else { return varint(0) }
        varint(own - cause.event)
        varint(cause.subscription)
    }
}

/// The recorder's lock (a C spin lock: cheaper than a mutex for the few instructions it guards).
private struct SpinLock: @unchecked Sendable {
    nonisolated(unsafe) static let shared: UnsafeMutablePointer<bt_spinlock> = {
        let primitive = UnsafeMutablePointer<bt_spinlock>.allocate(capacity: 1)
        primitive.initialize(to: bt_spinlock())
        return primitive
    }()
    let primitive = SpinLock.shared

    @inline(__always)
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        bt_spin_lock(primitive)
        defer { bt_spin_unlock(primitive) }
        return try body()
    }
}
#endif
