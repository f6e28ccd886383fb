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

    private mutating func byte() -> UInt8? {
        guard index < bytes.count else { return nil }
        defer { index += 1 }
        return bytes[index]
    }

    /// An operand below `range`; for ids (range 8), a byte of 0xF8 or more picks one of eight ids
    /// from 2^63 instead, since ids in traces are untrusted numbers.
    private mutating func small(_ range: UInt8 = 8) -> UInt64 {
        let value = byte() ?? 0
        if range == 8 && value >= 0xF8 { return 1 << 63 | UInt64(value & 7) }
        return UInt64(value % range)
    }
    private mutating func string() -> String { Self.strings[Int(byte() ?? 0) % Self.strings.count] }
    private mutating func site() -> SourceSite { SourceSite(file: string(), line: UInt(byte() ?? 0)) }
    private mutating func outputKind() -> OutputKind { OutputKind(rawValue: (byte() ?? 0) % 9) ?? .output }

    private mutating func cause(_ sequence: UInt64) -> TraceCause? {
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
            let kind: TraceEvent.Kind
            switch opcode % 16 {
            case 0, 1:
                kind = .outputCreated(
                    TraceEvent.OutputCreation(
                        output: small(), kind: outputKind(), valueType: string(), site: site(),
                        label: byte().map { $0 & 1 == 0 ? nil : Self.strings[Int($0 >> 1) % Self.strings.count] }
                            ?? nil,
                        scope: small(4), preexisting: small(4) == 0, cause: cause(sequence)))
            case 2: kind = .edge(source: small(), derived: small(), operation: outputKind())
            case 3: kind = .innerSwitch(flatMap: small(), inner: small())
            case 4, 5:
                let flags = small()
                kind = .bound(
                    TraceEvent.Binding(
                        subscription: small(), output: small(), site: site(), isInternal: flags & 1 != 0,
                        target: flags & 2 != 0 ? BinderTarget(type: string(), identity: small(3)) : nil,
                        scope: small(4), preexisting: flags & 4 != 0, cause: cause(sequence)))
            case 6, 7: kind = .updated(output: small(), cause: cause(sequence), preview: small(3) == 0 ? string() : nil)
            case 8: kind = .fired(output: small(), cause: cause(sequence), preview: nil)
            case 9:
                kind = .unbound(
                    subscription: small(), reason: UnbindReason(rawValue: UInt8(small(4))) ?? .unbind,
                    cause: cause(sequence))
            case 10: kind = .dangling(subscription: small())
            case 11: kind = .released(output: small())
            case 12: kind = .scopeBegan(id: small(4), parent: small(4), name: string(), site: site())
            case 13: kind = .scopeEnded(id: small(4))
            case 14: kind = .mark(name: string(), scope: small(4))
            default: kind = rarerKind(sequence)
            }
            time += UInt64(opcode)
            events.append(
                TraceEvent(sequence: sequence, time: time, thread: thread, offset: 16 + events.count, kind: kind))
        }
        return events
    }

    /// The kinds an opcode's last value shares, chosen by one more byte: every kind of the format is
    /// generated (`EventKindConformanceTests` checks the list against the format's tags).
    private mutating func rarerKind(_ sequence: UInt64) -> TraceEvent.Kind {
        switch small(7) {
        case 0: return .labeled(output: small(), label: string())
        case 1: return .subscriptionContained(subscription: small(), container: small(4))
        case 2: return .handleReleased(subscription: small())
        case 3: return .stopped(derived: small(), source: small())
        case 4: return .calledAt(event: sequence > 1 ? sequence - 1 - small(4) % (sequence - 1) : 1, site: site())
        case 5: return .resumed(delivery: cause(sequence), cause: cause(sequence))
        default:
            let strengths: [TraceEvent.Capture.Strength] = [.strong, .weak, .unowned, .unknown]
            let captures = (0..<small(4)).map { _ in
                TraceEvent.Capture(
                    strength: strengths[Int(small(4))], type: string(), identity: small(3),
                    holds: (0..<small(3)).map { _ in .init(path: string(), output: small()) })
            }
            return .captured(subscription: small(), captures: captures)
        }
    }

    /// Bytes that ``decode()`` turns into an event of `kind`'s case. A switch without a default: a new
    /// kind of the format does not compile here (`make fuzz-smoke` builds it) until the generator makes it.
    package static func opcode(for kind: TraceEvent.Kind) -> [UInt8] {
        switch kind {
        case .outputCreated: [0]
        case .edge: [2]
        case .innerSwitch: [3]
        case .bound: [4]
        case .updated: [6]
        case .fired: [8]
        case .unbound: [9]
        case .dangling: [10]
        case .released: [11]
        case .scopeBegan: [12]
        case .scopeEnded: [13]
        case .mark: [14]
        case .labeled: [15, 0]
        case .subscriptionContained: [15, 1]
        case .handleReleased: [15, 2]
        case .stopped: [15, 3]
        case .calledAt: [15, 4]
        case .resumed: [15, 5]
        case .captured: [15, 6]
        }
    }
}
