import BindTraceFormat

#if Tracing
import CBindCore
import CBindTrace
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Records events: the static entry points Bind's probe calls, each encoding one record of the
/// format (`BindTraceFormat`) into the process's buffer.
///
/// The parts, one job each: `TraceRecorder` decides what to record (announcing Outputs and
/// subscriptions to the sinks that have not seen them) and encodes it; `TraceStrings` interns
/// strings; `RecorderState` merges the threads' rings into its buffer and hands full chunks on;
/// `TraceFile` owns the file and does every write. Two process-wide locks, both named for what they are:
/// - ``recordingLock`` guards the stream's state: every event but the lock-free updates takes it (see
///   ``RecorderState`` for how the two are ordered). It is a leaf held for tens of nanoseconds, the
///   only recorder lock an Output's lock is held around, and nothing does I/O under it: a full
///   buffer is moved to the pending chunks and written later.
/// - ``writeLock`` serialises writes to the file. It is taken outside the recording lock (by the
///   flusher every 100 ms, by a thread whose event left many chunks pending, and when stopping).
@usableFromInline
enum TraceRecorder {
    /// Guards `state`; taken by every event but the ring updates. See the type's documentation. A C global, so reaching it
    /// costs no once-check (nor, in a signal handler, a lazy initialisation).
    static var recordingLock: UnsafeMutablePointer<bind_core_lock> { bind_trace_recording_lock() }
    /// Serialises file I/O; taken before `recordingLock` when both are needed, never inside it.
    nonisolated(unsafe) static let writeLock: UnsafeMutablePointer<pthread_mutex_t> = {
        let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        pthread_mutex_init(lock, nil)
        return lock
    }()
    /// Everything the recording lock guards. Allocated once and never freed, on cache lines of its
    /// own: the thread that merges writes it for every update it merges, and another thread's
    /// object on the same line (malloc packs small blocks together) would have every retain of it
    /// wait for the line (false sharing: a traced map chain took 3× its time while another thread
    /// merged, when a merging thread was tried; BENCHMARKS.md).
    nonisolated(unsafe) static let state: UnsafeMutablePointer<RecorderState> = {
        let state = cacheLineAligned(RecorderState.self)
        state.initialize(to: RecorderState())
        return state
    }()

    /// Memory for `count` values of `T` on whole cache lines of its own; never freed.
    static func cacheLineAligned<T>(_ type: T.Type, count: Int = 1) -> UnsafeMutablePointer<T> {
        let lines = (MemoryLayout<T>.stride * count + 63) / 64
        return UnsafeMutableRawPointer.allocate(byteCount: lines * 64, alignment: 64)
            .bindMemory(to: T.self, capacity: count)
    }
    /// The file, guarded by `writeLock`.
    nonisolated(unsafe) static var file: TraceFile?

    /// Starts `BIND_TRACE` recording on first use.
    private static let autostart: Void = {
        TraceLifecycle.installForkHandlers()
        if let pattern = bind_trace_autostart_path() {
            do {
                try openFile(pattern: String(cString: pattern))
            } catch {
                printError("bind-trace: \(error)")
                bind_trace_set_recording(false)
            }
        }
    }()

    /// Runs `body` with the recording lock held. Every recorded event comes through here, so it
    /// reaches the lock and the state through C globals: the lazy globals' once-checks cost a map
    /// chain about 20 instructions per event.
    @inline(__always)
    static func withLock<T>(_ body: (inout RecorderState) throws -> T) rethrows -> T {
        if !bind_trace_recorder_ready() { prepare() }
        let lock = bind_trace_recording_lock()
        let recorder = bind_trace_recorder_state().unsafelyUnwrapped.assumingMemoryBound(to: RecorderState.self)
        bind_core_lock_lock(lock)
        let result: T
        do {
            result = try body(&recorder.pointee)
        } catch {
            bind_core_lock_unlock(lock)
            throw error
        }
        let backlog = recorder.pointee.backlog
        bind_core_lock_unlock(lock)
        // Many full chunks waiting: this thread writes them rather than letting memory grow.
        if backlog >= RecorderState.maximumPendingChunks { drain() }
        return result
    }

    // MARK: - Starting and stopping

    /// The first event's set-up: BIND_TRACE's recording is started, then the state is published.
    @inline(never)
    private static func prepare() {
        _ = autostart
        bind_trace_set_recorder_ready(UnsafeMutableRawPointer(state))
    }

