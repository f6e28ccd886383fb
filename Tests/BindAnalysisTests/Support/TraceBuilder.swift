import Bind
@_spi(Harness) import BindTraceModel
import BindTraceTestSupport

/// Builds a trace event by event, as the recorder would write it; each event's offset is 100 × its sequence.
struct TraceBuilder {
    private(set) var events: [TraceEvent] = []
    /// The thread of the events added next.
    var thread: UInt32 = 1
    static let file = "App/Screen.swift"

    static func site(_ line: UInt) -> SourceSite { SourceSite(file: file, line: line) }

    /// The events as a trace file's bytes, written by the format's own encoder (the shared
    /// `TraceWriter`), with the end record: read back, they are `events` (offsets and times aside).
    var bytes: [UInt8] {
        var writer = TraceWriter()
        var thread: UInt32 = 0
        for event in events {
            if event.thread != thread {
                thread = event.thread
                writer.thread(UInt64(thread))
            }
            writer.event(event.kind)
        }
        writer.end()
        return writer.bytes
    }

    @discardableResult
    mutating func add(_ kind: TraceEvent.Kind) -> UInt64 {
        let sequence = UInt64(events.count + 1)
        events.append(
            TraceEvent(
                sequence: sequence, time: sequence * 1000, thread: thread, offset: Int(sequence) * 100, kind: kind))
        return sequence
    }

    @discardableResult
    mutating func output(
        _ id: UInt64, _ kind: OutputKind = .output, line: UInt = 1, label: String? = nil, scope: UInt64 = 0,
        preexisting: Bool = false, cause: TraceCause? = nil
    ) -> UInt64 {
        add(
            .outputCreated(
                TraceEvent.OutputCreation(
                    output: id, kind: kind, valueType: "Int", site: Self.site(line), label: label, scope: scope,
                    preexisting: preexisting, cause: cause)))
    }

    @discardableResult
    mutating func bind(
        _ subscription: UInt64, to output: UInt64, line: UInt = 2, isInternal: Bool = false,
        target: BinderTarget? = nil,
        scope: UInt64 = 0, preexisting: Bool = false, cause: TraceCause? = nil
    ) -> UInt64 {
        add(
            .bound(
                TraceEvent.Binding(
                    subscription: subscription, output: output, site: Self.site(line), isInternal: isInternal,
                    target: target, scope: scope, preexisting: preexisting, cause: cause)))
    }

    @discardableResult
    mutating func update(_ output: UInt64, cause: TraceCause? = nil, preview: String? = nil) -> UInt64 {
        add(.updated(output: output, cause: cause, preview: preview))
    }

    @discardableResult
    mutating func unbind(_ subscription: UInt64, reason: UnbindReason = .unsubscribe, cause: TraceCause? = nil)
        -> UInt64
    {
        add(.unbound(subscription: subscription, reason: reason, cause: cause))
    }

    @discardableResult
    mutating func release(_ output: UInt64) -> UInt64 { add(.released(output: output)) }

    @discardableResult
    mutating func edge(_ source: UInt64, _ derived: UInt64, _ operation: OutputKind = .map) -> UInt64 {
        add(.edge(source: source, derived: derived, operation: operation))
    }

    @discardableResult
    mutating func beginScope(_ id: UInt64, parent: UInt64 = 0, name: String = "screen", line: UInt = 1) -> UInt64 {
        add(.scopeBegan(id: id, parent: parent, name: name, site: Self.site(line)))
    }

    @discardableResult
    mutating func endScope(_ id: UInt64) -> UInt64 { add(.scopeEnded(id: id)) }
}
