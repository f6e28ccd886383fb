import BindAnalysis
import BindDiff

// The "Changes since BASE" section of index.html (`bind-trace report --base BASE …`): what
// `bind-trace diff BASE HEAD` says, in the page. Its own file, apart from the other sections: the
// section is optional and only `report --base` fills it. Everything from the traces goes through
// `HTMLBuilder`'s escaping text; the picture is an `<img>` of the cleaned SVG, as the other graphs.

extension HTMLReport {
    /// The section, when the report was given a base (``ReportContent/changes``); nothing otherwise.
    func renderChanges(into page: inout HTMLBuilder) {
        guard let diff = content.changes else { return }
        page.raw("<section id=\"changes\"><h2>Changes since BASE</h2>")
        page.element("p", ["class": "note"], text: "\(diff.base.name) → \(diff.head.name): \(diff.summary).")
        for trace in diff.base.incomplete + diff.head.incomplete {
            page.element("p", ["class": "note"], text: "Incomplete trace \(trace.path): \(trace.reason).")
        }
        func list(_ title: String, _ items: [String]) {
            guard !items.isEmpty else { return }
            page.element("h3", text: "\(title) (\(items.count))")
            page.raw("<ul>")
            for item in items { page.element("li", text: item) }
            page.raw("</ul>")
        }
        list("New findings", diff.newFindings.map(\.finding.compilerStyle))
        if !diff.grown.isEmpty {
            page.element("h3", text: "Growth (\(diff.threshold.description))")
            page.raw("<table class=\"changes\"><thead><tr>")
            for heading in ["site", "count", "base", "head", "ratio"] { page.element("th", text: heading) }
            page.raw("</tr></thead><tbody>")
            for change in diff.grown {
                for metric in change.grown {
                    page.raw("<tr>")
                    page.element(
                        "td", text: "\(change.site.location.file):\(change.site.location.line) \(change.site.name)")
                    page.element("td", text: metric.name)
                    page.element("td", text: String(change.base[metric]))
                    page.element("td", text: String(change.head[metric]))
                    page.element("td", text: change.ratioText(metric))
                    page.raw("</tr>")
                }
            }
            page.raw("</tbody></table>")
        }
        list(
            "Structural changes",
            diff.addedSites.map { "added \(RunDiff.text($0))" }
                + diff.removedSites.map { "removed \(RunDiff.text($0))" }
                + diff.addedEdges.map { "added edge \(RunDiff.text($0))" }
                + diff.removedEdges.map { "removed edge \(RunDiff.text($0))" })
        list("Fixed findings", diff.fixedFindings.map(\.finding.compilerStyle))
        if let svg = content.changesSVG {
            let source = "data:image/svg+xml;base64," + Base64.encode(Array(SVGCleaner.clean(svg).utf8))
            page.raw("<figure class=\"process-graph\">")
            page.element("figcaption", text: "The site graph of both runs: added green, removed red, grown orange")
            page.open("img", ["alt": "Site graph of the changes since BASE", "src": source])
            page.raw("</figure>")
        }
        page.raw("</section>\n")
    }
}
