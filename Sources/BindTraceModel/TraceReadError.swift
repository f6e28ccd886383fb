import BindTraceFormat

/// Why a trace could not be read. Every case names the byte offset where reading stopped.
public enum TraceReadError: Error, Equatable, Sendable, CustomStringConvertible {
    case cannotOpen(reason: String)
    case notATrace
    case truncatedHeader(length: Int)
    case unsupportedVersion(major: UInt16, minor: UInt16)
    case recordTooLong(offset: Int, length: Int)
    case malformedRecord(offset: Int, tag: UInt8, reason: String)
    case unknownString(offset: Int, id: UInt64)
    case stringDefinedTwice(offset: Int, id: UInt64)
    case readFailed(offset: Int, reason: String)

    /// The byte offset where the problem was found (0 for problems with the file as a whole).
    public var offset: Int {
        switch self {
        case .cannotOpen, .notATrace, .truncatedHeader, .unsupportedVersion: 0
        case .recordTooLong(let offset, _), .malformedRecord(let offset, _, _), .unknownString(let offset, _),
            .stringDefinedTwice(let offset, _), .readFailed(let offset, _):
            offset
        }
    }

    public var description: String {
        switch self {
        case .cannotOpen(let reason): "cannot open: \(reason)"
        case .notATrace: "not a Bind trace (wrong magic at offset 0)"
        case .truncatedHeader(let length):
            length == 0
                ? "empty file: no trace header (a recording that had not written yet, or not a trace)"
                : "truncated header: \(length) of 16 bytes"
        case .unsupportedVersion(let major, let minor):
            "unsupported trace format version \(major).\(minor) (this reader reads 1.x)"
        case .recordTooLong(let offset, let length):
            "corrupt record at offset \(offset): claims \(length) bytes (at most \(TraceFormat.maximumRecordLength))"
        case .malformedRecord(let offset, let tag, let reason):
            "malformed record (tag \(tag)) at offset \(offset): \(reason)"
        case .unknownString(let offset, let id): "record at offset \(offset) refers to undefined string \(id)"
        case .stringDefinedTwice(let offset, let id): "string \(id) defined twice (offset \(offset))"
        case .readFailed(let offset, let reason): "read failed at offset \(offset): \(reason)"
        }
    }
}

/// Something wrong with a trace that does not stop reading it.
public struct TraceWarning: Hashable, Sendable, CustomStringConvertible {
    public var offset: Int
    public var message: String

    @_spi(Harness) public init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }

    public var description: String { "offset \(offset): \(message)" }
}

/// Why a trace is not whole (``TraceReader/gaps``).
package enum TraceGap: Hashable, Sendable, CustomStringConvertible {
    /// The recorder could not write this many events (a failed write: disk full, file removed).
    case lostEvents(UInt64)
    /// The trace ends inside a record; this many bytes were ignored.
    case cutShort(ignoredBytes: Int)
    /// The recording did not stop normally: the process was killed, crashed, or is still running.
    case noEndRecord

    package var description: String {
        switch self {
        case .lostEvents(let count): "the recorder lost \(count) events"
        case .cutShort(let bytes): "the trace is cut short (\(bytes) bytes of an incomplete record ignored)"
        case .noEndRecord: "the trace has no end record (the recording process was killed, crashed or is still running)"
        }
    }
}
