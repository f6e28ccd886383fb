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
@_spi(Harness) public final class TraceReader {
    /// Problems that did not stop reading: a cut-off end, unknown record kinds, a missing end record.
    public internal(set) var warnings: [TraceWarning] = []
    /// Whether the trace ended with the end record a recording writes when it stops normally.
    public internal(set) var isComplete = false
    /// The signal that ended the recording (SIGTERM, SIGINT, SIGHUP), when its `signal` record says:
    /// every event the program made until then is in the trace or counted lost. Since 1.4.
    package internal(set) var endSignal: Int32?
    /// For a later segment of a flight recording (`BIND_TRACE_LIMIT`): the events the recording
    /// made before this file that are dropped for good, those the segment before it
    /// (`<name>.previous.trace`) holds or counts, when that segment began (CLOCK_MONOTONIC ns, the
    /// clock records' clock: nothing from before it is kept) and this file's segment number. Since 1.4.
    package internal(set) var window: (dropped: UInt64, inPrevious: UInt64, start: UInt64, segment: UInt64)?
    /// When the window began, in nanoseconds relative to this trace's first clock record (negative: before it).
    package var windowStartOffset: Int64? {
        window.map { Int64(bitPattern: $0.start &- (startNanoseconds ?? $0.start)) }
    }
    /// The format version of the trace.
    public internal(set) var version: (major: UInt16, minor: UInt16) = (0, 0)
    /// Events missing from the trace: the recorder's `lost` records (a failed write, a crash flush
    /// that could not order them) summed, the events of the file this one continues (``continuedFrom``),
    /// and events whose numbers are missing between two chunks with no `lost` record saying so.
    package internal(set) var lostEvents: UInt64 = 0
    /// Sequence numbers that no event of the trace takes: those of the events the trace says it
    /// lost, so that the events after a loss keep the numbers the recorder gave them (and their
    /// causes, counted back, stay right). An event's ``TraceEvent/sequence`` is its position in the
    /// trace plus the numbers skipped before it.
    public internal(set) var skippedSequenceNumbers: UInt64 = 0
    /// Chunks the file holds twice (a writer that wrote one again), read once: their second copies
    /// were skipped.
    public internal(set) var repeatedChunks = 0
    /// The file this trace continues, when it was deleted, replaced or truncated while the recorder
    /// wrote it: its path and how.
    public internal(set) var continuedFrom: (path: String, how: String)?
    /// The process that wrote the trace (its `writer` record), if the trace says.
    package internal(set) var writer: (process: UInt64, group: UInt64, session: UInt64)?
    /// Bytes at the end that hold an incomplete record and were ignored (the trace was cut short).
    package internal(set) var ignoredBytes = 0
    /// Events whose cause comes from before the trace's first event, read as top level: the
    /// recording (a capture or a file that joined a running stream) began during a delivery.
    /// Expected whenever a sink joins while another thread delivers, so not a warning.
    @exclusivity(unchecked) public internal(set) var causesBeforeStart = 0
    /// The first events (at most ``maximumEventsCausedBeforeStart``) counted in ``causesBeforeStart``:
    /// `why` must not call such an event a root when its cause is only missing from the trace.
    package internal(set) var eventsCausedBeforeStart: Set<UInt64> = []
    static let maximumEventsCausedBeforeStart = 4096
    /// The file's name, when read from a file: a flight recording's segment names the one before it.
    package let fileName: String?
    /// Why the trace is not whole, once it has been read to its end: empty for a whole trace. A
    /// gate should fail on a trace with gaps unless the user accepts incomplete traces.
    package var gaps: [TraceGap] {
        var gaps: [TraceGap] = []
        if lostEvents > 0 { gaps.append(.lostEvents(lostEvents)) }
        if ignoredBytes > 0 { gaps.append(.cutShort(ignoredBytes: ignoredBytes)) }
        if finished && failure == nil && !isComplete { gaps.append(.noEndRecord) }
        return gaps
    }
    /// Follow a file that is still written (`bind-trace serve --follow`): at the end of what is there,
    /// a read returns what it has and the next one reads on from there, instead of ending the trace.
    /// A record not yet whole is not a cut: it is read once the rest arrives. Set it back to `false`
    /// to read to the end for good (with the usual warnings).
    package var follows = false
    /// Whether the last read stopped at the end of what the followed file holds so far.
    @exclusivity(unchecked) package internal(set) var caughtUp = false
    /// Names of the recording threads, by thread number.
    package internal(set) var threadNames: [UInt32: String] = [:]

