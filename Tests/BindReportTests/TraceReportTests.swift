@_spi(Harness) import BindTraceModel
import Foundation
import Testing

@_spi(Harness) @testable import BindAnalysis
@_spi(Harness) @testable import BindReport

#if Tracing
import Bind
#endif

@Suite("Reading a trace into a report (ReportContent.build(fromTrace:))")
struct TraceReportTests {
    private func output(_ id: UInt64, label: String?, updates: UInt64) -> OutputState {
        OutputState(
            id: id, kind: .map, valueType: "Int", site: SourceSite(file: "App/Screen.swift", line: UInt(id)),
            label: label, scope: 0, isPreexisting: false, createdAt: id, updateCount: updates, lastPreview: nil,
            isReleased: false, releasedAt: nil)
    }

    @Test("the timeline shows every labelled Output that updated, then the busiest unlabelled ones")
    func timelineChoice() {
        // Given labelled and unlabelled Outputs offered as they are released
        var candidates = TimelineCandidates(labelled: 200, unlabelled: 2)
        candidates.offer(output(1, label: "email", updates: 1))
        candidates.offer(output(2, label: "never updated", updates: 0))
        candidates.offer(output(3, label: nil, updates: 5))
        candidates.offer(output(4, label: nil, updates: 50))
        candidates.offer(output(5, label: nil, updates: 7))
        candidates.offer(output(6, label: "status", updates: 2))

        // When rows are chosen
        let chosen = candidates.chosen(limit: 200).map(\.id)

        // Then labelled first (in creation order), then the two busiest unlabelled
        #expect(chosen == [1, 6, 4, 5])
    }

    @Test("candidates stay bounded however many Outputs a trace releases")
    func boundedCandidates() {
        var candidates = TimelineCandidates(labelled: 10, unlabelled: 5)
        for id in UInt64(1)...100_000 {
            candidates.offer(output(id, label: id % 2 == 0 ? "cell" : nil, updates: id % 97))
        }

        let chosen = candidates.chosen(limit: 12)

        #expect(chosen.count == 12)
        #expect(chosen.prefix(10).allSatisfy { $0.label != nil })
        #expect(chosen.suffix(2).allSatisfy { $0.updates == 96 })
    }

    @Test("a row of a million updates keeps an even sample and the full count")
    func boundedRow() {
        var row = TimelineRowBuilder(
            .init(
                id: 7, label: nil, kind: .map, valueType: "Int", site: SourceSite(file: "App/Screen.swift", line: 9),
                updates: 0),
            capacity: 1_000)
        for sequence in UInt64(1)...1_000_000 { row.add(.init(time: sequence, sequence: sequence)) }

        let built = row.row

        #expect(built.totalUpdates == 1_000_000)
        #expect(built.updates.count <= 1_000)
        #expect(built.updates.first?.sequence == 1)
        #expect(built.name == "map → Int at Screen.swift:9", "named as everywhere else (Narrator)")
    }

    @Test("a missing trace is a read error")
    func missingTrace() {
        #expect(throws: TraceReadError.self) { try ReportContent.build(fromTrace: "/nonexistent/app.trace") }
    }

    #if Tracing
    @Test("a recorded trace: summary, findings, graph, timeline and events in one content")
    func recorded() throws {
        // Given a capture with a leaked subscription, saved to a file
        let title = Output<String>(value: "Ada").labeled("title")
        let recording = try #require(
            BindTrace.capture("report test") {
                BindTrace.scope("cell") { _ = title.bind { _ in } }
                let count = Output<Int>(value: 0).labeled("count")
                let doubled = count.map { $0 * 2 }
                let bag = SubscriptionContainer()
                doubled.bind { _ in }.add(to: bag)
                for value in 1...30 { count.update(withValue: value) }
                bag.unsubscribe()
            })
        let path = NSTemporaryDirectory() + "report-\(UUID().uuidString).trace"
        try Data(recording.bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }

        // When it is read into a report
        let report = try ReportContent.build(
            fromTrace: path, options: TraceReportOptions(analysis: AnalysisOptions(focusScope: recording.scope)))

        // Then
        let content = report.content
        #expect(content.findings.map(\.kind) == [.leakedSubscription])
        #expect(content.summary.contains { $0.label == "events" })
        #expect(report.graphNote == nil)
        #expect(content.graphSVG?.contains("title") == true)
        let count = try #require(content.timeline.first { $0.name == "'count' (Int)" })
        #expect(count.totalUpdates == 30)
        #expect(content.events.totalCount == content.events.rows.count)
        #expect(content.events.rows.contains { $0.description.contains("update 'count' (Int)") })
    }
    #endif
}
