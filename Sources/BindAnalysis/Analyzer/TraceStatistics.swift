import BindTraceModel

/// Counts gathered while replaying, for ``TraceSummary`` (its public view).
package struct TraceStatistics: Hashable, Sendable {
    /// Events by kind, indexed like ``TraceStatistics/eventKindNames``.
    package var eventsByKind: [UInt64] { kindCounts.counts }
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

    /// The event kind names, in the order of ``eventsByKind``.
    package static let eventKindNames = [
        "outputCreated", "edge", "innerSwitch", "bound", "updated", "fired", "unbound", "dangling", "released",
        "scopeBegan", "scopeEnded", "mark", "labeled", "subscriptionContained", "handleReleased", "calledAt",
        "stopped",
    ]

    package init() {}

    /// Counts one event: its time, thread and kind (an index of ``eventKindNames``).
    @inline(__always)
    mutating func count(time: UInt64, thread: UInt32, kind: Int) {
        events &+= 1
        if firstTime == nil { firstTime = time }
        lastTime = time
        if thread != lastThread {
            lastThread = thread
            threadNumbers.insert(thread)
        }
        kindCounts.count(kind)
    }

    mutating func created(_ kind: OutputKind) {
        outputsByKind[Int(kind.rawValue)] &+= 1
    }

    mutating func released(_ node: OutputNode) {
        guard node.updateCount > 0 else { return }
        siteActivity.add(node.updateCount, at: node.siteKey)
    }

    /// The indexes of binds and creations, which the replay counts before building their records.
    static var outputCreatedIndex: Int { 0 }
    static var boundIndex: Int { 3 }

    @inline(__always)
    static func index(of kind: TraceEvent.Kind) -> Int {
        switch kind {
        case .outputCreated: 0
        case .edge: 1
        case .innerSwitch: 2
        case .bound: 3
        case .updated: 4
        case .fired: 5
        case .unbound: 6
        case .dangling: 7
        case .released: 8
        case .scopeBegan: 9
        case .scopeEnded: 10
        case .mark: 11
        case .labeled: 12
        case .subscriptionContained: 13
        case .handleReleased: 14
        case .calledAt: 15
        case .stopped: 16
        }
    }

    @inline(__always)
    static func index(of kind: CompactEvent.Kind) -> Int {
        switch kind {
        case .edge: 1
        case .innerSwitch: 2
        case .updated: 4
        case .fired: 5
        case .unbound: 6
        case .dangling: 7
        case .released: 8
        case .scopeEnded: 10
        case .subscriptionContained: 13
        case .handleReleased: 14
        case .stopped: 16
        case .bound: boundIndex
        case .outputCreated: outputCreatedIndex
        // Counted from its full kind.
        case .detailed: 0
        }
    }

    package static func == (lhs: TraceStatistics, rhs: TraceStatistics) -> Bool {
        lhs.eventsByKind == rhs.eventsByKind && lhs.outputsByKind == rhs.outputsByKind && lhs.events == rhs.events
            && lhs.firstTime == rhs.firstTime && lhs.lastTime == rhs.lastTime && lhs.threadNumbers == rhs.threadNumbers
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(events)
        hasher.combine(eventsByKind)
    }
}

/// A counter per event kind, in the statistics' own storage.
private struct KindCounts: Sendable {
    private var storage:
        (
            UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
            UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64
        ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    /// How many kinds the storage holds: room for a few kinds more than the format has.
    static var capacity: Int { 24 }

    /// Adds one to the count of `kind`, an index of ``TraceStatistics/eventKindNames``.
    @inline(__always)
    mutating func count(_ kind: Int) {
        // Kinds are the replay's own indexes; the check keeps a wrong one inside the storage.
        precondition(UInt(bitPattern: kind) < KindCounts.capacity)
        withUnsafeMutableBytes(of: &storage) { bytes in
            let counts = bytes.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: UInt64.self)
            counts[kind] &+= 1
        }
    }

    /// The counts, indexed like ``TraceStatistics/eventKindNames``.
    var counts: [UInt64] {
        withUnsafeBytes(of: storage) { bytes in
            Array(bytes.bindMemory(to: UInt64.self).prefix(TraceStatistics.eventKindNames.count))
        }
    }
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
