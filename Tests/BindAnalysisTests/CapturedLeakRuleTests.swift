import Bind
@_spi(Harness) import BindTraceModel
import Testing

@_spi(Harness) @testable import BindAnalysis

/// The leak rules judged by what bound closures capture (format 1.4): facts instead of guesses.
@Suite("retain cycles and handed-over work judged by recorded captures")
struct CapturedLeakRuleTests {
    typealias Capture = TraceEvent.Capture

    static func strong(_ type: String, holds: [(String, UInt64)], identity: UInt64 = 0x5000) -> Capture {
        Capture(strength: .strong, type: type, identity: identity, holds: holds.map { .init(path: $0.0, output: $0.1) })
    }

    static func weak(_ type: String) -> Capture { Capture(strength: .weak, type: type) }

    /// A screen (scope 10) with a view model of three Outputs, each bound by a closure of its own.
    static func screen(captures: [[Capture]]) -> TraceBuilder {
        var trace = TraceBuilder()
        trace.beginScope(10, name: "article screen", line: 5)
        for (index, output) in [UInt64(1), 2, 3].enumerated() {
            trace.output(
                output, line: 20 + UInt(index), label: ["title", "isBookmarked", "comments"][index], scope: 10)
        }
        for (index, closureCaptures) in captures.enumerated() {
            let subscription = UInt64(index + 1)
            trace.bind(subscription, to: UInt64(index + 1), line: 50 + UInt(index), scope: 10)
            trace.add(.captured(subscription: subscription, captures: closureCaptures))
            trace.add(.subscriptionContained(subscription: subscription, container: 7))
        }
        trace.endScope(10)
        return trace
    }

    static let viewModelPaths: [(String, UInt64)] = [
        (".viewModel.title", 1), (".viewModel.isBookmarked", 2), (".viewModel.comments", 3),
    ]

