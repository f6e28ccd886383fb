@_spi(Harness) import BindTraceModel
import BindTraceTestSupport

/// Writes a trace in the binary format directly, as the recorder would: for traces the plain build
/// cannot record, for damaged traces, and for the benchmark's large ones. A thin wrapper over the
/// shared `TraceWriter` (the format's own encoder).
///
/// Format 1.0 unless told otherwise: these traces write no Subscription handle records, and in a
/// 1.0 trace a closure left bound after its scope is judged abandoned, which is what they mean. In a
/// 1.1 trace (the recorder's), no handle record means the app still holds the handle
/// (`HandleRuleTests` writes those).
struct TraceFileWriter {
    private var writer: TraceWriter

    init(minor: UInt16 = 0, clock: Bool = true) { writer = TraceWriter(minor: minor, clock: clock) }

    var bytes: [UInt8] { writer.bytes }

    /// The events written so far.
    var eventCount: UInt64 { writer.sequence }

    mutating func thread(_ index: UInt64) { writer.thread(index) }

    @discardableResult
    mutating func output(
        _ id: UInt64, kind: OutputKind = .output, type: String = "Int", file: String = "App/Screen.swift",
        line: UInt64, label: String? = nil, scope: UInt64 = 0, cause: (subscription: UInt64, event: UInt64)? = nil
    ) -> UInt64 {
        writer.event(
            .outputCreated(
                TraceEvent.OutputCreation(
                    output: id, kind: kind, valueType: type, site: SourceSite(file: file, line: UInt(line)),
                    label: label, scope: scope, cause: Self.cause(cause))))
    }

    @discardableResult
    mutating func bind(
        _ subscription: UInt64, to output: UInt64, file: String = "App/Screen.swift", line: UInt64,
        isInternal: Bool = false, target: (type: String, identity: UInt64)? = nil, scope: UInt64 = 0,
        cause: (subscription: UInt64, event: UInt64)? = nil
    ) -> UInt64 {
        writer.event(
            .bound(
                TraceEvent.Binding(
                    subscription: subscription, output: output, site: SourceSite(file: file, line: UInt(line)),
                    isInternal: isInternal, target: target.map { BinderTarget(type: $0.type, identity: $0.identity) },
                    scope: scope, cause: Self.cause(cause))))
    }

    @discardableResult
    mutating func update(_ output: UInt64, cause: (subscription: UInt64, event: UInt64)? = nil) -> UInt64 {
        writer.event(.updated(output: output, cause: Self.cause(cause), preview: nil))
    }

    @discardableResult
    mutating func unbind(_ subscription: UInt64, reason: UnbindReason = .unsubscribe) -> UInt64 {
        writer.event(.unbound(subscription: subscription, reason: reason, cause: nil))
    }

    @discardableResult
    mutating func release(_ output: UInt64) -> UInt64 { writer.event(.released(output: output)) }

    /// The last `Subscription` handle of a binding was released: nothing can unbind it any more.
    @discardableResult
    mutating func handleReleased(_ subscription: UInt64) -> UInt64 {
        writer.event(.handleReleased(subscription: subscription))
    }

    @discardableResult
    mutating func edge(_ source: UInt64, _ derived: UInt64, _ operation: OutputKind = .map) -> UInt64 {
        writer.event(.edge(source: source, derived: derived, operation: operation))
    }

    @discardableResult
    mutating func beginScope(_ id: UInt64, name: String, file: String = "App/Screen.swift", line: UInt64) -> UInt64 {
        writer.event(.scopeBegan(id: id, parent: 0, name: name, site: SourceSite(file: file, line: UInt(line))))
    }

    @discardableResult
    mutating func endScope(_ id: UInt64) -> UInt64 { writer.event(.scopeEnded(id: id)) }

    /// The end record a recording that stopped normally writes last.
    mutating func end() { writer.end() }

    private static func cause(_ cause: (subscription: UInt64, event: UInt64)?) -> TraceCause? {
        cause.map { TraceCause(subscription: $0.subscription, event: $0.event) }
    }
}

/// LEB128, as the recorder writes numbers.
func varint(_ value: UInt64) -> [UInt8] { TraceWriter.varint(value) }
