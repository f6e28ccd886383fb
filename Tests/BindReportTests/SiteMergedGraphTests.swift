@_spi(Harness) import BindAnalysis
@_spi(Harness) import BindTraceModel
import BindTraceTestSupport
import Foundation
import Testing

@_spi(Harness) @testable import BindReport

@Suite("a report of several traces: one graph merged by creation site")
struct SiteMergedGraphTests {
    /// One process's final graph: Outputs (id, label, line of App/Form.swift, updates) and bindings
    /// (subscription, Output, line of App/View.swift).
    private func finalState(
        outputs: [(id: UInt64, label: String, line: UInt, updates: Int)], bindings: [(UInt64, UInt64, UInt)]
    ) throws -> GraphState {
        var trace = TraceWriter(minor: 0)
        trace.thread(1)
        for output in outputs {
            trace.event(
                .outputCreated(
                    TraceEvent.OutputCreation(
                        output: output.id, kind: .output, valueType: "String",
                        site: SourceSite(file: "App/Form.swift", line: output.line), label: output.label)))
        }
        for (subscription, output, line) in bindings {
            trace.event(
                .bound(
                    TraceEvent.Binding(
                        subscription: subscription, output: output, site: SourceSite(file: "App/View.swift", line: line)
                    )
                ))
        }
        for output in outputs {
            for value in 0..<output.updates {
                trace.event(.updated(output: output.id, cause: nil, preview: "\"\(output.label)-\(value)\""))
            }
        }
        trace.end()
        let path = NSTemporaryDirectory() + "merge-\(UUID().uuidString).trace"
        try Data(trace.bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        var options = TraceReportOptions()
        options.includesDetails = false
        return try #require(try ReportContent.build(fromTrace: path, options: options).finalState)
    }

    @Test("Outputs created at the same line in two processes are one node; their updates add up")
    func mergesBySite() throws {
        // Given two processes that both create 'email' at Form.swift:10, with different ids, and bind it
        // at View.swift:20 (both) and View.swift:21 (the second only).
        let first = try finalState(
            outputs: [(1, "email", 10, 2), (2, "name", 11, 0)], bindings: [(1, 1, 20)])
        let second = try finalState(
            outputs: [(7, "email", 10, 1), (8, "other", 30, 0)], bindings: [(4, 7, 20), (5, 7, 21)])

        // When both are merged.
        var merged = SiteMergedGraph()
        merged.add(first, findings: [])
        merged.add(second, findings: [])
        let state = merged.state

        // Then three Outputs, 'email' once with both processes' updates, and two binding lines.
        #expect(state.outputs.map(\.label) == ["email", "name", "other"])
        #expect(state.outputs.map(\.id) == [1, 2, 3])
        #expect(state.outputs[0].updateCount == 3)
        #expect(state.outputs[0].lastPreview == "\"email-0\"")
        #expect(state.subscriptions.map(\.site.line) == [20, 21])
        #expect(state.subscriptions.allSatisfy { $0.output == 1 })
        #expect(merged.processes == 2)
    }

    @Test("a process's finding is carried over about the merged Output and subscription, once per fingerprint")
    func renamesFindings() throws {
        let first = try finalState(outputs: [(1, "email", 10, 0)], bindings: [(1, 1, 20)])
        let second = try finalState(outputs: [(7, "email", 10, 0)], bindings: [(4, 7, 20), (5, 7, 21)])
        let leak = Finding(
            kind: .leakedSubscription, message: "still bound", site: SourceSite(file: "App/View.swift", line: 21),
            outputs: [7], subscriptions: [5])

        var merged = SiteMergedGraph()
        merged.add(first, findings: [])
        merged.add(second, findings: [leak])
        merged.add(second, findings: [leak])

        #expect(merged.findings.count == 1)
        #expect(merged.findings.first?.outputs == [1])
        #expect(merged.findings.first?.subscriptions == [2])
    }

    @Test("the merged graph is drawn, and the page shows it as a still, cleaned image before the processes'")
    func mergedPicture() throws {
        let first = try finalState(outputs: [(1, "email", 10, 1)], bindings: [(1, 1, 20)])
        var merged = SiteMergedGraph()
        merged.add(first, findings: [])
        merged.add(first, findings: [])

        let svg = try #require(merged.svg(options: TraceReportOptions()))
        var content = Fixtures.hostileContent()
        content.graphSVG = nil
        content.mergedGraphSVG = Fixtures.svg
        content.processGraphs = [ProcessGraph(trace: "worker-1.trace", svg: Fixtures.svg)]
        let html = ReportWriter.html(content)

        #expect(svg.contains("2 processes merged by creation site"))
        #expect(svg.contains("email"))
        let mergedAt = try #require(html.range(of: "<figcaption>All processes, merged by creation site</figcaption>"))
        let processAt = try #require(html.range(of: "<figcaption>worker-1.trace</figcaption>"))
        #expect(mergedAt.lowerBound < processAt.lowerBound)
        let images = html.matches(of: #/src="data:image/svg\+xml;base64,([^"]*)"/#).map { String($0.1) }
        #expect(images.count == 2)
        let picture = try #require(Data(base64Encoded: images[0]).map { String(decoding: $0, as: UTF8.self) })
        #expect(!picture.contains("<script") && !picture.contains("onload"))
    }
}
