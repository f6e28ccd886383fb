/// A run of consecutive events of a trace, decoded by ``TraceReader/read(into:maximumEvents:)``.
///
/// The replay's unit of work: one call decodes thousands of events into storage that is reused for
/// the next batch (no allocation per event or per batch once its arrays have grown), and
/// ``TraceReadAhead`` hands whole batches from its decoding thread to the replaying one.
package struct EventBatch: Sendable {
    /// The events, in trace order.
    package var events: [CompactEvent] = []
    /// The binds of the ``CompactEvent/Kind/bound(_:)`` events, by index.
    package var bindings: [CompactBinding] = []
    /// The creations of the ``CompactEvent/Kind/outputCreated(_:)`` events, by index.
    package var creations: [CompactCreation] = []
    /// The kinds of the ``CompactEvent/Kind/detailed(_:)`` events (other events with strings), by index.
    package var details: [TraceEvent.Kind] = []
    /// The strings the trace defined since the reader's previous batch, the first with id
    /// ``firstString``: a consumer that takes every batch in order knows every id the events use
    /// (``DefinedStrings``).
    package var strings: [String] = []
    package var firstString = 0
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

    /// Empties the batch, keeping its storage.
    package mutating func removeAll() {
        events.removeAll(keepingCapacity: true)
        bindings.removeAll(keepingCapacity: true)
        creations.removeAll(keepingCapacity: true)
        details.removeAll(keepingCapacity: true)
        strings.removeAll(keepingCapacity: true)
        firstString = 0
        bytesRead = 0
        failure = nil
        isLast = false
    }
}
