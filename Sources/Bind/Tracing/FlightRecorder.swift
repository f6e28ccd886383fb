#if Tracing
import BindTraceFormat
import CBindCore
import CBindTrace
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The flight recorder: `BIND_TRACE_LIMIT` bounds what a recording keeps on disk.
///
/// The trace goes in segments of at most half the limit: when the file at the trace's path would
/// grow past its share, it is finished (its end record written), becomes `<name>.previous.trace`
/// (replacing the segment before, whose events are dropped then), and a new file takes the path.
/// The new file joins the recording as a capture does: the strings defined so far first, then every
/// Output and subscription announced as preexisting when next used, so it reads on its own; its
/// `window` record says how many events came before it, how many of those the previous segment
/// holds (the rest were dropped) and when that segment began. So the two files together never hold
/// more than the limit, and hold the most recent events. All of it runs under the write lock, in
/// the flusher (or a recording thread draining a backlog), never in a signal handler.
enum FlightRecorder {
    /// Bytes one segment may hold (half the limit); 0: no limit.
    nonisolated(unsafe) private(set) static var segmentBytes: Int64 = 0
    /// Which segment the file is (1 for the first), and when it began (CLOCK_MONOTONIC ns).
    nonisolated(unsafe) private static var segment: UInt64 = 1
    nonisolated(unsafe) private static var segmentStart: UInt64 = 0
    /// The smallest limit: two segments, each with room for the chunks a busy flush may owe its file.
    static let minimumLimit: Int64 = 4 << 20

    /// `BIND_TRACE_LIMIT` in bytes (`256M`, `1G`, `512K`, plain bytes; binary units), nil when unset
    /// or unreadable (then said on standard error); a limit under ``minimumLimit`` is raised to it.
    static func limitFromEnvironment() -> Int64? {
        guard let raw = getenv("BIND_TRACE_LIMIT") else { return nil }
        let text = String(cString: raw)
        guard let limit = parseLimit(text) else {
            TraceRecorder.printError(
                "bind-trace: BIND_TRACE_LIMIT=\(text) is not a size (256M, 1G, 512K or bytes); the trace is not bounded"
            )
            return nil
        }
        if limit < minimumLimit {
            TraceRecorder.printError("bind-trace: BIND_TRACE_LIMIT=\(text) is below 4M; the trace is bounded to 4M")
            return minimumLimit
        }
        return limit
    }

    /// `text` as a size in bytes: digits, then optionally K, M or G (powers of 1024, either case, an
    /// optional trailing `B` or `iB`).
    static func parseLimit(_ text: String) -> Int64? {
        var digits = text.drop { $0 == " " }
        while digits.last == " " { digits = digits.dropLast() }
        var unit: Int64 = 1
        for suffix in ["iB", "ib", "B", "b"] where digits.hasSuffix(suffix) && digits.count > suffix.count {
            digits = digits.dropLast(suffix.count)
            break
        }
        switch digits.last {
        case "K", "k": unit = 1 << 10
        case "M", "m": unit = 1 << 20
        case "G", "g": unit = 1 << 30
        default: break
        }
        if unit != 1 { digits = digits.dropLast() }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let value = Int64(digits), value > 0 else { return nil }
        let (bytes, overflow) = value.multipliedReportingOverflow(by: unit)
        return overflow ? nil : bytes
    }

    /// A new recording to a file begins (its first segment). Write lock held.
    static func begin(limit: Int64?) {
        segmentBytes = (limit ?? 0) / 2
        segment = 1
        segmentStart = bind_trace_monotonic_ns()
    }

    /// Whether writing `chunks` would take `file` past the point where its segment must end: the
    /// segment's share less room for what a flush may still owe it (``rotateLocked()`` writes that
    /// to it only while it fits, so the share is never exceeded).
    static func isFull(_ file: TraceFile?, adding chunks: [RecorderState.Chunk]) -> Bool {
        guard segmentBytes > 0, let file else { return false }
        let adding = chunks.reduce(0) { $0 + Int64($1.bytes.count) }
        return Int64(file.written) + adding > segmentBytes - min(segmentBytes / 2, 2 << 20)
    }

    /// Ends the file's segment and goes on in a new one at its path (see ``FlightRecorder``). The
    /// chunks the file is owed go to it while they fit its share; any that do not are counted in
    /// the new segment's `window` record as events before it that no file holds. Write lock held.
    static func rotateLocked() {
        guard var finished = TraceRecorder.file else { return }
        let next: TraceFile
        do {
            next = try TraceFile(nextSegmentOf: finished.path)
        } catch {
            TraceRecorder.printError("bind-trace: \(error); the flight recording goes on unbounded")
            segmentBytes = 0
            return
        }
        let state = TraceRecorder.state
        bind_core_lock_lock(TraceRecorder.recordingLock)
        let pattern = state.pointee.filePattern ?? finished.path
        let committed = state.pointee.committedChunk
        let finishedFirst = state.pointee.fileFirstEvent
        let owed = state.pointee.fileClosed(keepingStream: true).filter { $0.number > committed }
        // Room for the end record and a `lost` record before it.
        var size = Int64(finished.written) + 32
        var fitting: [RecorderState.Chunk] = []
        var spilled: UInt64 = 0
        for chunk in owed {
            if spilled == 0 && size + Int64(chunk.bytes.count) <= segmentBytes {
                fitting.append(chunk)
                size += Int64(chunk.bytes.count)
            } else {
                spilled += UInt64(chunk.events)
            }
        }
        let first = state.pointee.lastWritten &+ 1
        var header = TraceFormat.header
        TraceFile.writerRecord.encode(into: &header)
        TraceRecord.window(
            eventsBefore: first &- state.pointee.streamFirstEvent, inPrevious: first &- finishedFirst &- spilled,
            windowStart: segmentStart, segment: segment &+ 1
        ).encode(into: &header)
        state.pointee.openFile(pattern: pattern, descriptor: next.descriptor, header: &header)
        bind_core_lock_unlock(TraceRecorder.recordingLock)
        for chunk in fitting { chunk.bytes.withUnsafeBytes { finished.write($0, events: chunk.events) } }
        finished.close()
        TraceRecorder.file = next
        TraceRecorder.writeHeaderLocked(header)
        TraceFile.rotate(next.path)
        segment &+= 1
        segmentStart = bind_trace_monotonic_ns()
    }
}
#endif
