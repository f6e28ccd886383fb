@_spi(Harness) import BindTraceModel

/// What one run did, site by site: the counts `bind-trace diff` compares between two runs, keyed
/// by what stays the same from run to run — never by ids or addresses.
///
/// An Output is known by its creation site, kind, value type and label (an operator's Output by the
/// operator and its line); a subscription by the Output it is bound to, its bind site and what it
/// delivers to (a closure or a Binder's target type). ``SiteTally`` counts one trace in the replay's
/// pass; ``merge(_:)`` adds the traces of a run (every process of a test run).
///
/// - Complexity: memory proportional to the number of distinct sites, not to the trace's length.
package struct SiteProfile: Sendable, Equatable {
    package var outputs: [OutputSite: SiteCounts] = [:]
    /// Subscriptions bound by the app (closures and Binders); operators' own are their Outputs' edges.
    package var bindings: [BindingSite: SiteCounts] = [:]
    /// Operators' dependencies between Output sites.
    package var edges: Set<Edge> = []

    package init() {}

    /// An Output as runs know it.
    package struct OutputSite: Hashable, Sendable, Comparable {
        package var kind: OutputKind
        package var site: SourceSite
        package var label: String?
        package var valueType: String

        package init(kind: OutputKind, site: SourceSite, label: String?, valueType: String) {
            self.kind = kind
            self.site = site
            self.label = label
            self.valueType = valueType
        }

        package static func < (lhs: Self, rhs: Self) -> Bool {
            (lhs.site, lhs.kind.rawValue, lhs.label ?? "", lhs.valueType)
                < (rhs.site, rhs.kind.rawValue, rhs.label ?? "", rhs.valueType)
        }
    }

    /// What a subscription delivers to.
    package enum Subscriber: Hashable, Sendable, Comparable {
        case closure
        /// A Binder, by its target's type.
        case binder(String)
    }

    /// A subscription as runs know it.
    package struct BindingSite: Hashable, Sendable, Comparable {
        package var output: OutputSite
        package var site: SourceSite
        package var subscriber: Subscriber

        package init(output: OutputSite, site: SourceSite, subscriber: Subscriber) {
            self.output = output
            self.site = site
            self.subscriber = subscriber
        }

        package static func < (lhs: Self, rhs: Self) -> Bool {
            (lhs.site, lhs.output, lhs.subscriber) < (rhs.site, rhs.output, rhs.subscriber)
        }
    }

    /// `derived` made from `source` by an operator.
    package struct Edge: Hashable, Sendable, Comparable {
        package var source: OutputSite
        package var derived: OutputSite
        package var operation: OutputKind

        package init(source: OutputSite, derived: OutputSite, operation: OutputKind) {
            self.source = source
            self.derived = derived
            self.operation = operation
        }

        package static func < (lhs: Self, rhs: Self) -> Bool {
            (lhs.derived, lhs.source, lhs.operation.rawValue) < (rhs.derived, rhs.source, rhs.operation.rawValue)
        }
    }

    /// Adds `other`'s counts (another process of the same run): sums, and the larger peak and depth.
    package mutating func merge(_ other: SiteProfile) {
        for (site, counts) in other.outputs { outputs[site, default: SiteCounts()].merge(counts) }
        for (site, counts) in other.bindings { bindings[site, default: SiteCounts()].merge(counts) }
        edges.formUnion(other.edges)
    }
}

/// One of the counts that move with bugs, per site.
package enum SiteMetric: String, CaseIterable, Sendable {
    case outputsCreated
    case binds
    case updates
    case deliveries
    case wastedUpdates
    case peakLiveSubscriptions
    case deepestPropagation

    /// How people read it: `updates`, `peak live subscriptions`.
    package var name: String {
        switch self {
        case .outputsCreated: "Outputs created"
        case .binds: "binds"
        case .updates: "updates"
        case .deliveries: "deliveries"
        case .wastedUpdates: "wasted updates"
        case .peakLiveSubscriptions: "peak live subscriptions"
        case .deepestPropagation: "deepest propagation"
        }
    }

    /// A maximum over the run (merged by the larger), not a sum.
    package var isPeak: Bool { self == .peakLiveSubscriptions || self == .deepestPropagation }
}

/// The counts of one site (``SiteMetric``).
package struct SiteCounts: Sendable, Equatable {
    package var outputsCreated: UInt64 = 0
    package var binds: UInt64 = 0
    /// Updates and fires.
    package var updates: UInt64 = 0
    /// Values delivered: each update's subscriptions bound at that moment.
    package var deliveries: UInt64 = 0
    /// Updates with the value the Output already had, delivered anyway (``RedundantUpdateFinder``'s
    /// rule; traces recorded with values only).
    package var wastedUpdates: UInt64 = 0
    package var peakLiveSubscriptions: UInt64 = 0
    /// The deepest nesting of one of its updates inside another delivery (0: the app's own call).
    package var deepestPropagation: UInt64 = 0

    package init() {}

    package subscript(metric: SiteMetric) -> UInt64 {
        get {
            switch metric {
            case .outputsCreated: outputsCreated
            case .binds: binds
            case .updates: updates
            case .deliveries: deliveries
            case .wastedUpdates: wastedUpdates
            case .peakLiveSubscriptions: peakLiveSubscriptions
            case .deepestPropagation: deepestPropagation
            }
        }
        set {
            switch metric {
            case .outputsCreated: outputsCreated = newValue
            case .binds: binds = newValue
            case .updates: updates = newValue
            case .deliveries: deliveries = newValue
            case .wastedUpdates: wastedUpdates = newValue
            case .peakLiveSubscriptions: peakLiveSubscriptions = newValue
            case .deepestPropagation: deepestPropagation = newValue
            }
        }
    }

    /// Adds `other` (sums; the larger peak and depth).
    package mutating func merge(_ other: SiteCounts) {
        for metric in SiteMetric.allCases {
            self[metric] = metric.isPeak ? max(self[metric], other[metric]) : self[metric] &+ other[metric]
        }
    }
}

extension SiteProfile.OutputSite {
    /// `'email' (String)`, `map → String at Form.swift:12` (``Narrator``).
    package var name: String { Narrator.name(kind: kind, valueType: valueType, site: site, label: label) }
}

extension SiteProfile.BindingSite {
    /// `Binder to Label bound to 'title' (String)`, `closure bound to …`.
    package var name: String { "\(subscriberName) bound to \(output.name)" }

    /// `closure`, `Binder to Label`.
    package var subscriberName: String {
        switch subscriber {
        case .closure: "closure"
        case .binder(let type): Narrator.what(target: BinderTarget(type: type, identity: 0))
        }
    }
}

extension SiteProfile.Edge {
    /// `'email' (String) → map → map → String at Form.swift:12`.
    package var name: String { "\(source.name) → \(operation) → \(derived.name)" }
}
