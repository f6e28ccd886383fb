import BindTraceModel

/// Counts gathered while replaying, for ``TraceSummary``.
public struct TraceStatistics: Hashable, Sendable {
    /// Events by kind, indexed like ``TraceStatistics/eventKindNames``.
    public var eventsByKind: [UInt64] { kindCounts.counts }
    /// Counted in place: an array would check that its storage is unique at every event.
    private var kindCounts = KindCounts()
    /// Outputs created, by kind (`OutputKind.rawValue` index).
    public private(set) var outputsByKind = [UInt64](repeating: 0, count: OutputKind.allCases.count)
    public private(set) var events: UInt64 = 0
    public private(set) var firstTime: UInt64?
    public private(set) var lastTime: UInt64 = 0
    /// How many threads recorded events (distinct thread numbers: a trace's numbers are not
    /// trusted to be dense).
    public var threads: UInt32 { UInt32(clamping: threadNumbers.count) }
    private var threadNumbers: Set<UInt32> = []
    private var lastThread: UInt32?
    /// Updates and fires by creation site, of the Outputs released so far (sites as the replay's
    /// symbols: hashing two integers, not a file name, per release).
    var updatesBySite: [SiteKey: (updates: UInt64, outputs: UInt64)] = [:]

    /// The event kind names, in the order of ``eventsByKind``.
    public static let eventKindNames = [
        "outputCreated", "edge", "innerSwitch", "bound", "updated", "fired", "unbound", "dangling", "released",
        "scopeBegan", "scopeEnded", "mark", "labeled", "subscriptionContained", "handleReleased",
    ]

    public init() {}

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
        func add(to entry: inout (updates: UInt64, outputs: UInt64)) {
            entry.updates &+= node.updateCount
            entry.outputs &+= 1
        }
        add(to: &updatesBySite[node.siteKey, default: (0, 0)])
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
        case .bound: boundIndex
        case .outputCreated: outputCreatedIndex
        // Counted from its full kind.
        case .detailed: 0
        }
    }

    public static func == (lhs: TraceStatistics, rhs: TraceStatistics) -> Bool {
        lhs.eventsByKind == rhs.eventsByKind && lhs.outputsByKind == rhs.outputsByKind && lhs.events == rhs.events
            && lhs.firstTime == rhs.firstTime && lhs.lastTime == rhs.lastTime && lhs.threadNumbers == rhs.threadNumbers
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(events)
        hasher.combine(eventsByKind)
    }
}

/// A counter per event kind, in the statistics' own storage.
private struct KindCounts: Sendable {
    private var storage:
        (
            UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
            UInt64, UInt64, UInt64
        ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

    /// Adds one to the count of `kind`, an index of ``TraceStatistics/eventKindNames``.
    @inline(__always)
    mutating func count(_ kind: Int) {
        // Kinds are the replay's own indexes; the check keeps a wrong one inside the storage.
        precondition(UInt(bitPattern: kind) < 16)
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
