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
    static let flushedSignals: [Int32] = [SIGTERM, SIGINT, SIGHUP, SIGABRT, SIGILL, SIGTRAP, SIGSEGV, SIGBUS]
    /// The pipe whose write end a SIGTERM, SIGINT or SIGHUP handler writes the signal's number to, and
    /// whose read end the flusher waits on (-1: no flusher).
    nonisolated(unsafe) private static var signalPipeRead: Int32 = -1
    nonisolated(unsafe) private static var signalPipeWrite: Int32 = -1

    /// Ticks of `bind_trace_ticks` per second, measured once against CLOCK_MONOTONIC over 2 ms.
    static let ticksPerSecond: UInt64 = {
        if bind_trace_ticks_are_nanoseconds() { return 1_000_000_000 }
        let startTicks = bind_trace_ticks()
        let startNanoseconds = bind_trace_monotonic_ns()
        var nanoseconds = startNanoseconds
        while nanoseconds - startNanoseconds < 2_000_000 { nanoseconds = bind_trace_monotonic_ns() }
        let ticks = bind_trace_ticks() - startTicks
        return UInt64((Double(ticks) * 1e9 / Double(nanoseconds - startNanoseconds)).rounded())
    }()

    /// Called with the recorder's write lock held.
    static func startFlusher() {
        guard !flusherStarted else { return }
        flusherStarted = true
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            // A handler never blocks on a full pipe.
            _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
            signalPipeRead = ends[0]
            signalPipeWrite = ends[1]
        } else {
            signalPipeRead = -1
            signalPipeWrite = -1
        }
        var thread = pthread_t()
        _ = pthread_create(
            &thread, nil,
            { _ in
                while true {
                    if let signal = TraceLifecycle.waitForSignal(milliseconds: 100) {
                        TraceLifecycle.flushAndRaise(deferred: signal)
                    }
                    TraceRecorder.flushNow()
                }
            }, nil)
        pthread_detach(thread)
    }

    /// Waits up to `milliseconds` for a signal handed over by ``deferToFlusher(_:)``.
    private static func waitForSignal(milliseconds: Int32) -> Int32? {
        guard signalPipeRead >= 0 else {
            usleep(useconds_t(milliseconds) * 1000)
            return nil
        }
        var waiting = pollfd(fd: signalPipeRead, events: Int16(POLLIN), revents: 0)
        guard poll(&waiting, 1, milliseconds) > 0 else { return nil }
        var byte: UInt8 = 0
        guard read(signalPipeRead, &byte, 1) == 1 else { return nil }
        return Int32(byte)
    }

    /// The flusher's side of a SIGTERM, SIGINT or SIGHUP: everything recorded so far reaches the file
    /// by the ordinary path (the locks taken as any flush takes them, every chunk written once), then
    /// the signal does what it would have done.
    ///
    /// When that is the default action (the process ends), the file is ended here, with a `signal`
    /// record, and the recorder's locks stay held until the process is gone: what other threads
    /// record meanwhile waits, rather than being made and lost in silence. A handler the app had
    /// installed may let the process go on: then the trace is flushed and recording goes on.
    private static func flushAndRaise(deferred signal: Int32) {
        let previous = previousActions[signal]
        if previous.map(isDefault) ?? true {
            TraceRecorder.endForSignal(signal)
        } else {
            TraceRecorder.flushNow()
        }
        if var previous {
            sigaction(signal, &previous, nil)
        } else {
            _ = setDefaultAction(signal)
        }
        bind_trace_deferred_signal_done()
        // To the process, not this thread: a thread that blocks the signal leaves it to another.
        kill(getpid(), signal)
    }

    /// Called with the recorder's write lock held.
    static func installExitAndSignalHandlers() {
        guard !handlersInstalled else { return }
        handlersInstalled = true
        atexit { TraceRecorder.stop() }
        for signal in flushedSignals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signal in TraceLifecycle.handle(signal) }
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            var previous = sigaction()
            if sigaction(signal, &action, &previous) == 0 {
                // SIGINT ignored by a shell (a background job), SIGHUP by `nohup`, stay ignored.
                if signal == SIGINT || signal == SIGHUP, let handler = previous.__sigaction_handler.sa_handler,
                    unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
                {
                    sigaction(signal, &previous, nil)
                    continue
                }
                previousActions[signal] = previous
            }
        }
    }

    /// A fatal signal arrived. SIGTERM, SIGINT and SIGHUP come from another process, at any point of
    /// any thread (one inside the recorder, holding its lock, in a burst): the flusher thread writes
    /// the trace for them with its ordinary path, and a second one while the first is handled is
    /// left to the first. A crash (or one of them with no flusher) is flushed here and now.
    private static func handle(_ signal: Int32) {
        if signal == SIGTERM || signal == SIGINT || signal == SIGHUP {
            if deferToFlusher(signal) { return }
            // A second one while the flusher ends the trace for the first: that one ends the
            // process as soon as the trace is whole; flushing here would cut the flusher's write short.
            if signalPipeWrite >= 0 && bind_trace_deferred_signal_pending() { return }
        }
        flushAndReraise(signal)
    }

    /// Whether `action` is the default one (SIG_DFL): for SIGTERM, SIGINT and SIGHUP, ending the process.
    private static func isDefault(_ action: sigaction) -> Bool {
        guard action.sa_flags & SA_SIGINFO == 0 else { return false }
        guard let handler = action.__sigaction_handler.sa_handler else { return true }
        return unsafeBitCast(handler, to: Int.self) == 0
    }

    /// Wakes the flusher with `signal`; false when there is no flusher or a signal is handed over
    /// already. Async-signal-safe: one atomic exchange and one `write(2)`.
    private static func deferToFlusher(_ signal: Int32) -> Bool {
        guard signalPipeWrite >= 0, bind_trace_defer_signal(signal) else { return false }
        var byte = UInt8(truncatingIfNeeded: signal)
        if write(signalPipeWrite, &byte, 1) == 1 { return true }
        bind_trace_deferred_signal_done()
        return false
    }

    /// Writes everything recorded so far (the events of the thread that crashed included), then
    /// lets the signal do what it would have done: the previous handler, or the default action.
    ///
    /// Uses only `write(2)` on memory that exists already. The locks are tried for a bounded time:
    /// a crash inside the recorder (or a signal on a thread holding a lock) must not hang the process.
    /// Every chunk reaches the file once: the chunks a writer committed are not written again, a
    /// write a stopped writer left half done is cut off first, and the chunks written here are
    /// committed, so a flusher that runs after this handler (while Swift's backtracer works) skips them.
    private static func flushAndReraise(_ signal: Int32) {
        let writeLocked = tryLock { pthread_mutex_trylock(TraceRecorder.writeLock) == 0 }
        let recordingLocked = tryLock { bind_core_lock_trylock(TraceRecorder.recordingLock) }
        let state = TraceRecorder.state
        let descriptor = state.pointee.fileDescriptor
        if descriptor >= 0 {
            if !writeLocked {
                // Its holder may have stopped inside a write: back to the last whole chunk.
                let whole = off_t(state.pointee.committedBytes)
                _ = ftruncate(descriptor, whole)
                _ = lseek(descriptor, whole, SEEK_SET)
            }
            let committed = state.pointee.committedChunk
            state.pointee.pendingChunks.withUnsafeBufferPointer { chunks in
                for chunk in chunks where chunk.number > committed {
                    if chunk.bytes.withUnsafeBytes({ TraceFile.writeAll(descriptor, $0) }) {
                        state.pointee.committedChunk = chunk.number
                    }
                }
            }
            // The buffer, then the updates still in the threads' rings, merged into it and written
            // as it fills.
            state.pointee.crashDescriptor = descriptor
            if recordingLocked && state.pointee.streamOpen {
                state.pointee.mergeRings(through: bind_trace_stream_last())
            } else if state.pointee.streamOpen, bind_trace_stream_last() > state.pointee.lastWritten {
                // The lock's holder is stopped mid-event: what it and the rings hold cannot be
                // ordered, so it is counted.
                state.pointee.appendRecord(.lost(count: bind_trace_stream_last() - state.pointee.lastWritten))
            }
            state.pointee.handOn()
            state.pointee.crashDescriptor = -1
        }
        if recordingLocked { bind_core_lock_unlock(TraceRecorder.recordingLock) }
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
                bind_core_lock_lock(TraceRecorder.recordingLock)
            },
            {
                bind_core_lock_unlock(TraceRecorder.recordingLock)
                pthread_mutex_unlock(TraceRecorder.writeLock)
            },
            { TraceLifecycle.startOverInChild() })
    }

    /// The child of a `fork`: fresh locks and no flusher thread (threads are not copied); the
    /// parent's buffered events are the parent's to write, and the child records to its own file.
    private static func startOverInChild() {
        TraceRecorder.recordingLock.initialize(to: bind_core_lock())
        pthread_mutex_init(TraceRecorder.writeLock, nil)
        flusherStarted = false
        // The parent's pipe wakes the parent's flusher, which would flush and signal the parent:
        // until this child starts a flusher of its own, its SIGTERM and SIGINT are flushed in the handler.
        if signalPipeRead >= 0 { close(signalPipeRead) }
        if signalPipeWrite >= 0 { close(signalPipeWrite) }
        signalPipeRead = -1
        signalPipeWrite = -1
        bind_trace_deferred_signal_done()
        let pattern = TraceRecorder.state.pointee.filePattern
        TraceRecorder.state.pointee.resetAfterFork()
        TraceRecorder.file?.abandon()
        TraceRecorder.file = nil
        bind_trace_set_recording(false)
        guard let pattern else { return }
        do {
            try TraceRecorder.openFile(pattern: pattern)
        } catch {
            TraceRecorder.printError("bind-trace: \(error)")
        }
    }
}
#endif
