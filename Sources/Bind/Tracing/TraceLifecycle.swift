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

/// The recorder and the process's life: the 100 ms flusher, normal exit, fatal signals and `fork`.
enum TraceLifecycle {
    nonisolated(unsafe) private static var flusherStarted = false
    nonisolated(unsafe) private static var handlersInstalled = false
    /// Signals whose default action ends the process, with the action that was installed before ours.
    nonisolated(unsafe) private static var previousActions: [Int32: sigaction] = [:]
    static let flushedSignals: [Int32] = [SIGTERM, SIGINT, SIGABRT, SIGILL, SIGTRAP, SIGSEGV, SIGBUS]

    /// Ticks of `bt_ticks` per second, measured once against CLOCK_MONOTONIC over 2 ms.
    static let ticksPerSecond: UInt64 = {
        if bt_ticks_are_nanoseconds() { return 1_000_000_000 }
        let startTicks = bt_ticks()
        let startNanoseconds = bt_monotonic_ns()
        var nanoseconds = startNanoseconds
        while nanoseconds - startNanoseconds < 2_000_000 { nanoseconds = bt_monotonic_ns() }
        let ticks = bt_ticks() - startTicks
        return UInt64((Double(ticks) * 1e9 / Double(nanoseconds - startNanoseconds)).rounded())
    }()

    /// Called with the recorder's write lock held.
    static func startFlusher() {
        guard !flusherStarted else { return }
        flusherStarted = true
        var thread = pthread_t()
        _ = pthread_create(
            &thread, nil,
            { _ in
                while true {
                    usleep(100_000)
                    TraceRecorder.flushNow()
                }
            }, nil)
        pthread_detach(thread)
    }

    /// Called with the recorder's write lock held.
    static func installExitAndSignalHandlers() {
        guard !handlersInstalled else { return }
        handlersInstalled = true
        atexit { TraceRecorder.stop() }
        for signal in flushedSignals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signal in TraceLifecycle.flushAndReraise(signal) }
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            var previous = sigaction()
            if sigaction(signal, &action, &previous) == 0 {
                // SIGINT ignored by a shell (a background job) stays ignored.
                if signal == SIGINT, let handler = previous.__sigaction_handler.sa_handler,
                    unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
                {
                    sigaction(signal, &previous, nil)
                    continue
                }
                previousActions[signal] = previous
            }
        }
    }

    /// Writes everything recorded so far (the events of the thread that crashed included), then
    /// lets the signal do what it would have done: the previous handler, or the default action.
    ///
    /// Uses only `write(2)` on memory that exists already. The locks are tried for a bounded time:
    /// a crash inside the recorder (or a signal on a thread holding a lock) must not hang the process.
    private static func flushAndReraise(_ signal: Int32) {
        let writeLocked = tryLock { pthread_mutex_trylock(TraceRecorder.writeLock) == 0 }
        let recordingLocked = tryLock { bind_lock_trylock(TraceRecorder.recordingLock) }
        let state = TraceRecorder.state
        let descriptor = state.pointee.fileDescriptor
        if descriptor >= 0 {
            state.pointee.pendingChunks.withUnsafeBufferPointer { chunks in
                for chunk in chunks {
                    chunk.bytes.withUnsafeBytes { _ = TraceFile.writeAll(descriptor, $0) }
                }
            }
            // The buffer, then the updates still in the threads' rings, merged into it and written
            // as it fills. Written once: a second signal while the first is handled finds nothing left.
            state.pointee.crashDescriptor = descriptor
            if recordingLocked && state.pointee.streamOpen { state.pointee.mergeRings(through: bt_stream_last()) }
            state.pointee.handOn()
            state.pointee.crashDescriptor = -1
        }
        if recordingLocked { bind_lock_unlock(TraceRecorder.recordingLock) }
        if writeLocked { pthread_mutex_unlock(TraceRecorder.writeLock) }
        if var previous = previousActions[signal] {
            sigaction(signal, &previous, nil)
        } else {
            _ = setDefaultAction(signal)
        }
        raise(signal)
    }

    private static func setDefaultAction(_ signal: Int32) -> Int32 {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = SIG_DFL
        sigemptyset(&action.sa_mask)
        return sigaction(signal, &action, nil)
    }

    /// Tries `attempt` for up to about 50 ms.
    private static func tryLock(_ attempt: () -> Bool) -> Bool {
        for _ in 0..<500 {
            if attempt() { return true }
            usleep(100)
        }
        return false
    }

    /// A forked child gets its own file, and never waits on a lock another thread of its parent held.
    static func installForkHandlers() {
        pthread_atfork(
            {
                // Prepare: no thread is inside the recorder while the process is copied.
                pthread_mutex_lock(TraceRecorder.writeLock)
                bind_lock_lock(TraceRecorder.recordingLock)
            },
            {
                bind_lock_unlock(TraceRecorder.recordingLock)
                pthread_mutex_unlock(TraceRecorder.writeLock)
            },
            { TraceLifecycle.startOverInChild() })
    }

    /// The child of a `fork`: fresh locks and no flusher thread (threads are not copied); the
    /// parent's buffered events are the parent's to write, and the child records to its own file.
    private static func startOverInChild() {
        TraceRecorder.recordingLock.initialize(to: bind_lock())
        pthread_mutex_init(TraceRecorder.writeLock, nil)
        flusherStarted = false
        let pattern = TraceRecorder.state.pointee.filePattern
        TraceRecorder.state.pointee.resetAfterFork()
        TraceRecorder.file?.abandon()
        TraceRecorder.file = nil
        bt_set_recording(false)
        guard let pattern else { return }
        do {
            try TraceRecorder.openFile(pattern: pattern)
        } catch {
            TraceRecorder.printError("bind-trace: \(error)")
        }
    }
}
#endif
