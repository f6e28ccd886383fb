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

    /// One line for an event, as `bind-trace replay` tells it (``EventNarrator``, whose lines the
    /// format's table gives), naming Outputs by the replay's view after the batch.
    static func tell(_ kind: TraceEvent.Kind, replay: Replay) -> String {
        EventNarrator { replay.outputState($0).map { Narrator.name(of: $0) } }.describe(kind).text
    }
}
