/// Constants of the binary trace format, shared by the recorder (in `Bind`) and the reader (in
/// `BindTraceModel`).
///
/// docs/trace-format.md describes the layout. Changing a value here changes the format: bump
/// ``TraceFormat/majorVersion`` for incompatible changes, ``TraceFormat/minorVersion`` for new tags.
@usableFromInline
package enum TraceFormat {
    /// The first 8 bytes of every trace file.
    package static let magic: [UInt8] = Array("BINDTRC\u{1A}".utf8)
    package static let majorVersion: UInt16 = 1
    /// 1: `contained` and `handleReleased` events. 2: `chunk`, `continues` and `writer` records
    /// and the `stopped` event. 3: `site` records and `calledAt` events. 4: `captured` and `resumed`
    /// events, `signal` and `window` records.
    package static let minorVersion: UInt16 = 4
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

    /// The kind of a record; the raw value is its first byte.
    @usableFromInline
    package enum Tag: UInt8, Sendable, CaseIterable {
        // Metadata: no sequence number.
        case clock = 1
        case string = 2
        case thread = 3
        /// Written last by a recording that stopped normally.
        case end = 4
        /// Events the writer could not deliver (a failed write): their count.
        case lost = 5
        /// Starts each chunk the recorder writes to a file: its number, its first event, its length.
        case chunk = 6
        /// Opens a file that continues one deleted, replaced or truncated while it was written.
        case continues = 7
        /// Opens a file: the process that writes it (the rule for one path in one run).
        case writer = 8
        // Events: each takes the next sequence number.
        case outputCreated = 10
        case edge = 11
        case innerSwitch = 12
        case bound = 13
        case update = 14
        case fire = 15
        case unbound = 16
        case dangling = 17
        case released = 18
        case scopeBegin = 19
        case scopeEnd = 20
        case mark = 21
        case label = 22
        case contained = 23
        case handleReleased = 24
        /// An operator with several sources stopped because one of them was released.
        case stopped = 25
        /// What a bound closure (or an operator's transform) captures: follows its `bound`. Since 1.4.
        case captured = 26
        /// Metadata (no sequence number): a call site's definition.
        case site = 30
        /// The call site of a root update or fire.
        case calledAt = 31
        /// A delivery Bind deferred past its nesting limit resumes: its cause frame is open again.
        /// Since 1.4 (tag 32 is left for another record of 1.4).
        case resumed = 33
        /// Metadata (no sequence number), right before the end record: the recording ended because
        /// the process got this signal (SIGTERM, SIGINT, SIGHUP). Since 1.4.
        case signal = 34
        /// Metadata, after the `writer` record of a flight recording's later segment (`BIND_TRACE_LIMIT`):
        /// what came before the file and where it is. Since 1.4.
        case window = 35

        package var isEvent: Bool { rawValue >= 10 && self != .site && self != .signal && self != .window }

        /// The event kinds, in tag order: the order of every per-kind table (statistics, summaries).
        package static let events = allCases.filter(\.isEvent)

        /// The record's name in dumps, summaries and JSON: an event's is what happened (`updated`,
        /// `scopeBegan`), which is also its `TraceEvent.Kind` case; metadata's is its tag's.
        package var name: String {
            switch self {
            case .clock: "clock"
            case .string: "string"
            case .thread: "thread"
            case .end: "end"
            case .lost: "lost"
            case .chunk: "chunk"
            case .continues: "continues"
            case .writer: "writer"
            case .site: "site"
            case .signal: "signal"
            case .window: "window"
            case .outputCreated: "outputCreated"
            case .edge: "edge"
            case .innerSwitch: "innerSwitch"
            case .bound: "bound"
            case .update: "updated"
            case .fire: "fired"
            case .unbound: "unbound"
            case .dangling: "dangling"
            case .released: "released"
            case .scopeBegin: "scopeBegan"
            case .scopeEnd: "scopeEnded"
            case .mark: "mark"
            case .label: "labeled"
            case .contained: "subscriptionContained"
            case .handleReleased: "handleReleased"
            case .stopped: "stopped"
            case .captured: "captured"
            case .calledAt: "calledAt"
            case .resumed: "resumed"
            }
        }
    }

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
