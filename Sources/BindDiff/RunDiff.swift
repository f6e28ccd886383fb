import BindAnalysis
import BindTraceModel

/// What changed between two runs of a program (BASE, HEAD): findings, the site graph's structure and
/// the per-site counts, matched by what stays stable between runs (``SiteProfile``, finding
/// fingerprints), never ids or addresses.
///
/// ```swift
/// let diff = RunDiff(base: baseSide, head: headSide, threshold: GrowthThreshold())
/// if !diff.newFindings.isEmpty || !diff.grown.isEmpty { exit(1) }
/// ```
package struct RunDiff: Sendable {
    package let base: DiffSide
    package let head: DiffSide
    package let threshold: GrowthThreshold
    /// Findings only HEAD has, only BASE had, and both have, by fingerprint, in site order.
    package let newFindings: [DiffFinding]
    package let fixedFindings: [DiffFinding]
    package let unchangedFindings: [DiffFinding]
    /// Sites (Outputs and app subscriptions) only HEAD has, only BASE had.
    package let addedSites: [DiffSite]
    package let removedSites: [DiffSite]
    /// Operators' dependencies only HEAD has, only BASE had.
    package let addedEdges: [SiteProfile.Edge]
    package let removedEdges: [SiteProfile.Edge]
    /// Sites in both runs whose counts differ, the largest change first.
    package let changedSites: [SiteChange]

    /// The changed sites whose growth passed the threshold, the largest first.
    package var grown: [SiteChange] { changedSites.filter { !$0.grown.isEmpty } }

    /// Whether the structure (sites, edges) differs.
    package var hasStructuralChanges: Bool {
        !(addedSites.isEmpty && removedSites.isEmpty && addedEdges.isEmpty && removedEdges.isEmpty)
    }

    package init(base: DiffSide, head: DiffSide, threshold: GrowthThreshold = GrowthThreshold()) {
        self.base = base
        self.head = head
        self.threshold = threshold
        (newFindings, fixedFindings, unchangedFindings) = Self.match(base: base.findings, head: head.findings)

        let baseSites = Self.sites(base.profile)
        let headSites = Self.sites(head.profile)
        addedSites = headSites.keys.filter { baseSites[$0] == nil }.sorted()
        removedSites = baseSites.keys.filter { headSites[$0] == nil }.sorted()
        addedEdges = head.profile.edges.subtracting(base.profile.edges).sorted()
        removedEdges = base.profile.edges.subtracting(head.profile.edges).sorted()
        changedSites = headSites.compactMap { site, counts -> SiteChange? in
            guard let before = baseSites[site], before != counts else { return nil }
            return SiteChange(site: site, base: before, head: counts, threshold: threshold)
        }.sorted(by: SiteChange.largestFirst)
    }

    /// Findings matched by fingerprint; then a finding left in HEAD and one left in BASE of the same
    /// kind, site and related sites are one finding whose message changed (a message can quote a
    /// value, as a duplicate binding quotes its Outputs' last values, and values differ between runs).
    static func match(base: [DiffFinding], head: [DiffFinding]) -> (
        new: [DiffFinding], fixed: [DiffFinding], unchanged: [DiffFinding]
    ) {
        let baseFingerprints = Set(base.map(\.fingerprint))
        let headFingerprints = Set(head.map(\.fingerprint))
        var new = head.filter { !baseFingerprints.contains($0.fingerprint) }
        var fixed = base.filter { !headFingerprints.contains($0.fingerprint) }
        var unchanged = head.filter { baseFingerprints.contains($0.fingerprint) }
        func place(_ finding: Finding) -> String {
            let related = finding.related.map { "\($0.site.file):\($0.site.line)" }.sorted()
            return ([finding.kind.rawValue, finding.site.map { "\($0.file):\($0.line)" } ?? ""] + related)
                .joined(separator: "|")
        }
        var fixedByPlace: [String: [Int]] = [:]
        for (index, finding) in fixed.enumerated() { fixedByPlace[place(finding.finding), default: []].append(index) }
        var matchedFixed = Set<Int>()
        new = new.filter { finding in
            guard let index = fixedByPlace[place(finding.finding)]?.first(where: { !matchedFixed.contains($0) })
            else { return true }
            matchedFixed.insert(index)
            unchanged.append(finding)
            return false
        }
        fixed = fixed.enumerated().filter { !matchedFixed.contains($0.offset) }.map(\.element)
        unchanged.sort { Finding.siteOrder($0.finding, $1.finding) }
        return (new, fixed, unchanged)
    }

    private static func sites(_ profile: SiteProfile) -> [DiffSite: SiteCounts] {
        var sites: [DiffSite: SiteCounts] = [:]
        for (site, counts) in profile.outputs { sites[.output(site)] = counts }
        for (site, counts) in profile.bindings { sites[.binding(site)] = counts }
        return sites
    }
}

