// Fuzz target (c): the label and escaping paths of the graph (Graphviz SVG) and of the reports
// (HTML, JUnit XML, SARIF JSON).
//
// The input is split at 0xFF bytes into texts (invalid UTF-8 repaired, as the reader does). Each
// text goes into every place a trace string can reach — node titles and lines, tooltips, ids, edge
// labels, cluster titles, finding messages and sites, timeline names and previews, event rows —
// with the marker `<bindxss` in front. Whatever the text, the outputs must never contain the marker
// unescaped, the SVG and the JUnit XML must be well-formed XML, the SARIF must be JSON, and an SVG
// embedded in the report keeps no script element or event handler after cleaning.
@_spi(Harness) import BindAnalysis
@_spi(Harness) import BindGraph
@_spi(Harness) import BindReport
@_spi(Harness) import BindTraceModel
import Foundation
import FuzzSupport

let marker = "<bindxss"

runFuzzer { bytes in
    guard let flags = bytes.first else { return }
    var texts = bytes.dropFirst().split(separator: 0xFF, omittingEmptySubsequences: false)
        .map { String(decoding: $0, as: UTF8.self) }
    if texts.isEmpty { texts = [""] }
    var next = 0
    func text() -> String {
        defer { next += 1 }
        return marker + texts[next % texts.count]
    }

    // The graph: three nodes in a cluster, two labelled edges.
    var svg: String?
    if flags & 1 != 0 {
        let ids = [text(), text() + "2", text() + "3"]
        let document = GraphDocument(
            title: text(),
            nodes: ids.map { id in
                GraphDocument.Node(id: id, title: text(), lines: [text(), text()], tooltip: text(), cluster: "c")
            },
            edges: [
                GraphDocument.Edge(from: ids[0], to: ids[1], label: text(), tooltip: text()),
                GraphDocument.Edge(from: ids[1], to: ids[2], label: text()),
            ],
            clusters: [GraphDocument.Cluster(key: "c", title: text())],
            legend: GraphDocument.Legend(title: text(), nodes: [.init(label: text())], edges: [.init(label: text())]))
        do {
            let rendered = try GraphvizRenderer().render(document, format: .svg, layout: .dot)
            let output = rendered.text ?? ""
            require(!output.contains(marker), "SVG holds the marker unescaped")
            let scan = XMLScan(output)
            require(scan.isWellFormed, "Graphviz SVG is not well-formed: \(scan.error ?? "")")
            svg = output
        } catch GraphRenderError.duplicateNodeID {
            // Ids that sanitise to the same text are a documented error.
        } catch {
            require(false, "render failed: \(error)")
        }
    }
    if flags & 2 != 0 {
        // An SVG from anywhere: the report's cleaner is the wall in front of it.
        svg = texts.joined(separator: "\"")
    }

    let site = SourceSite(file: text(), line: 7)
    let content = ReportContent(
        title: text(), traceFile: text(),
        summary: [SummaryFigure(label: text(), value: text())],
        findings: [
            Finding(
                kind: .leakedSubscription, message: text(), site: site,
                related: [Finding.Related(site: site, note: text())], outputs: [1], subscriptions: [2], event: 3),
            Finding(kind: .feedbackCycle, message: text(), site: nil, event: 4),
        ],
        graphSVG: svg,
        timeline: [TimelineRow(name: text(), kind: text(), updates: [.init(time: 1, sequence: 2, preview: text())])],
        events: EventTable(rows: [EventRow(sequence: 1, time: 2, thread: 1, kind: text(), description: text())]))

    let html = ReportWriter.html(content)
    require(!html.contains(marker), "HTML report holds the marker unescaped")
    if flags & 3 != 0, let start = html.range(of: "data:image/svg+xml;base64,") {
        let encoded = html[start.upperBound...].prefix { $0 != "\"" }
        if let data = Data(base64Encoded: String(encoded)) {
            let cleaned = String(decoding: data, as: UTF8.self)
            let scan = XMLScan(cleaned)
            if scan.isWellFormed {
                // Local names, as a browser matches them: `s:script` with `s` bound to the SVG
                // namespace is a script element too (finding 5, fixed).
                let elements = scan.elements.map { $0.lowercased().split(separator: ":").last.map(String.init) ?? "" }
                require(
                    !elements.contains { $0 == "script" || $0 == "foreignobject" },
                    "cleaned SVG keeps a script element: \(elements)")
                let attributes = scan.attributes.map {
                    $0.lowercased().split(separator: ":").last.map(String.init) ?? ""
                }
                require(
                    !attributes.contains { $0.hasPrefix("on") },
                    "cleaned SVG keeps an event handler: \(scan.attributes)")
            }
        } else {
            require(false, "the embedded graph is not base64")
        }
    }

    let junit = ReportWriter.junit(content)
    require(!junit.contains(marker), "JUnit XML holds the marker unescaped")
    let junitScan = XMLScan(junit)
    require(junitScan.isWellFormed, "JUnit XML is not well-formed: \(junitScan.error ?? "")")

    let sarif = ReportWriter.sarif(content)
    require((try? JSONSerialization.jsonObject(with: Data(sarif.utf8))) != nil, "SARIF is not JSON")
}
