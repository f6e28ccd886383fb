@_spi(Harness) import BindAnalysis
@_spi(Harness) import BindTraceModel
import BindTraceTestSupport
import Foundation
import Testing

@_spi(Harness) @testable import BindReport

@Suite("index.html: what a clicked node lists, and where a selected finding's event is")
struct NodeDetailsTests {
    @Test("a report read from a trace knows each Output's updates, last value and bindings at the end")
    func detailsFromTrace() throws {
        // Given 'a' bound twice (once unbound again) and updated seven times, and 'b' never touched.
        var trace = TraceWriter(minor: 0)
        trace.thread(1)
        for (id, label) in [(UInt64(1), "a"), (2, "b")] {
            trace.event(
                .outputCreated(
                    TraceEvent.OutputCreation(
                        output: id, kind: .output, valueType: "Int", site: SourceSite(file: "App/A.swift", line: 1),
                        label: label)))
        }
        for subscription in [UInt64(1), 2] {
            trace.event(
                .bound(
                    TraceEvent.Binding(
                        subscription: subscription, output: 1,
                        site: SourceSite(file: "App/View.swift", line: UInt(19 + subscription)))))
        }
        trace.event(.unbound(subscription: 2, reason: .unsubscribe, cause: nil))
        for value in 1...7 { trace.event(.updated(output: 1, cause: nil, preview: "\(value)")) }
        trace.end()
        let path = NSTemporaryDirectory() + "report-\(UUID().uuidString).trace"
        try Data(trace.bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }

        // When the report is built.
        let content = try ReportContent.build(fromTrace: path).content

        // Then 'a' lists its updates, the last five with their events (6-12), and the one binding still bound.
        let a = try #require(content.outputDetails[1])
        #expect(a.name.contains("'a'"))
        #expect(a.site == "App/A.swift:1")
        #expect(a.updates == 7)
        #expect(a.lastValue == "7")
        #expect(a.recentUpdates.map(\.sequence) == [8, 9, 10, 11, 12])
        #expect(a.recentUpdates.map(\.preview) == ["3", "4", "5", "6", "7"])
        #expect(a.bindings == ["App/View.swift:20 (subscription 1)"])
        #expect(content.outputDetails[2]?.updates == 0)
        #expect(content.outputDetails[2]?.bindings == [])
        #expect(content.outputDetails[2]?.recentUpdates == [])
    }

    @Test("each Output node's details are in the page as hidden, escaped text, with its bindings' lines")
    func detailsInPage() {
        var content = Fixtures.hostileContent()
        content.graphSVG = Fixtures.svg.replacingOccurrences(of: "<title>email</title>", with: "<title>o3</title>")
        content.outputDetails = [
            3: OutputDetail(
                name: "#3 '\(Hostile.script)'", site: "App/Model.swift:7", updates: 1_200, lastValue: Hostile.handler,
                bindings: ["App/View.swift:20 (subscription 1)"], bindingCount: 25),
            // Not in the graph: nothing to click, so not in the page.
            4: OutputDetail(name: "#4 'absent'", site: "App/Model.swift:8", updates: 0),
        ]

        content.outputDetails[3]?.recentUpdates = [.init(time: 1, sequence: 12, preview: Hostile.script)]

        let html = ReportWriter.html(content)

        #expect(html.contains("<li><a href=\"#event-12\">event #12</a>: &lt;script&gt;alert(1)&lt;/script&gt;</li>"))
        #expect(html.contains("<div id=\"node-details\" hidden><div class=\"node-detail\" data-node=\"o3\">"))
        #expect(html.contains("#3 &#39;&lt;script&gt;alert(1)&lt;/script&gt;&#39; created at <code>App/Model.swift:7"))
        #expect(html.contains("1,200 updates, last value &quot; onload=&quot;alert(2)"))
        #expect(html.contains("Bound at the end by 25 subscriptions (the first 1 listed):"))
        #expect(html.contains("<li class=\"mono\">App/View.swift:20 (subscription 1)</li>"))
        #expect(!html.contains("absent"))
    }

    @Test("event rows carry their event number and findings their event, for the table to scroll to")
    func eventAnchors() {
        var content = Fixtures.hostileContent()
        content.findings.append(Fixtures.finding(.duplicateBinding))

        let html = ReportWriter.html(content)

        #expect(html.contains("<tr data-kind=\"updated\" id=\"event-4\">"))
        #expect(
            html.contains(
                "id=\"finding-3\" tabindex=\"0\" data-outputs=\"3\" data-subscriptions=\"9\" data-event=\"12\""))
        // A finding with no event (0) names none.
        #expect(html.contains("id=\"finding-1\" tabindex=\"0\" data-outputs=\"\">"))
    }
}