    // Hot state: exclusivity is not checked at run time (a reader is used from one thread at a
    // time and never re-enters itself); the checks cost about a tenth of reading.
    /// The bytes read and not yet consumed: `buffer[position..<count]`. Never reallocated.
    let buffer: UnsafeMutableRawBufferPointer
    @exclusivity(unchecked) var count = 0
    /// Where `buffer[0]` is in the trace.
    @exclusivity(unchecked) var bufferOffset = 0
    @exclusivity(unchecked) var position = 0
    var descriptor: Int32 = -1
    @exclusivity(unchecked) var atEndOfSource = false
    @exclusivity(unchecked) var finished = false
    /// An error is final: every later call rethrows it and no event follows a corruption.
    @exclusivity(unchecked) var failure: TraceReadError?

    @exclusivity(unchecked) var strings: [String] = [""]
    /// How many of `strings` batches have carried to their consumer (``EventBatch/strings``).
    @exclusivity(unchecked) var stringsHandedOut = 1
    /// Each distinct text once: a string defined again under another id shares the first one's storage.
    var distinctStrings: [String: Int] = [:]
    /// Call sites by id (`site` records), defined in increasing order; gaps are sites whose records
    /// were lost with a failed write.
    var sites: [UInt64: SourceSite] = [:]
    var lastSiteID: UInt64 = 0
    @exclusivity(unchecked) var sequence: UInt64 = 0
    @exclusivity(unchecked) var ticks: UInt64 = 0
    @exclusivity(unchecked) var clock: (ticks: UInt64, nanoseconds: UInt64, ticksPerSecond: UInt64)?
    @exclusivity(unchecked) var startNanoseconds: UInt64?
    /// `clock` and `startNanoseconds` as the `Double`s ``time()`` computes with, converted once per
    /// clock record instead of once per event (the same values, so the same times).
    @exclusivity(unchecked) var clockNanoseconds = 0.0
    @exclusivity(unchecked) var clockRate = 1.0
    @exclusivity(unchecked) var start = 0.0
    @exclusivity(unchecked) var thread: UInt32 = 0
    var skippedTags: Set<UInt8> = []
    /// The last chunk read (0: none yet), and the one warning that sums the `lost` records.
    var lastChunk: UInt64 = 0
    var lostRecords: (count: Int, events: UInt64, warning: Int)?
    /// The one-event batch ``next()`` decodes into.
    @exclusivity(unchecked) var single = EventBatch()

    /// ``TraceFormat/maximumRecordLength``, read once: a global of another module is a call per record.
    let maximumRecordLength = UInt64(TraceFormat.maximumRecordLength)

    /// Read size; the buffer also holds one whole record (at most 64 KiB) past a read.
    static let chunkSize = 1 << 20

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
        fileName = path.split(separator: "/").last.map(String.init)
        buffer = .allocate(byteCount: Self.chunkSize + TraceFormat.maximumRecordLength + 64, alignment: 8)
        try readHeader()
    }

    /// Reads a trace held in memory, such as a `BindTrace.Recording`'s bytes.
    public init(bytes: [UInt8]) throws(TraceReadError) {
        fileName = nil
        buffer = .allocate(byteCount: max(bytes.count, 1), alignment: 8)
        bytes.withUnsafeBytes { buffer.copyMemory(from: $0) }
        count = bytes.count
        atEndOfSource = true
        try readHeader()
    }

    func readHeader() throws(TraceReadError) {
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
        caughtUp = false
        do {
            while !finished && !caughtUp {
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
        caughtUp = false
        if let failure {
            batch.failure = failure
        } else {
            do {
                while !finished && !caughtUp && batch.events.count < maximumEvents { _ = try readRecord(into: &batch) }
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
    func fail(_ error: TraceReadError) {
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
}
