import Bind
import BindTraceModel

/// Writes a trace in the binary format directly, as the recorder would: for traces the plain build
/// cannot record, for damaged traces, and for the benchmark's large ones.
struct TraceFileWriter {
    private(set) var bytes: [UInt8] = TraceFormat.header
    private var strings: [String: UInt64] = [:]
    private var sequence: UInt64 = 0

    init(clock: Bool = true) {
        if clock { record(.clock) { $0 += varint(0) + varint(0) + varint(1_000_000_000) } }
    }

    /// The events written so far.
    var eventCount: UInt64 { sequence }

    mutating func thread(_ index: UInt64) {
        let name = string("thread \(index)")
        record(.thread) { $0 += varint(index) + varint(name) }
    }

    @discardableResult
    mutating func output(
        _ id: UInt64, kind: OutputKind = .output, type: String = "Int", file: String = "App/Screen.swift",
        line: UInt64, label: String? = nil, scope: UInt64 = 0, cause: (subscription: UInt64, event: UInt64)? = nil
    ) -> UInt64 {
        let typeID = string(type)
        let fileID = string(file)
        let labelID = label.map { string($0) } ?? 0
        return event(.outputCreated) { payload, sequence in
            payload += varint(id) + varint(UInt64(kind.rawValue)) + varint(typeID) + varint(fileID) + varint(line)
            payload += varint(labelID) + varint(scope) + varint(0) + Self.cause(cause, sequence)
        }
    }

    @discardableResult
    mutating func bind(
        _ subscription: UInt64, to output: UInt64, file: String = "App/Screen.swift", line: UInt64,
        isInternal: Bool = false, target: (type: String, identity: UInt64)? = nil, scope: UInt64 = 0,
        cause: (subscription: UInt64, event: UInt64)? = nil
    ) -> UInt64 {
        let fileID = string(file)
        let targetType = target.map { string($0.type) }
        return event(.bound) { payload, sequence in
            var flags: UInt64 = isInternal ? TraceFormat.BindFlag.internal : 0
            if target != nil { flags |= TraceFormat.BindFlag.binder }
            payload += varint(subscription) + varint(output) + varint(fileID) + varint(line) + varint(flags)
            if let target, let targetType { payload += varint(targetType) + varint(target.identity) }
            payload += varint(scope) + Self.cause(cause, sequence)
        }
    }

    @discardableResult
    mutating func update(_ output: UInt64, cause: (subscription: UInt64, event: UInt64)? = nil) -> UInt64 {
        event(.update) { payload, sequence in payload += varint(output) + Self.cause(cause, sequence) + varint(0) }
    }

    @discardableResult
    mutating func unbind(_ subscription: UInt64, reason: UnbindReason = .unsubscribe) -> UInt64 {
        event(.unbound) { payload, _ in payload += varint(subscription) + varint(UInt64(reason.rawValue)) + varint(0) }
    }

    @discardableResult
    mutating func release(_ output: UInt64) -> UInt64 {
        event(.released) { payload, _ in payload += varint(output) }
    }

    @discardableResult
    mutating func edge(_ source: UInt64, _ derived: UInt64, _ operation: OutputKind = .map) -> UInt64 {
        event(.edge) { payload, _ in payload += varint(source) + varint(derived) + varint(UInt64(operation.rawValue)) }
    }

    @discardableResult
    mutating func beginScope(_ id: UInt64, name: String, file: String = "App/Screen.swift", line: UInt64) -> UInt64 {
        let nameID = string(name)
        let fileID = string(file)
        return event(.scopeBegin) { payload, _ in
            payload += varint(id) + varint(0) + varint(nameID) + varint(fileID) + varint(line)
        }
    }

    @discardableResult
    mutating func endScope(_ id: UInt64) -> UInt64 {
        event(.scopeEnd) { payload, _ in payload += varint(id) }
    }

    /// The end record a recording that stopped normally writes last.
    mutating func end() { bytes += [TraceFormat.Tag.end.rawValue, 0] }

    // MARK: - Encoding

    private mutating func string(_ text: String) -> UInt64 {
        if let id = strings[text] { return id }
        let id = UInt64(strings.count + 1)
        strings[text] = id
        record(.string) { $0 += varint(id) + Array(text.utf8) }
        return id
    }

    private mutating func event(_ tag: TraceFormat.Tag, _ payload: (inout [UInt8], UInt64) -> Void) -> UInt64 {
        sequence += 1
        let own = sequence
        record(tag) { bytes in
            bytes += varint(1000)  // a microsecond after the previous event
            payload(&bytes, own)
        }
        return own
    }

    private mutating func record(_ tag: TraceFormat.Tag, _ payload: (inout [UInt8]) -> Void) {
        var body: [UInt8] = []
        payload(&body)
        bytes.append(tag.rawValue)
        bytes += varint(UInt64(body.count))
        bytes += body
    }

    private static func cause(_ cause: (subscription: UInt64, event: UInt64)?, _ own: UInt64) -> [UInt8] {
        guard let cause else { return varint(0) }
        return varint(own - cause.event) + varint(cause.subscription)
    }
}

/// LEB128, as the recorder writes numbers.
func varint(_ value: UInt64) -> [UInt8] {
    var value = value
    var result: [UInt8] = []
    while value >= 0x80 {
        result.append(UInt8(truncatingIfNeeded: value) | 0x80)
        value >>= 7
    }
    result.append(UInt8(value))
    return result
}
