/// A run of consecutive events of a trace, decoded by ``TraceReader/read(into:maximumEvents:)``.
///
/// The replay's unit of work: one call decodes thousands of events into storage that is reused for
/// the next batch (no allocation per event or per batch once its arrays have grown), and
/// ``TraceReadAhead`` hands whole batches from its decoding thread to the replaying one.
package struct EventBatch: Sendable {
    /// The events, in trace order.
    package var events: [CompactEvent] = []
    /// The kinds of the ``CompactEvent/Kind/detailed(_:)`` events (those with strings), by index.
    package var details: [TraceEvent.Kind] = []
    /// How many bytes of the trace had been consumed after the batch's last record.
    package var bytesRead = 0
    /// The read error that ended the trace right after these events; the batch is then the last.
    package var failure: TraceReadError?
    /// Whether nothing follows: the trace ended (whole, cut short, or at ``failure``).
    package var isLast = false

    /// How many events a batch holds by default: big enough that per-batch costs vanish, small
    /// enough that a few batches in flight stay a few hundred kilobytes.
    package static let defaultCapacity = 4096

    package init() {}

    package var count: Int { events.count }

    /// The event at `index` as a ``TraceEvent``.
    package func event(at index: Int) -> TraceEvent {
        TraceEvent(events[index], details: details)
    }

    /// Empties the batch, keeping its storage.
    package mutating func removeAll() {
        events.removeAll(keepingCapacity: true)
        details.removeAll(keepingCapacity: true)
        bytesRead = 0
        failure = nil
        isLast = false
    }
}
