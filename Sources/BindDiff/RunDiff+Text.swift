import BindAnalysis
import BindTraceModel

// The plain-text form of a diff (`bind-trace diff`'s default), one line each; the caller escapes
// each line for the terminal.

extension RunDiff {
    /// How many changed sites the text and Markdown list beyond the grown ones.
    package static var listedChanges: Int { 10 }

    /// The diff as lines of text: findings new, fixed and unchanged; growth; structure; other changes;
    /// a last summary line.
    package var textLines: [String] {
        var lines = ["bind-trace diff: \(base.name) (\(base.events) events) → \(head.name) (\(head.events) events)"]
        for (side, label) in [(base, "BASE"), (head, "HEAD")] {
            for trace in side.incomplete {
                lines.append(
                    "incomplete trace (\(label)): \(trace.path): \(trace.reason); counts and findings may be missing")
            }
        }
        func section(_ title: String, _ items: [String]) {
            guard !items.isEmpty else { return }
            lines.append("")
            lines.append("\(title) (\(items.count)):")
            lines += items.map { "  " + $0 }
        }
        section("new findings", newFindings.map { $0.finding.compilerStyle })
        section("fixed findings", fixedFindings.map { $0.finding.compilerStyle })
        section("growth (\(threshold.description))", grown.map(\.text))
        section("sites added", addedSites.map(Self.text))
        section("sites removed", removedSites.map(Self.text))
        section("edges added", addedEdges.map(Self.text))
        section("edges removed", removedEdges.map(Self.text))
        let others = changedSites.filter(\.grown.isEmpty)
        section("other changes", others.prefix(Self.listedChanges).map(\.text))
        if others.count > Self.listedChanges {
            lines.append("  … \(others.count - Self.listedChanges) more (--format json lists them all)")
        }
        lines.append("")
        lines.append("bind-trace: diff: \(summary)")
        return lines
    }

    /// `1 new finding, 1 fixed, 6 unchanged; 1 site grown; 3 sites added, 2 removed; 2 edges added, 1 removed`.
    package var summary: String {
        let findings =
            "\(Narrator.count(UInt64(newFindings.count), "new finding")), \(fixedFindings.count) fixed, "
            + "\(unchangedFindings.count) unchanged"
        let growth = "\(Narrator.count(UInt64(grown.count), "site")) grown"
        let sites = "\(Narrator.count(UInt64(addedSites.count), "site")) added, \(removedSites.count) removed"
        let edges = "\(Narrator.count(UInt64(addedEdges.count), "edge")) added, \(removedEdges.count) removed"
        return "\(findings); \(growth); \(sites); \(edges)"
    }

    /// `App/Form.swift:12: output 'email' (String)`.
    package static func text(_ site: DiffSite) -> String {
        "\(site.location.file):\(site.location.line): \(site.role) \(site.name)"
    }

    /// `App/Form.swift:12: 'email' (String) → map → map → String at Form.swift:12`.
    package static func text(_ edge: SiteProfile.Edge) -> String {
        "\(edge.derived.site.file):\(edge.derived.site.line): \(edge.name)"
    }
}

extension SiteChange {
    /// `App/Form.swift:12: output 'email' (String): updates 3 → 160 (×53.3, grown), deliveries …`.
    package var text: String {
        let counts = changedMetrics.map { metric in
            "\(metric.name) \(base[metric]) → \(head[metric]) (\(ratioText(metric))\(grown.contains(metric) ? ", grown" : ""))"
        }
        return "\(RunDiff.text(site)): \(counts.joined(separator: ", "))"
    }

    /// `×53.3`, `new` (from 0), `×0.5`.
    package func ratioText(_ metric: SiteMetric) -> String {
        guard let ratio = ratio(metric) else { return "new" }
        return "×" + Self.decimal(ratio)
    }

    /// One decimal: `53.3`, `2.0`.
    static func decimal(_ value: Double) -> String {
        let tenths = (value * 10).rounded()
        guard tenths.isFinite, abs(tenths) < 1e15 else { return String(value) }
        let whole = Int64(tenths)
        return "\(whole / 10).\(abs(whole % 10))"
    }
}

extension GrowthThreshold {
    /// `×2 and at least 100 more`.
    package var description: String {
        "×\(ratio == ratio.rounded() ? String(Int64(ratio)) : SiteChange.decimal(ratio)) and at least \(minimumIncrease) more"
    }
}