    static func startFile(path pattern: String) throws {
        _ = autostart
        try openFile(pattern: pattern)
    }

    static func openFile(pattern: String) throws {
        pthread_mutex_lock(writeLock)
        defer { pthread_mutex_unlock(writeLock) }
        // A path that cannot be opened leaves the running recording as it is.
        let opened = try TraceFile(pattern: pattern)
        closeFileLocked()
        file = opened
        FlightRecorder.begin(limit: FlightRecorder.limitFromEnvironment())
        var header = TraceFormat.header
        TraceFile.writerRecord.encode(into: &header)
        bind_core_lock_lock(recordingLock)
        state.pointee.openFile(pattern: pattern, descriptor: opened.descriptor, header: &header)
        bind_core_lock_unlock(recordingLock)
        writeHeaderLocked(header)
        writePendingLocked()
        bind_trace_set_recording(true)
        TraceLifecycle.startFlusher()
        TraceLifecycle.installExitAndSignalHandlers()
    }

    /// Writes a new file's first bytes (before any chunk). Caller holds `writeLock`.
    static func writeHeaderLocked(_ header: [UInt8]) {
        header.withUnsafeBytes { file?.write($0, events: 0) }
        bind_core_lock_lock(recordingLock)
        state.pointee.committed(chunk: 0, bytes: Int(file?.written ?? 0))
        bind_core_lock_unlock(recordingLock)
    }

    static func stop() {
        pthread_mutex_lock(writeLock)
        closeFileLocked()
        pthread_mutex_unlock(writeLock)
    }

    /// Ends the file for `signal` (SIGTERM, SIGINT or SIGHUP, whose action then ends the process):
    /// every event numbered so far reaches it, then the `signal` record and the end record. Both
    /// locks stay held and recording stays on, so a thread that records from now on waits in the
    /// recorder until the process ends: no update is made that the trace neither holds nor counts.
    /// The flusher calls it (not a signal handler): the locks are taken as any flush takes them.
    static func endForSignal(_ signal: Int32) {
        pthread_mutex_lock(writeLock)
        bind_core_lock_lock(recordingLock)
        guard file != nil else {
            bind_core_lock_unlock(recordingLock)
            pthread_mutex_unlock(writeLock)
            return
        }
        let committed = state.pointee.committedChunk
        // From here every update takes the locked path, and waits.
        state.pointee.stopTakingUpdates()
        let chunks = state.pointee.fileClosed().filter { $0.number > committed }
        if file?.loss() == nil {
            for chunk in chunks { chunk.bytes.withUnsafeBytes { file?.write($0, events: chunk.events) } }
            file?.close(signal: signal)
        } else {
            reportLoss(owed: chunks.reduce(0) { $0 + UInt64($1.events) })
            file?.abandon()
        }
        file = nil
    }

    /// Closes the file: everything recorded reaches it first. Caller holds `writeLock`.
    private static func closeFileLocked() {
        guard file != nil else { return }
        // The file leaves the stream in one step with its last flush: what other threads record
        // while it is written and closed is never queued for it (those chunks would reach the
        // next file opened, with another stream's strings and Outputs).
        bind_core_lock_lock(recordingLock)
        let committed = state.pointee.committedChunk
        let chunks = state.pointee.fileClosed().filter { $0.number > committed }
        // Off again unless a capture still runs: every probe then takes its untraced path.
        bind_trace_set_recording(state.pointee.isRecording)
        bind_core_lock_unlock(recordingLock)
        if file?.loss() == nil {
            for chunk in chunks { chunk.bytes.withUnsafeBytes { file?.write($0, events: chunk.events) } }
            file?.close()
        } else {
            // Lost already: what is owed to it goes nowhere (reported at the last flush, or now).
            reportLoss(owed: chunks.reduce(0) { $0 + UInt64($1.events) })
            file?.abandon()
        }
        file = nil
    }