    @Test("one strong closure among [weak self] ones: the strong one is the culprit, with the path, no guesses")
    func strongAmongWeak() throws {
        let trace = Self.screen(captures: [
            [Self.weak("ArticleScreen")],
            [Self.strong("ArticleScreen", holds: Self.viewModelPaths)],
            [Self.weak("ArticleScreen")],
        ])
        let result = TraceAnalyzer.analyze(events: trace.events)
        #expect(kindsAndLines(result.findings) == ["retain-cycle@51"])
        let finding = try #require(result.findings.first)
        #expect(
            finding.message.contains(
                "captures ArticleScreen strongly, which holds .viewModel.isBookmarked ('isBookmarked' (Int)), "
                    + "the Output the closure is bound to"))
        #expect(!finding.message.contains("check them too"))
        // The whole view model is kept: all three Outputs are in the finding.
        #expect(Set(finding.outputs) == [1, 2, 3])
        let path = try #require(ReferencePath.describe(finding, in: result.state))
        #expect(path.contains("captures ArticleScreen strongly → .viewModel.isBookmarked → 'isBookmarked' (Int)"))
    }

    @Test("the clean twin: every closure captures the screen weakly, nothing is reported")
    func allWeak() {
        let trace = Self.screen(captures: [
            [Self.weak("ArticleScreen")], [Self.weak("ArticleScreen")], [Self.weak("ArticleScreen")],
        ])
        #expect(TraceAnalyzer.analyze(events: trace.events).findings.isEmpty)
    }

    @Test("a strong capture of something that does not hold the Output closes no cycle")
    func strongButUnrelated() {
        let trace = Self.screen(captures: [[Self.strong("Logger", holds: [])], [], []])
        #expect(TraceAnalyzer.analyze(events: trace.events).findings.isEmpty)
    }

    @Test("a lazy var derived with flatMap { self.page(for: $0) } keeps its view model through the transform")
    func flatMapTransformCycle() throws {
        var trace = TraceBuilder()
        trace.beginScope(10, name: "reader screen", line: 5)
        trace.output(1, line: 20, label: "selection", scope: 10)
        trace.output(2, .flatMap, line: 31, scope: 10)
        trace.edge(1, 2, .flatMap)
        trace.bind(1, to: 1, line: 31, isInternal: true, scope: 10)
        trace.add(
            .captured(subscription: 1, captures: [Self.strong("ReaderViewModel", holds: [(".selection", 1)])]))
        trace.endScope(10)
        let findings = TraceAnalyzer.analyze(events: trace.events).findings
        #expect(kindsAndLines(findings) == ["retain-cycle@31"])
        #expect(
            findings.first?.message.contains("the transform of this operator captures ReaderViewModel strongly") == true
        )
    }

    @Test("the clean twin: the transform captures the view model weakly")
    func flatMapTransformWeak() {
        var trace = TraceBuilder()
        trace.beginScope(10, name: "reader screen", line: 5)
        trace.output(1, line: 20, label: "selection", scope: 10)
        trace.output(2, .flatMap, line: 31, scope: 10)
        trace.edge(1, 2, .flatMap)
        trace.bind(1, to: 1, line: 31, isInternal: true, scope: 10)
        trace.add(.captured(subscription: 1, captures: [Self.weak("ReaderViewModel")]))
        trace.endScope(10)
        #expect(TraceAnalyzer.analyze(events: trace.events).findings.isEmpty)
    }

    @Test("a view model kept on purpose, whose only closure captures it weakly, is no retain cycle")
    func keptOnPurposeWeak() {
        var trace = TraceBuilder()
        trace.beginScope(10, name: "launch", line: 5)
        trace.output(1, line: 20, label: "badge", scope: 10)
        trace.bind(1, to: 1, line: 40, scope: 10)
        trace.add(.captured(subscription: 1, captures: [Self.weak("AppViewModel")]))
        trace.add(.handleReleased(subscription: 1))
        trace.endScope(10)
        trace.update(1)
        #expect(TraceAnalyzer.analyze(events: trace.events).findings.isEmpty)
    }

    @Test("a singleton's Output and a map of it made in its initialiser live together: not the first toucher's leak")
    func singletonDerivedOutput() {
        var trace = TraceBuilder()
        trace.beginScope(10, name: "first screen", line: 5)
        trace.output(1, line: 20, label: "session", scope: 10)
        trace.output(2, .map, line: 21, scope: 10)
        trace.edge(1, 2)
        trace.bind(1, to: 1, line: 21, isInternal: true, scope: 10)
        trace.add(.captured(subscription: 1, captures: []))
        trace.endScope(10)
        // Later work binds the store's Output: it is shared.
        trace.bind(2, to: 1, line: 70)
        trace.add(.captured(subscription: 2, captures: [Self.weak("Badge")]))
        trace.update(1)
        #expect(TraceAnalyzer.analyze(events: trace.events).findings.isEmpty)
    }

    @Test("a bind on a thread with no scope, to an Output a running scope made, is judged with that scope")
    func handOffToAnotherThread() throws {
        var trace = TraceBuilder()
        trace.beginScope(10, name: "feed screen", line: 5)
        trace.output(1, line: 20, label: "items", scope: 10)
        // An Operation's main() on a queue thread: no scope there. Its closure keeps the screen.
        trace.thread = 2
        trace.bind(1, to: 1, line: 60)
        trace.add(.captured(subscription: 1, captures: [Self.strong("FeedScreen", holds: [(".items", 1)])]))
        trace.thread = 1
        trace.endScope(10)
        trace.update(1)
        let result = TraceAnalyzer.analyze(events: trace.events)
        #expect(result.notes.isEmpty)
        #expect(kindsAndLines(result.findings) == ["retain-cycle@60"])
    }

    @Test("a handed-over bind whose captured instance holds a running scope's Output joins that scope")
    func handOffByCapture() throws {
        var trace = TraceBuilder()
        trace.beginScope(10, name: "feed screen", line: 5)
        trace.output(1, line: 20, label: "items", scope: 10)
        trace.output(2, line: 3, label: "clock")
        trace.thread = 2
        trace.bind(1, to: 2, line: 61)
        trace.add(.captured(subscription: 1, captures: [Self.strong("FeedScreen", holds: [(".items", 1)])]))
        trace.add(.handleReleased(subscription: 1))
        trace.thread = 1
        trace.endScope(10)
        trace.update(2)
        let result = TraceAnalyzer.analyze(events: trace.events)
        #expect(result.notes.isEmpty)
        #expect(kindsAndLines(result.findings) == ["leaked-subscription@61"])
    }

    @Test("captures that could not be read leave the old rule, and the finding says so")
    func unreadableCaptures() throws {
        let trace = Self.screen(captures: [[Capture(strength: .unknown, type: "<generic context>")], [], []])
        let findings = TraceAnalyzer.analyze(events: trace.events).findings
        #expect(kindsAndLines(findings) == ["retain-cycle@50"])
        #expect(findings.first?.message.contains("could not be read") == true)
    }
}
