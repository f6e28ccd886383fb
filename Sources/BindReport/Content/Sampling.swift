import BindText

/// Keeps every `stride`-th element of a stream, doubling `stride` whenever it holds too many.
///
/// The result is always evenly spaced over everything seen, in constant memory.
struct StrideSample<Element: Sendable>: Sendable {
    let capacity: Int
    private(set) var elements: [Element] = []
    private(set) var stride = 1
    private var seen = 0

    init(capacity: Int) {
        self.capacity = max(2, capacity)
        elements.reserveCapacity(min(self.capacity, 4_096))
    }

    mutating func add(_ element: Element) {
        defer { seen += 1 }
        guard seen % stride == 0 else { return }
        if elements.count == capacity {
            // Keep elements 0, 2, 4, …: they are exactly the multiples of the doubled stride.
            elements = elements.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
            stride *= 2
            guard seen % stride == 0 else { return }
        }
        elements.append(element)
    }
}

/// The last `capacity` elements of a stream.
struct RingBuffer<Element: Sendable>: Sendable {
    let capacity: Int
    private var storage: [Element] = []
    private var start = 0

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Appends `element`; returns the element it pushed out, if the buffer was full.
    mutating func append(_ element: Element) -> Element? {
        guard capacity > 0 else { return element }
        if storage.count < capacity {
            storage.append(element)
            return nil
        }
        let evicted = storage[start]
        storage[start] = element
        start = (start + 1) % capacity
        return evicted
    }

    /// Oldest first.
    var elements: [Element] { Array(storage[start...] + storage[..<start]) }
}

/// Numbers as people read them in a report.
enum ReportNumber {
    /// `1234567` → `1,234,567`.
    static func grouped(_ value: some BinaryInteger) -> String { NumberText.grouped(value) }

    /// `1` → `1st`, `2` → `2nd`, `1024` → `1,024th`.
    static func ordinal(_ value: Int) -> String {
        let suffix: String
        switch (value % 10, value % 100) {
        case (_, 11...13): suffix = "th"
        case (1, _): suffix = "st"
        case (2, _): suffix = "nd"
        case (3, _): suffix = "rd"
        default: suffix = "th"
        }
        return grouped(value) + suffix
    }

    /// Nanoseconds as `12.5 ms`, `3.2 s`, `840 ns`.
    static func duration(nanoseconds: UInt64) -> String {
        let value = Double(nanoseconds)
        func format(_ number: Double, _ unit: String) -> String {
            let rounded = (number * 10).rounded() / 10
            let text = rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
            return "\(text) \(unit)"
        }
        switch nanoseconds {
        case ..<1_000: return "\(nanoseconds) ns"
        case ..<1_000_000: return format(value / 1e3, "µs")
        case ..<1_000_000_000: return format(value / 1e6, "ms")
        default: return format(value / 1e9, "s")
        }
    }
}