    /// Writes every pending chunk to the file, in order, each taken off the queue once it is in
    /// the file (so a crash flush writes what is not, and nothing twice). Caller holds `writeLock`.
    private static func writePendingLocked() {
        while true {
            bind_core_lock_lock(recordingLock)
            // Not those a crash flush wrote already (while Swift's backtracer runs, this thread
            // may still be flushing).
            let committed = state.pointee.committedChunk
            state.pointee.pendingChunks.removeAll { $0.number <= committed }
            let chunks = state.pointee.pendingChunks
            state.pointee.chunksInFlight = chunks.count
            bind_core_lock_unlock(recordingLock)
            // Looked at every flush, idle ones too: the sooner a loss is seen, the fewer events it takes.
            if file?.loss() != nil {
                continueAfterLoss()
                continue
            }
            if chunks.isEmpty { return }
            // A flight recording whose segment is full goes on in a new one first.
            if FlightRecorder.isFull(file, adding: chunks) {
                FlightRecorder.rotateLocked()
                continue
            }
            for chunk in chunks {
                chunk.bytes.withUnsafeBytes { file?.write($0, events: chunk.events) }
                bind_core_lock_lock(recordingLock)
                state.pointee.committed(chunk: chunk.number, bytes: Int(file?.written ?? 0))
                state.pointee.chunksInFlight = max(state.pointee.chunksInFlight - 1, 0)
                bind_core_lock_unlock(recordingLock)
            }
        }
    }

    /// The file was deleted, replaced or truncated under this process (noticed at a flush): says so
    /// on standard error, and goes on recording into `<name>.<pid>.trace` beside it, which opens
    /// with a `continues` record naming the lost file, how many events reached it and how many
    /// reached neither (the chunks not yet written when the loss was noticed). The stream goes on:
    /// the new file joins it as a new sink does (its strings first, every Output announced again).
    /// Caller holds `writeLock`.
    private static func continueAfterLoss() {
        guard var lost = file, let reason = lost.loss() else { return }
        let continuation: TraceFile
        do {
            continuation = try TraceFile(continuing: lost.path)
        } catch {
            closeFileLocked()
            printError("bind-trace: \(error); recording to the file stopped")
            return
        }
        file = continuation
        bind_core_lock_lock(recordingLock)
        let pattern = state.pointee.filePattern ?? lost.path
        let owed = state.pointee.fileClosed(keepingStream: true)
        let owedEvents = owed.reduce(UInt64(0)) { $0 + UInt64($1.events) } + lost.unreportedLost
        var header = TraceFormat.header
        TraceFile.writerRecord.encode(into: &header)
        TraceRecord.continues(
            reason: reason.rawValue, writtenEvents: lost.writtenEvents, lostEvents: owedEvents,
            path: Array(lost.path.utf8.prefix(TraceFormat.maximumStringLength))
        ).encode(into: &header)
        state.pointee.openFile(pattern: pattern, descriptor: continuation.descriptor, header: &header)
        bind_core_lock_unlock(recordingLock)
        lost.abandon()
        printError(
            "bind-trace: \(lost.path) was \(reason.description) while this process wrote it (\(lost.writtenEvents) "
                + "events had reached it, \(owedEvents) more reach no file); recording goes on in \(continuation.path)")
        writeHeaderLocked(header)
    }

    /// Says on standard error that the file was lost and what went with it.
    private static func reportLoss(owed: UInt64) {
        guard let lost = file, let reason = lost.loss() else { return }
        printError(
            "bind-trace: \(lost.path) was \(reason.description) while this process wrote it (\(lost.writtenEvents) "
                + "events had reached it, \(owed + lost.unreportedLost) more reach no file)")
    }

    /// Writes what is pending; called without the recording lock.
    static func drain() {
        pthread_mutex_lock(writeLock)
        writePendingLocked()
        pthread_mutex_unlock(writeLock)
    }

    /// Flushes the buffer and writes it: the flusher's tick.
    static func flushNow() {
        bind_core_lock_lock(recordingLock)
        if state.pointee.eventsSinceClock { state.pointee.writeClock() }
        state.pointee.flush()
        bind_core_lock_unlock(recordingLock)
        drain()
    }

    /// Starts a capture; see `RecorderState.beginCapture`.
    static func beginCapture() -> Int {
        withLock { state in
            let session = state.beginCapture()
            bind_trace_set_recording(true)
            return session
        }
    }

    /// Ends a capture and returns its trace.
    static func endCapture(_ session: Int) -> [UInt8] {
        withLock { state in
            let bytes = state.endCapture(session)
            bind_trace_set_recording(state.isRecording)
            return bytes
        }
    }

    /// One line on standard error, without touching the non-Sendable `stderr` global.
    static func printError(_ message: String) {
        let line = Array((message + "\n").utf8)
        line.withUnsafeBytes { _ = write(2, $0.baseAddress, $0.count) }
    }
}
#endif
