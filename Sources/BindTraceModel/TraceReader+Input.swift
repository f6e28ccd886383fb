#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

// Reading bytes from the file or the in-memory trace, and the end of the input.

extension TraceReader {
    func cutShort(at offset: Int) {
        let total = bufferOffset + count
        ignoredBytes = total - offset
        warnings.append(
            TraceWarning(
                offset: offset,
                message:
                    "trace is cut short: the last \(total - offset) bytes hold an incomplete record and were ignored"
            ))
        finished = true
        isComplete = false
        closeSource()
    }

    func finish(at offset: Int) {
        finished = true
        closeSource()
        if !isComplete {
            warnings.append(
                TraceWarning(
                    offset: offset,
                    message: "trace has no end record: the recording process was killed or is still running"))
        }
    }

    /// Following a trace that grows: the file ends here for now (nothing more, or a record not yet whole),
    /// so reading stops without finishing; the next read looks at the file again.
    func waitForMore() -> (tag: UInt8, payload: Range<Int>)? {
        caughtUp = true
        if descriptor >= 0 { atEndOfSource = false }
        return nil
    }

    /// Makes at least `wanted` bytes available from `position`, unless the source ends first.
    @inline(__always)
    func fill(atLeast wanted: Int) throws(TraceReadError) {
        // Hot path: the record is already in the buffer.
        guard count - position < wanted else { return }
        try refill(atLeast: wanted)
    }

    @inline(never)
    func refill(atLeast wanted: Int) throws(TraceReadError) {
        guard !atEndOfSource, descriptor >= 0 else { return }
        if position > 0 {
            // Keep the unread tail (at most one partial record) at the front.
            let remaining = count - position
            if remaining > 0 {
                buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + position, byteCount: remaining)
            }
            bufferOffset += position
            count = remaining
            position = 0
        }
        while count < wanted && !atEndOfSource {
            let room = min(Self.chunkSize, buffer.count - count)
            let got = readBytes(descriptor, buffer.baseAddress! + count, room)
            if got < 0 {
                if errno == EINTR { continue }
                throw .readFailed(offset: bufferOffset + count, reason: String(cString: strerror(errno)))
            }
            if got == 0 { atEndOfSource = true }
            count += got
        }
    }

    func closeSource() {
        atEndOfSource = true
        if descriptor >= 0 {
            close(descriptor)
            descriptor = -1
        }
    }
}

/// `read(2)`, out of the reader so that ``TraceReader/read(into:maximumEvents:)`` does not hide it.
private func readBytes(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
