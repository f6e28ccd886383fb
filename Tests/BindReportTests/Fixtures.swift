@_spi(Harness) import BindAnalysis
@_spi(Harness) import BindTraceModel
import Foundation

@_spi(Harness) @testable import BindReport

/// Strings a hostile or careless program could put in labels, type names and previews.
enum Hostile {
    static let script = "<script>alert(1)</script>"
    static let handler = "\" onload=\"alert(2)"
    static let url = "javascript:alert(3)"
    static let quotes = "it's \"quoted' & <b>bold</b"
    static let all = [script, handler, url, quotes]
}

enum Fixtures {
    static let svg = """
        <?xml version="1.0" encoding="UTF-8" standalone="no"?>
        <svg width="260pt" height="116pt" viewBox="0.00 0.00 260.00 116.00" xmlns="http://www.w3.org/2000/svg" \
        xmlns:xlink="http://www.w3.org/1999/xlink" onload="alert(4)">
        <script>alert(5)</script>
        <g id="graph0" class="graph" transform="scale(1 1) rotate(0) translate(4 112)">
        <polygon fill="white" stroke="none" points="-4,4 -4,-112 256,-112 256,4 -4,4"/>
        <a xlink:href="javascript:alert(6)"><g id="node1" class="node"><title>email</title>
        <ellipse fill="none" stroke="black" cx="60" cy="-90" rx="52" ry="18"/>
        <text text-anchor="middle" x="60" y="-86.3" font-family="Times,serif" font-size="14.00">email</text></g></a>
        <g id="node2" class="node" onclick="alert(7)"><title>isValid</title>
        <ellipse fill="none" stroke="red" cx="180" cy="-18" rx="60" ry="18"/>
        <text text-anchor="middle" x="180" y="-14.3" font-family="Times,serif" font-size="14.00">isValid</text></g>
        <g id="edge1" class="edge"><title>email&#45;&gt;isValid</title>
        <path fill="none" stroke="black" d="M83,-74C103,-62 131,-46 150,-35"/></g>
        </g>
        </svg>
        """

    static func finding(
        _ kind: Finding.Kind, _ file: String = "App/Cell.swift", _ line: UInt = 42, message: String = "it leaks"
    ) -> Finding {
        Finding(
            kind: kind, message: message, site: SourceSite(file: file, line: line),
            related: [.init(site: SourceSite(file: "App/Model.swift", line: 7), note: "the Output is created here")],
            outputs: [3], subscriptions: [9], event: 12)
    }

    /// A small report whose every string field holds hostile text.
    static func hostileContent() -> ReportContent {
        var content = ReportContent(title: "Report \(Hostile.script)", traceFile: Hostile.handler)
        content.summary = [.init(label: Hostile.script, value: Hostile.handler), .init(label: "events", value: "6")]
        content.findings = [
            Finding(
                kind: .leakedSubscription, message: "subscription to '\(Hostile.script)' \(Hostile.handler)",
                site: SourceSite(file: "App/\(Hostile.url).swift", line: 3),
                related: [.init(site: SourceSite(file: "App/\(Hostile.quotes)", line: 4), note: Hostile.script)]),
            finding(.feedbackCycle, message: Hostile.quotes),
        ]
        content.graphSVG = svg
        content.timeline = [
            TimelineRow(
                name: Hostile.script, kind: "output",
                updates: [
                    .init(time: 10, sequence: 2, preview: Hostile.handler),
                    .init(time: 90, sequence: 5, preview: Hostile.url),
                ])
        ]
        content.events = EventTable(
            rows: (1...6).map { index in
                EventRow(
                    sequence: UInt64(index), time: UInt64(index * 10), thread: 1,
                    kind: index % 2 == 0 ? "updated" : "bound",
                    description: Hostile.all[index % Hostile.all.count])
            })
        return content
    }

    /// A fresh empty directory under the temporary directory.
    static func temporaryDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "bind-report-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
