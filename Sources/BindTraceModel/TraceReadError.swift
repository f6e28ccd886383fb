import BindTraceFormat

/// Why a trace could not be read. Every case names the byte offset where reading stopped.
public enum TraceReadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file could not be opened; `reason` is the system's message.
    case cannotOpen(reason: String)
    /// The file does not start with a trace's magic bytes: it is not a Bind trace.
    case notATrace
    /// The file is shorter than a trace's 16-byte header (`length` bytes; 0: an empty file).
    case truncatedHeader(length: Int)
    /// The trace was written in a format version this reader does not read (it reads 1.x).
    case unsupportedVersion(major: UInt16, minor: UInt16)
    /// The record at `offset` claims more bytes than any record may hold: the file is corrupt.
    case recordTooLong(offset: Int, length: Int)
    /// The record at `offset` (of kind `tag`) cannot be decoded; `reason` says why.
    case malformedRecord(offset: Int, tag: UInt8, reason: String)
    /// The record at `offset` refers to a string the trace never defined.
    case unknownString(offset: Int, id: UInt64)
    /// The record at `offset` defines a string id the trace had already defined.
    case stringDefinedTwice(offset: Int, id: UInt64)
    /// Reading the file failed at `offset`; `reason` is the system's message.
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

    /// One line for a person: what is wrong and where, `corrupt record at offset 4096: claims …`.
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
    /// Where in the trace the problem is, in bytes from its start.
    public var offset: Int
    /// What is wrong, in one line: `the recorder lost 12 events here`.
    public var message: String

    @_spi(Harness) public init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }

    /// `offset 4096: message`.
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
