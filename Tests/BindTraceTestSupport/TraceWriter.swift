import BindTraceFormat
@_spi(Harness) import BindTraceModel

/// Writes a trace as the recorder would, with the format's own encoder: for tests of the reader and
/// of every tool on traces the plain build cannot record, on damaged traces, and on large ones.
///
/// ```swift
/// var trace = TraceWriter()
/// trace.event(.released(output: 1))
/// trace.end()
/// let events = try TraceReader(bytes: trace.bytes).readAll()
/// ```
package struct TraceWriter {
    /// The trace so far; tests of damaged traces may append raw bytes.
    package var bytes: [UInt8]
    private var strings: [String: UInt64] = [:]
    private var sites: [SourceSite: UInt64] = [:]
    /// The events written so far.
    package private(set) var sequence: UInt64 = 0

    /// A trace with the header of version `major.minor` and, unless `clock` is false, a clock record
    /// (tick 0 = 0 ns, 10⁹ ticks per second).
    package init(major: UInt16 = TraceFormat.majorVersion, minor: UInt16 = TraceFormat.minorVersion, clock: Bool = true)
    {
        bytes = TraceFormat.header(major: major, minor: minor)
        if clock { record(.clock(ticks: 0, nanoseconds: 0, ticksPerSecond: 1_000_000_000)) }
    }

    /// Appends one record as it is.
    package mutating func record(_ record: TraceRecord) {
        record.encode(into: &bytes)
    }

    /// Appends a record with any tag and payload (varint fields, then raw bytes): for damaged traces.
    package mutating func raw(tag: UInt8, fields: [UInt64], trailing: [UInt8] = []) {
        var payload: [UInt8] = []
        for field in fields { payload += Self.varint(field) }
        payload += trailing
        bytes += [tag] + Self.varint(UInt64(payload.count)) + payload
    }

    /// The id of `text`, defining it first if it is new.
    package mutating func string(_ text: String) -> UInt64 {
        if let id = strings[text] { return id }
        let id = UInt64(strings.count + 1)
        strings[text] = id
        record(.string(id: id, utf8: Array(text.utf8)))
        return id
    }

    /// The id of the call site `site`, defining it (and its file) first if it is new.
    package mutating func site(_ site: SourceSite) -> UInt64 {
        if let id = sites[site] { return id }
        let file = string(site.file)
        let id = UInt64(sites.count + 1)
        sites[site] = id
        record(.site(id: id, file: file, line: UInt64(site.line)))
        return id
    }

    /// Says the events that follow were recorded by thread `index`.
    package mutating func thread(_ index: UInt64, name: String? = nil) {
        let nameID = string(name ?? "thread \(index)")
        record(.thread(index: index, name: nameID))
    }

    /// Appends an event, `delta` ticks (ns) after the previous one; returns its sequence number.
    @discardableResult
    package mutating func event(_ kind: TraceEvent.Kind, delta: UInt64 = 1000) -> UInt64 {
        sequence += 1
        let event = encoded(kind, own: sequence)
        record(.event(delta: delta, event))
        return sequence
    }

    /// The end record a recording that stopped normally writes last.
    package mutating func end() { record(.end) }

    /// A `lost` record: `count` events the recorder could not write; the next event's number is
    /// `count` past the last one's, as the recorder numbers them.
    package mutating func lost(_ count: UInt64) {
        record(.lost(count: count))
        sequence += count
    }

    /// Chunk `number` as the recorder writes one to a file: its `chunk` record, then the records
    /// `body` appends; returns the chunk's bytes (its `chunk` record included), to write again.
    @discardableResult
    package mutating func chunk(_ number: UInt64, _ body: (inout TraceWriter) -> Void) -> [UInt8] {
        let start = bytes.count
        let firstEvent = sequence + 1
        body(&self)
        let records = Array(bytes[start...])
        bytes.removeSubrange(start...)
        record(.chunk(number: number, firstEvent: firstEvent, bytes: UInt64(records.count)))
        bytes += records
        return Array(bytes[start...])
    }

    /// LEB128, as the format writes numbers.
    package static func varint(_ value: UInt64) -> [UInt8] {
        var value = value
        var result: [UInt8] = []
        while value >= 0x80 {
            result.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        result.append(UInt8(value))
        return result
    }

    func cause(_ cause: TraceCause?, own: UInt64) -> CauseField {
        guard let cause else { return .none }
        return CauseField(back: own &- cause.event, subscription: cause.subscription)
    }

    // The kind whose record is not a plain list of its fields (EventKinds.toml, `custom`); the
    // generated `encoded(_:own:)` (Generated/TraceWriter+Kinds.swift) calls it.
    mutating func encodedBound(_ binding: TraceEvent.Binding, own: UInt64) -> EventRecord {
        var flags: UInt64 = binding.isInternal ? TraceFormat.BindFlag.internal : 0
        if binding.preexisting { flags |= TraceFormat.BindFlag.preexisting }
        // Strings in the recorder's order: the file, then the target's type.
        let file = string(binding.site.file)
        let target = binding.target.map { EventRecord.BoundTarget(type: string($0.type), identity: $0.identity) }
        return .bound(
            subscription: binding.subscription, output: binding.output, file: file, line: UInt64(binding.site.line),
            flags: flags, target: target, scope: binding.scope, cause: cause(binding.cause, own: own))
    }

    mutating func captureFields(_ captures: [TraceEvent.Capture]) -> [CaptureField] {
        captures.map { capture in
            CaptureField(
                strength: CaptureField.Strength(capture.strength), type: string(capture.type),
                identity: capture.identity,
                holds: capture.holds.map {
                    CaptureField.HeldOutput(path: $0.path.isEmpty ? 0 : string($0.path), output: $0.output)
                })
        }
    }
}

extension CaptureField.Strength {
    init(_ strength: TraceEvent.Capture.Strength) {
        switch strength {
        case .strong: self = .strong
        case .weak: self = .weak
        case .unowned: self = .unowned
        case .unknown: self = .unknown
        }
    }
}
