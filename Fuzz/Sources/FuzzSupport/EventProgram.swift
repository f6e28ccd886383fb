@_spi(Harness) import BindTraceModel

/// Turns fuzz bytes into a sequence of decoded events, so the replay sees far more consistent (and
/// subtly inconsistent) histories than random trace bytes would decode to.
///
/// Each event takes one opcode byte, then small operands: ids come from a space of 8 (and 8 more
/// from 2^63, for a byte of 0xF8 or more) so events keep referring to the same Outputs, subscriptions
/// and scopes; threads are 1 to 4, or (for a quarter of the opcodes) one of two huge numbers; causes point a few events back; strings
/// come from a small table of plain and hostile texts. Inputs that start with the trace magic are
/// read as traces instead (the events before the first error), so the real traces of the corpus
/// seed this target too.
public struct EventProgram {
    private let bytes: [UInt8]
    private var index = 0

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The events an input stands for.
    package static func events(from bytes: [UInt8]) -> [TraceEvent] {
        if bytes.starts(with: Array("BINDTRC\u{1A}".utf8)) {
            guard let reader = try? TraceReader(bytes: bytes) else { return [] }
            var events: [TraceEvent] = []
            while let event = try? reader.next() { events.append(event) }
            return events
        }
        var program = EventProgram(bytes)
        return program.decode()
    }

    static let wideThreads: [UInt32] = [0xE000_0000, .max]

    static let strings = [
        "", "App/View.swift", "Int", "String", "name", "sign-in", "a\u{0}b", "<script>alert(1)</script>",
        "\"quoted\" & 'single'", "\\N\\G\\L", "\u{202E}reversed", "line\nbreak\r\n", "e\u{301}\u{301}\u{301}",
        String(repeating: "long ", count: 60), "\u{FFFD}", "👩‍👩‍👧‍👦",
    ]

    mutating func byte() -> UInt8? {
        guard index < bytes.count else { return nil }
        defer { index += 1 }
        return bytes[index]
    }

    /// An operand below `range`; for ids (range 8), a byte of 0xF8 or more picks one of eight ids
    /// from 2^63 instead, since ids in traces are untrusted numbers.
    mutating func small(_ range: UInt8 = 8) -> UInt64 {
        let value = byte() ?? 0
        if range == 8 && value >= 0xF8 { return 1 << 63 | UInt64(value & 7) }
        return UInt64(value % range)
    }
    mutating func string() -> String { Self.strings[Int(byte() ?? 0) % Self.strings.count] }
    mutating func site() -> SourceSite { SourceSite(file: string(), line: UInt(byte() ?? 0)) }
    mutating func outputKind() -> OutputKind { OutputKind(rawValue: (byte() ?? 0) % 9) ?? .output }

    mutating func cause(_ sequence: UInt64) -> TraceCause? {
        let back = UInt64(byte() ?? 0) % 6
        guard back != 0, back < sequence else { return nil }
        return TraceCause(subscription: small(), event: sequence - back)
    }

    mutating func decode() -> [TraceEvent] {
        var events: [TraceEvent] = []
        var time: UInt64 = 0
        while let opcode = byte(), events.count < 4096 {
            let sequence = UInt64(events.count + 1)
            // Four threads, or (top two bits set) a number no recorder hands out.
            let thread =
                opcode & 0xC0 == 0xC0 ? Self.wideThreads[Int(opcode >> 4 & 1)] : UInt32(opcode >> 4 & 3) + 1
            let kind = kind(opcode: opcode, sequence: sequence)
            time += UInt64(opcode)
            events.append(
                TraceEvent(sequence: sequence, time: time, thread: thread, offset: 16 + events.count, kind: kind))
        }
        return events
    }

    // `kind(opcode:sequence:)`, `rarerKind(_:)` and `opcode(for:)` are generated from the format's
    // table (Generated/EventProgram+Kinds.swift): every kind of the format is drawn. These draw what
    // a field type of the table cannot say.

    /// A bind (EventKinds.toml, `custom`): its flags byte says internal, Binder and preexisting.
    mutating func boundKind(_ sequence: UInt64) -> TraceEvent.Kind {
        let flags = small()
        return .bound(
            TraceEvent.Binding(
                subscription: small(), output: small(), site: site(), isInternal: flags & 1 != 0,
                target: flags & 2 != 0 ? BinderTarget(type: string(), identity: small(3)) : nil,
                scope: small(4), preexisting: flags & 4 != 0, cause: cause(sequence)))
    }

    /// Up to three captures of every strength, each holding up to two Outputs.
    mutating func captureList() -> [TraceEvent.Capture] {
        let strengths: [TraceEvent.Capture.Strength] = [.strong, .weak, .unowned, .unknown]
        return (0..<small(4)).map { _ in
            TraceEvent.Capture(
                strength: strengths[Int(small(4))], type: string(), identity: small(3),
                holds: (0..<small(3)).map { _ in .init(path: string(), output: small()) })
        }
    }
}
