/// Constants of the binary trace format, shared by the recorder (in `Bind`) and the reader (in
/// `BindTraceModel`).
///
/// docs/trace-format.md describes the layout. Changing a value here changes the format: bump
/// ``TraceFormat/majorVersion`` for incompatible changes, ``TraceFormat/minorVersion`` for new tags.
/// The tags, `Tag`, and `minorVersion` are generated from EventKinds.toml (`make generate`).
@usableFromInline
package enum TraceFormat {
    /// The first 8 bytes of every trace file.
    package static let magic: [UInt8] = Array("BINDTRC\u{1A}".utf8)
    package static let majorVersion: UInt16 = 1
    /// magic + major + minor + flags.
    package static let headerSize = 16
    /// Strings longer than this are cut (at a character boundary) by the recorder.
    package static let maximumStringLength = 1024
    /// Value previews longer than this are cut.
    package static let maximumPreviewLength = 120
    /// The longest string a reader accepts: 16 times what the recorder writes, room for future writers.
    package static let maximumReadableStringLength = 16 * 1024
    /// No trace numbers more events (the recorder's sequence numbers have 44 bits): a `lost` count
    /// or a chunk's first event past it is corruption, not a reason to count on.
    package static let maximumSequence: UInt64 = 1 << 44
    /// No record is larger; a length above it is corruption, not a reason to allocate. The largest
    /// record the recorder writes is a string record (a few bytes plus ``maximumStringLength``).
    package static let maximumRecordLength = 64 * 1024

    /// How a trace file was lost while the recorder wrote it (a `continues` record's reason).
    package enum FileLoss: UInt64, Sendable {
        /// Its last link was removed.
        case deleted = 0
        /// Its path now names another file.
        case replaced = 1
        /// It is shorter than what was written to it.
        case truncated = 2

        package var description: String {
            switch self {
            case .deleted: "deleted"
            case .replaced: "replaced"
            case .truncated: "truncated"
            }
        }
    }

    /// Bits of a `bound` record's flags.
    @usableFromInline
    package enum BindFlag {
        // Computed, so the recorder's inlined encoders fold them in.
        @inlinable package static var `internal`: UInt64 { 1 }
        @inlinable package static var binder: UInt64 { 2 }
        @inlinable package static var preexisting: UInt64 { 4 }
    }

    /// The 16-byte file header: magic, major and minor version (little endian), flags.
    package static var header: [UInt8] { header(major: majorVersion, minor: minorVersion) }

    package static func header(major: UInt16, minor: UInt16) -> [UInt8] {
        magic + [UInt8(major & 0xFF), UInt8(major >> 8), UInt8(minor & 0xFF), UInt8(minor >> 8), 0, 0, 0, 0]
    }

    /// The UTF-8 of `text`, cut at a character boundary to at most `limit` bytes (with "…" when cut).
    package static func truncated(_ text: String, to limit: Int) -> [UInt8] {
        let utf8 = Array(text.utf8)
        guard utf8.count > limit else { return utf8 }
        let ellipsis: [UInt8] = [0xE2, 0x80, 0xA6]
        var result: [UInt8] = []
        for character in text {
            let bytes = Array(character.utf8)
            if result.count + bytes.count + ellipsis.count > limit { break }
            result += bytes
        }
        return result + ellipsis
    }
}