/// One side of a diff: a trace or the traces of a run, judged and counted.
package struct DiffSide: Sendable {
    /// The traces, as named (files found in a directory included).
    package var paths: [String]
    /// What the user named (`base.trace`, `base-traces/`).
    package var name: String
    package var events: UInt64
    /// Traces not read whole, and why: their counts and findings may be missing.
    package var incomplete: [(path: String, reason: String)]
    package var findings: [DiffFinding]
    package var profile: SiteProfile

    package init(
        name: String, paths: [String], events: UInt64, incomplete: [(path: String, reason: String)],
        findings: [DiffFinding], profile: SiteProfile
    ) {
        self.name = name
        self.paths = paths
        self.events = events
        self.incomplete = incomplete
        self.findings = findings
        self.profile = profile
    }
}

/// A finding with its fingerprint (the same in every run: `FindingFingerprint`).
package struct DiffFinding: Sendable {
    package var fingerprint: String
    package var finding: Finding

    package init(fingerprint: String, finding: Finding) {
        self.fingerprint = fingerprint
        self.finding = finding
    }
}

/// A site of the site graph: an Output's, or an app subscription's.
package enum DiffSite: Hashable, Sendable, Comparable {
    case output(SiteProfile.OutputSite)
    case binding(SiteProfile.BindingSite)

    /// Where it is in the source: the creation or bind site.
    package var location: SourceSite {
        switch self {
        case .output(let output): output.site
        case .binding(let binding): binding.site
        }
    }

    /// How text names it (``Narrator``'s names).
    package var name: String {
        switch self {
        case .output(let output): output.name
        case .binding(let binding): binding.name
        }
    }

    /// `output` or `subscription`.
    package var role: String {
        switch self {
        case .output: "output"
        case .binding: "subscription"
        }
    }

    package static func < (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.output(let left), .output(let right)): left < right
        case (.binding(let left), .binding(let right)): left < right
        case (.output(let left), .binding(let right)): left.site <= right.site
        case (.binding(let left), .output(let right)): left.site < right.site
        }
    }
}

/// When a count's rise is growth (a regression worth failing a build for), not noise: at least
/// `ratio` times the base and at least `minimumIncrease` more.
package struct GrowthThreshold: Sendable, Equatable {
    package var ratio: Double
    package var minimumIncrease: UInt64

    package init(ratio: Double = 2, minimumIncrease: UInt64 = 100) {
        self.ratio = ratio
        self.minimumIncrease = minimumIncrease
    }

    package func isGrowth(from base: UInt64, to head: UInt64) -> Bool {
        head >= base &+ minimumIncrease && Double(head) >= ratio * Double(base)
    }
}

/// A site in both runs whose counts differ.
package struct SiteChange: Sendable {
    package let site: DiffSite
    package let base: SiteCounts
    package let head: SiteCounts
    /// The counts whose rise passed the threshold.
    package let grown: [SiteMetric]

    init(site: DiffSite, base: SiteCounts, head: SiteCounts, threshold: GrowthThreshold) {
        self.site = site
        self.base = base
        self.head = head
        grown = SiteMetric.allCases.filter { threshold.isGrowth(from: base[$0], to: head[$0]) }
    }

    /// The metrics whose counts differ.
    package var changedMetrics: [SiteMetric] { SiteMetric.allCases.filter { base[$0] != head[$0] } }

    /// `head / base` for `metric`; `nil` when the base is 0.
    package func ratio(_ metric: SiteMetric) -> Double? {
        base[metric] == 0 ? nil : Double(head[metric]) / Double(base[metric])
    }

    /// The largest absolute change of any count: how the changes are sorted.
    package var size: UInt64 {
        SiteMetric.allCases.map { max(base[$0], head[$0]) - min(base[$0], head[$0]) }.max() ?? 0
    }

    static func largestFirst(_ lhs: SiteChange, _ rhs: SiteChange) -> Bool {
        if lhs.grown.isEmpty != rhs.grown.isEmpty { return !lhs.grown.isEmpty }
        if lhs.size != rhs.size { return lhs.size > rhs.size }
        return lhs.site < rhs.site
    }
}
