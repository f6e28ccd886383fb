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
}
#endif
