import BindTraceModel

/// What a trace holds, in numbers: ``AnalysisResult/summary``, `bind-trace summary` and report headers.
public struct TraceSummary: Hashable, Sendable {
    /// One creation site and the updates of the Outputs created there.
    public struct SiteActivity: Hashable, Sendable {
        /// The creation site.
        public var site: SourceSite
        /// Updates and fires of every Output created at the site.
        public var updates: UInt64
        /// Outputs created at the site that were updated at least once.
        public var outputs: UInt64
    }

    /// Events in the trace.
    public var events: UInt64
    /// Events by kind name (`updated`, `bound`, …), every kind present, in trace-format order.
    public var eventsByKind: [(kind: String, count: UInt64)]
    /// Outputs created (or announced) by kind, kinds with none left out.
    public var outputsByKind: [(kind: OutputKind, count: UInt64)]
    /// The busiest creation sites, most updates first (at most 10).
    public var topSites: [SiteActivity]
    /// Nanoseconds from the first event to the last.
    public var duration: UInt64
    /// Threads that recorded events.
    public var threads: UInt32
    /// Outputs alive when the trace ended.
    public var liveOutputs: Int
    /// Subscriptions bound when the trace ended.
    public var boundSubscriptions: Int
    /// The trace ended with the end record of a recording that stopped normally.
    public var isComplete: Bool
    /// Findings by kind, kinds with none left out, in ``Finding/Kind`` declaration order.
    public var findingsByKind: [(kind: Finding.Kind, count: Int)]
    /// Trace errors found, all of them (``AnalysisResult/traceErrors`` keeps at most
    /// ``AnalysisOptions/maximumTraceErrors``).
    public var traceErrors: Int
    /// Wasted updates: the sites whose Outputs were most often updated with the value they had
    /// (``RedundantUpdates``, at most 10, most first; empty for a trace without value previews).
    package var redundantUpdates: [RedundantUpdates] = []

    /// Whether two summaries hold the same figures (the wasted-update table aside).
    public static func == (lhs: TraceSummary, rhs: TraceSummary) -> Bool {
        lhs.events == rhs.events && lhs.eventsByKind.elementsEqual(rhs.eventsByKind, by: ==)
            && lhs.outputsByKind.elementsEqual(rhs.outputsByKind, by: ==) && lhs.topSites == rhs.topSites
            && lhs.duration == rhs.duration && lhs.threads == rhs.threads && lhs.liveOutputs == rhs.liveOutputs
            && lhs.boundSubscriptions == rhs.boundSubscriptions && lhs.isComplete == rhs.isComplete
            && lhs.findingsByKind.elementsEqual(rhs.findingsByKind, by: ==) && lhs.traceErrors == rhs.traceErrors
    }

    /// Hashes the event count and the busiest sites: equal summaries hash alike.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(events)
        hasher.combine(topSites)
    }
}

extension Replay {
    /// The summary of everything applied so far.
    public func summary(isComplete: Bool, findings: [Finding]) -> TraceSummary {
        var bySite = statistics.updatesBySite
        for node in outputTable.values where node.updateCount > 0 {
            bySite[node.siteKey, default: (0, 0)].updates &+= node.updateCount
            bySite[node.siteKey, default: (0, 0)].outputs &+= 1
        }
        let top = bySite.map {
            TraceSummary.SiteActivity(site: symbols.site($0.key), updates: $0.value.updates, outputs: $0.value.outputs)
        }
        .sorted { ($1.updates, $0.site) < ($0.updates, $1.site) }
        .prefix(10)
        let kinds = statistics.eventsByKind.compactMap { $0.count > 0 ? ($0.tag.name, $0.count) : nil }
        let outputs = OutputKind.allCases.compactMap { kind in
            statistics.outputsByKind[Int(kind.rawValue)] > 0
                ? (kind, statistics.outputsByKind[Int(kind.rawValue)]) : nil
        }
        var findingCounts: [Finding.Kind: Int] = [:]
        for finding in findings { findingCounts[finding.kind, default: 0] += 1 }
        var summary = TraceSummary(
            events: statistics.events, eventsByKind: kinds, outputsByKind: outputs, topSites: Array(top),
            duration: statistics.firstTime.map { statistics.lastTime >= $0 ? statistics.lastTime - $0 : 0 } ?? 0,
            threads: statistics.threads, liveOutputs: outputTable.count, boundSubscriptions: subscriptionTable.count,
            isComplete: isComplete,
            findingsByKind: Finding.Kind.allCases.compactMap { kind in findingCounts[kind].map { (kind, $0) } },
            traceErrors: errorCount)
        summary.redundantUpdates = Array(redundantUpdates.table().prefix(10))
        return summary
    }
}
