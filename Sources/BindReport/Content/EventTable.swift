/// The rows of the event table: every event of a small trace, a bounded selection of a big one.
///
/// Build it with ``Builder``, which streams any number of events in constant memory and keeps the
/// first ``Builder/headCount``, the last ``Builder/tailCount`` and an evenly spaced sample of those
/// in between, and says so in ``sampling``.
@_spi(Harness) public struct EventTable: Hashable, Sendable {
    /// How rows were selected when not every event is shown.
    public struct Sampling: Hashable, Sendable {
        /// How many of the first events are shown.
        public var head: Int
        /// How many of the last events are shown.
        public var tail: Int
        /// Between them, one event in every `stride` is shown.
        public var stride: Int

        public init(head: Int, tail: Int, stride: Int) {
            self.head = head
            self.tail = tail
            self.stride = stride
        }

        /// `the first 1,000 events, every 1,024th event after them, and the last 1,000`.
        public var description: String {
            let every = stride == 1 ? "every event" : "every \(ReportNumber.ordinal(stride)) event"
            return "the first \(ReportNumber.grouped(head)) events, \(every) after them, "
                + "and the last \(ReportNumber.grouped(tail))"
        }
    }

    /// The rows shown, in sequence order.
    public var rows: [EventRow]
    /// How many events the trace had.
    public var totalCount: Int
    /// How rows were chosen; `nil` when every event is shown.
    public var sampling: Sampling?

    public init(rows: [EventRow] = [], totalCount: Int? = nil, sampling: Sampling? = nil) {
        self.rows = rows
        self.totalCount = max(totalCount ?? rows.count, rows.count)
        self.sampling = sampling
    }

    /// Whether some events are left out.
    public var isSampled: Bool { rows.count < totalCount }

    /// Collects event rows in constant memory, however many events it is given.
    ///
    /// ```swift
    /// var builder = EventTable.Builder()
    /// while let event = try reader.next() { builder.add(row(for: event)) }
    /// content.events = builder.table
    /// ```
    /// - Complexity: O(1) amortised per ``add(_:)``; memory O(`headCount + tailCount + middleCount`).
    public struct Builder: Sendable {
        public let headCount: Int
        public let tailCount: Int
        public let middleCount: Int

        private var head: [EventRow] = []
        private var middle: StrideSample<EventRow>
        private var tail: RingBuffer<EventRow>
        private var total = 0

        /// - Parameters:
        ///   - headCount: how many of the first events to keep.
        ///   - tailCount: how many of the last events to keep.
        ///   - middleCount: at most how many evenly spaced events to keep between them.
        public init(headCount: Int = 1_000, tailCount: Int = 1_000, middleCount: Int = 2_000) {
            self.headCount = max(0, headCount)
            self.tailCount = max(0, tailCount)
            self.middleCount = max(1, middleCount)
            self.middle = StrideSample(capacity: self.middleCount)
            self.tail = RingBuffer(capacity: self.tailCount)
        }

        public mutating func add(_ row: EventRow) {
            total += 1
            if head.count < headCount {
                head.append(row)
                return
            }
            // What falls out of the tail window moves on to the middle sample.
            if let evicted = tail.append(row) { middle.add(evicted) }
        }

        /// The rows kept so far.
        public var table: EventTable {
            let middleRows = middle.elements
            let tailRows = tail.elements
            let rows = head + middleRows + tailRows
            let sampling =
                rows.count < total
                ? Sampling(head: head.count, tail: tailRows.count, stride: middle.stride) : nil
            return EventTable(rows: rows, totalCount: total, sampling: sampling)
        }
    }
}
