import BindTraceModel

/// Counts gathered while replaying, for ``TraceSummary`` (its public view).
package struct TraceStatistics: Hashable, Sendable {
    /// Events by kind, in ``TraceFormat/Tag/events`` order (every kind, counted or not).
    package var eventsByKind: [(tag: TraceFormat.Tag, count: UInt64)] {
        TraceFormat.Tag.events.map { ($0, kindCounts[$0]) }
    }
    /// Counted in place: an array would check that its storage is unique at every event.
    private var kindCounts = KindCounts()
    /// Outputs created, by kind (`OutputKind.rawValue` index).
    package private(set) var outputsByKind = [UInt64](repeating: 0, count: OutputKind.allCases.count)
    package private(set) var events: UInt64 = 0
    package private(set) var firstTime: UInt64?
    package private(set) var lastTime: UInt64 = 0
    /// How many threads recorded events (distinct thread numbers: a trace's numbers are not
    /// trusted to be dense).
    package var threads: UInt32 { UInt32(clamping: threadNumbers.count) }
    private var threadNumbers: Set<UInt32> = []
    private var lastThread: UInt32?
    /// Updates and fires by creation site, of the Outputs released so far (sites as the replay's
    /// symbols: two integers, not a file name, per release).
    var updatesBySite: [SiteKey: (updates: UInt64, outputs: UInt64)] { siteActivity.entries }
    private var siteActivity = SiteActivity()

    /// Tags below this are counted: the size of the counters' storage.
    package static var countedTagLimit: Int { KindCounts.capacity }

    package init() {}

    /// Counts one event: its time, thread and kind (its record's tag).
    @inline(__always)
    mutating func count(_ event: CompactEvent) {
        events &+= 1
        if firstTime == nil { firstTime = event.time }
        lastTime = event.time
        if event.thread != lastThread {
            lastThread = event.thread
            threadNumbers.insert(event.thread)
        }
        kindCounts.count(event.tag)
    }

    mutating func created(_ kind: OutputKind) {
        outputsByKind[Int(kind.rawValue)] &+= 1
    }

    mutating func released(_ node: OutputNode) {
        guard node.updateCount > 0 else { return }
        siteActivity.add(node.updateCount, at: node.siteKey)
    }

    package static func == (lhs: TraceStatistics, rhs: TraceStatistics) -> Bool {
        lhs.kindCounts == rhs.kindCounts && lhs.outputsByKind == rhs.outputsByKind && lhs.events == rhs.events
            && lhs.firstTime == rhs.firstTime && lhs.lastTime == rhs.lastTime && lhs.threadNumbers == rhs.threadNumbers
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(events)
        hasher.combine(kindCounts)
    }
}

/// A counter per tag, indexed by the tag's raw value, in the statistics' own storage: no table
/// maps kinds to indexes, and counting is one add at an offset.
private struct KindCounts: Hashable, Sendable {
    private var storage:
        (
            UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
            UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
            UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
            UInt64, UInt64
        ) = (
            0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
            0, 0, 0, 0
        )
    /// One more than the largest tag the storage holds; `TraceFormat.Tag`'s are below it
    /// (`EventKindConformanceTests` checks), so a new tag past it fails a test, not a user's trace.
    static var capacity: Int { 40 }

    /// Adds one to the count of `tag`.
    @inline(__always)
    mutating func count(_ tag: TraceFormat.Tag) {
        let index = Int(tag.rawValue)
        // The tags are the format's own; the check keeps a tag past the storage out of memory.
        precondition(index < KindCounts.capacity)
        withUnsafeMutableBytes(of: &storage) { bytes in
            let counts = bytes.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: UInt64.self)
            counts[index] &+= 1
        }
    }

    /// The count of `tag`.
    subscript(tag: TraceFormat.Tag) -> UInt64 {
        withUnsafeBytes(of: storage) { bytes in bytes.load(fromByteOffset: Int(tag.rawValue) * 8, as: UInt64.self) }
    }

    private var counts: [UInt64] {
        withUnsafeBytes(of: storage) { bytes in Array(bytes.bindMemory(to: UInt64.self)) }
    }

    static func == (lhs: KindCounts, rhs: KindCounts) -> Bool { lhs.counts == rhs.counts }

    func hash(into hasher: inout Hasher) { hasher.combine(counts) }
}

/// Updates and Outputs by site, added to at every release with updates: an open-addressing table
/// with a multiplicative hash (a `Dictionary` spent about 290 instructions a release, a sixth of it
/// hashing). Sites are few (call sites in the app), and the table only grows.
private struct SiteActivity: Sendable {
    private struct Slot: Sendable {
        var site: SiteKey
        var updates: UInt64
        var outputs: UInt64
    }

    /// `nil`: an empty slot. The count is a power of two, at most half of them used.
    private var slots = [Slot?](repeating: nil, count: 16)
    private var count = 0

    @inline(__always)
    private static func home(_ site: SiteKey, mask: Int) -> Int {
        let mixed = (UInt64(site.file) << 32 ^ UInt64(truncatingIfNeeded: site.line)) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: mixed >> 32) & mask
    }

    /// Adds an Output released after `updates` updates to the counts of `site`.
    mutating func add(_ updates: UInt64, at site: SiteKey) {
        let mask = slots.count - 1
        var index = Self.home(site, mask: mask)
        while let slot = slots[index] {
            if slot.site == site {
                slots[index]!.updates &+= updates
                slots[index]!.outputs &+= 1
                return
            }
            index = (index + 1) & mask
        }
        slots[index] = Slot(site: site, updates: updates, outputs: 1)
        count += 1
        if count * 2 > slots.count { grow() }
    }

    private mutating func grow() {
        let old = slots
        slots = [Slot?](repeating: nil, count: old.count * 2)
        let mask = slots.count - 1
        for case let slot? in old {
            var index = Self.home(slot.site, mask: mask)
            while slots[index] != nil { index = (index + 1) & mask }
            slots[index] = slot
        }
    }

    /// Every site with its counts.
    var entries: [SiteKey: (updates: UInt64, outputs: UInt64)] {
        var entries: [SiteKey: (updates: UInt64, outputs: UInt64)] = [:]
        for case let slot? in slots { entries[slot.site] = (slot.updates, slot.outputs) }
        return entries
    }
}
