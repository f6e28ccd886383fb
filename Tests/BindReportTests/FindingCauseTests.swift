@_spi(Harness) import BindAnalysis
@_spi(Harness) import BindTraceModel
import BindTraceTestSupport
import Foundation
import Testing

@_spi(Harness) @testable import BindReport

@Suite("index.html: each finding's event and its direct cause")
struct FindingCauseTests {
    /// 'a' and 'b' whose closures update each other: a feedback cycle at the third update.
    private func loopTrace() -> [UInt8] {
        var trace = TraceWriter(minor: 0)
        trace.thread(1)
        for (id, label) in [(UInt64(1), "a"), (2, "b")] {
            trace.event(
                .outputCreated(
                    TraceEvent.OutputCreation(
                        output: id, kind: .output, valueType: "Int", site: SourceSite(file: "App/A.swift", line: 1),
                        label: label)))
        }
        for (subscription, output) in [(UInt64(1), UInt64(1)), (2, 2)] {
            trace.event(
                .bound(
                    TraceEvent.Binding(
                        subscription: subscription, output: output,
                        site: SourceSite(file: "App/View.swift", line: UInt(19 + subscription)))))
        }
        let first = trace.event(.updated(output: 1, cause: nil, preview: nil))
        let second = trace.event(
            .updated(output: 2, cause: TraceCause(subscription: 1, event: first), preview: nil))
        trace.event(.updated(output: 1, cause: TraceCause(subscription: 2, event: second), preview: nil))
        trace.end()
        return trace.bytes
    }

    @Test("a finding shows what happened at its event and the delivery that caused it")
    func directCause() throws {
        let path = NSTemporaryDirectory() + "report-\(UUID().uuidString).trace"
        try Data(loopTrace()).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }

        let content = try ReportContent.build(fromTrace: path).content
        let html = ReportWriter.html(content)

        let finding = try #require(content.findings.first { $0.kind == .feedbackCycle })
        let context = try #require(content.findingEvents[finding.event])
        #expect(context.event == 7)
        #expect(context.text.hasPrefix("update 'a' (Int)"))
        #expect(context.via?.contains("App/View.swift:21") == true)
        #expect(context.cause == 6)
        #expect(context.causeText?.hasPrefix("update 'b' (Int)") == true)
        #expect(html.contains("At event #7: update &#39;a&#39; (Int)"))
        #expect(html.contains("caused by event #6: update &#39;b&#39; (Int)"))
    }
}
