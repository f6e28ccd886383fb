@_spi(Harness) import BindAnalysis
@_spi(Harness) import BindTraceModel

/// The newest events of a trace, told in one line each: the live page's event table.
///
/// A ring of at most `capacity` lines. Of each batch only its last `capacity` events are told (the
/// older ones would be dropped at once), with the names the replay has for their Outputs after the
/// batch: so a fast trace costs a few lines per batch, not one per event.
package struct RecentEvents {
    /// One told event.
    package struct Line: Equatable, Sendable {
        package var sequence: UInt64
        /// The event's kind as the trace format names it (`update`, `outputCreated`, …).
        package var kind: String
        package var text: String
    }

    package let capacity: Int
    private var ring: [Line] = []
    private var next = 0

    package init(capacity: Int) { self.capacity = max(capacity, 1) }

    /// The lines, oldest first.
    package var lines: [Line] {
        ring.count < capacity ? ring : Array(ring[next...] + ring[..<next])
    }

    package mutating func removeAll() {
        ring.removeAll(keepingCapacity: true)
        next = 0
    }

    mutating func take(_ batch: borrowing EventBatch, strings: [String], replay: Replay) {
        let first = max(0, batch.count - capacity)
        for index in first..<batch.count {
            let event = TraceEvent(batch.events[index], in: batch, strings: strings)
            append(Line(sequence: event.sequence, kind: event.kind.name, text: Self.tell(event.kind, replay: replay)))
        }
    }

    private mutating func append(_ line: Line) {
        if ring.count < capacity {
            ring.append(line)
        } else {
            ring[next] = line
            next = (next + 1) % capacity
        }
    }

    /// One line for an event, naming Outputs as findings do (``Narrator``), shortened: trace strings are untrusted.
    static func tell(_ kind: TraceEvent.Kind, replay: Replay) -> String {
        func name(_ id: UInt64) -> String {
            replay.outputState(id).map { Narrator.name(of: $0) } ?? "Output #\(id)"
        }
        func value(_ preview: String?) -> String {
            preview.map { " = \"\(Narrator.shortened($0))\"" } ?? ""
        }
        switch kind {
        case .outputCreated(let creation): return "created \(name(creation.output))"
        case .edge(let source, let derived, let operation):
            return "\(operation) edge \(name(source)) → \(name(derived))"
        case .innerSwitch(let flatMap, let inner): return "\(name(flatMap)) switched to \(name(inner))"
        case .bound(let binding):
            return "subscription \(binding.subscription) bound to \(name(binding.output)) at \(binding.site)"
        case .updated(let output, _, let preview): return "update of \(name(output))\(value(preview))"
        case .fired(let output, _, let preview): return "fire of \(name(output))\(value(preview))"
        case .unbound(let subscription, let reason, _): return "subscription \(subscription) unbound (\(reason))"
        case .dangling(let subscription): return "subscription \(subscription) found its Binder's target gone"
        case .released(let output): return "released \(name(output))"
        case .scopeBegan(let id, _, let scope, _): return "scope \(id) '\(Narrator.shortened(scope))' began"
        case .scopeEnded(let id): return "scope \(id) ended"
        case .mark(let mark, _): return "mark '\(Narrator.shortened(mark))'"
        case .labeled(let output, let label): return "\(name(output)) labelled '\(Narrator.shortened(label))'"
        case .subscriptionContained(let subscription, let container):
            return "subscription \(subscription) added to container \(container)"
        case .handleReleased(let subscription): return "subscription \(subscription)'s handle released"
        case .calledAt(_, let site): return "called at \(site)"
        case .stopped(let derived, let source): return "\(name(derived)) stopped: \(name(source)) was released"
        case .captured(let subscription, let captures):
            return "subscription \(subscription) captures \(captures.count)"
        case .resumed(let delivery, _):
            let what = delivery.map { "the delivery of event \($0.event) to subscription \($0.subscription)" }
            return "resume \(what ?? "a delivery begun before the trace"), deferred past Bind's nesting limit"
        }
    }
}
