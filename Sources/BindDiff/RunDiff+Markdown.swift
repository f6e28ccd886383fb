import BindAnalysis
import BindText

// `bind-trace diff --format markdown`: short, for a pull-request comment or a CI step summary. Every
// text from a trace goes through `Escape.markdown`.

extension RunDiff {
    /// How many items each Markdown section lists before "… and N more".
    package static var markdownLimit: Int { 10 }

    /// New findings first, then the largest growth, then structural changes, each with its file:line;
    /// fixed findings last.
    package var markdown: String {
        let limit = Self.markdownLimit
        func escaped(_ text: String) -> String { Escape.markdown(text) }
        var text = "### bind-trace diff: \(escaped(base.name)) → \(escaped(head.name))\n\n"
        text += "**\(escaped(summary))**\n"
        let incomplete = base.incomplete.map { ("BASE", $0) } + head.incomplete.map { ("HEAD", $0) }
        for (side, trace) in incomplete {
            text += "\n> **Incomplete trace (\(side))**: \(escaped(trace.path)): \(escaped(trace.reason)); "
            text += "counts and findings may be missing\n"
        }
        func list(_ title: String, _ items: [String]) {
            guard !items.isEmpty else { return }
            text += "\n#### \(title)\n\n"
            for item in items.prefix(limit) { text += "- \(item)\n" }
            if items.count > limit { text += "- … and \(items.count - limit) more\n" }
        }
        func finding(_ finding: DiffFinding) -> String {
            let location = finding.finding.site.map { "\(escaped("\($0.file):\($0.line)")): " } ?? ""
            return "\(location)**\(finding.finding.severity.rawValue)** \(escaped(finding.finding.kind.rawValue)): "
                + escaped(finding.finding.message)
        }
        list("New findings", newFindings.map(finding))
        if !grown.isEmpty {
            text += "\n#### Largest growth (\(escaped(threshold.description)))\n\n"
            text += "| site | count | base | head | ratio |\n|---|---|---|---|---|\n"
            var rows = 0
            for change in grown {
                for metric in change.grown where rows < limit {
                    let site = escaped("\(change.site.location.file):\(change.site.location.line)")
                    text += "| \(site) \(escaped(change.site.name)) | \(metric.name) | \(change.base[metric]) | "
                    text += "\(change.head[metric]) | \(change.ratioText(metric)) |\n"
                    rows += 1
                }
            }
            let total = grown.reduce(0) { $0 + $1.grown.count }
            if total > rows { text += "\n… and \(total - rows) more\n" }
        }
        let structure =
            addedSites.map { "added \(escaped(Self.text($0)))" }
            + removedSites.map { "removed \(escaped(Self.text($0)))" }
            + addedEdges.map { "added edge \(escaped(Self.text($0)))" }
            + removedEdges.map { "removed edge \(escaped(Self.text($0)))" }
        list("Structural changes", structure)
        list("Fixed findings", fixedFindings.map(finding))
        return text
    }
}
