import Bind
@_spi(Harness) import BindTraceModel
import Testing

@_spi(Harness) @testable import BindAnalysis

/// Leaks that ended before the trace did, bindings owned with their Output, released containers,
/// and retain cycles named at a bind.
@Suite("leaks that ended, owned bindings, released containers, retain cycles")
struct LateAndOwnedLeakTests {
    static let label = BinderTarget(type: "App.Label", identity: 0xA0)

    /// A screen's scope that derives a map from the app's Output 1: the scope is four events long.
    private func screenDerivingFromTheApp(sourceInScope: Bool = false) -> TraceBuilder {
        var trace = TraceBuilder()
        trace.beginScope(10, name: "quote screen", line: 70)
        trace.output(1, line: 3, label: "price", scope: sourceInScope ? 10 : 0)
        trace.output(2, .map, line: 20, scope: 10)
        trace.edge(1, 2)
        trace.endScope(10)
        return trace
    }

    @Test("a derived Output its source kept well past its scope is a leak even when released before the end")
    func derivedReleasedLate() throws {
        // Given a map derived in a screen's scope from the app's Output,
        var trace = screenDerivingFromTheApp()
        // when the source keeps updating it long after the scope, then goes (and the map with it),
        for _ in 0..<6 { trace.update(1) }
        let released = trace.release(2)
        trace.release(1)
        let findings = TraceAnalyzer.analyze(events: trace.events).findings
        // then it is one leaked Output at the operator call, saying how long and when it ended.
        #expect(kindsAndLines(findings) == ["leaked-output@20"])
        let message = try #require(findings.first?.message)
        #expect(message.contains("outlived it by 7 events"), "\(message)")
        #expect(message.contains("released at event #\(released)"), "\(message)")
        #expect(findings.first?.related.contains { $0.site.line == 70 } == true)
    }

    @Test("the same operator line leaking late in two screens is one finding, counted")
    func derivedReleasedLateTwice() throws {
        var trace = TraceBuilder()
        trace.output(1, line: 3, label: "price")
        for (scope, derived) in [(UInt64(10), UInt64(2)), (11, 3)] {
            trace.beginScope(scope, name: "quote screen", line: 70)
            trace.output(derived, .map, line: 20, scope: scope)
            trace.edge(1, derived)
            trace.endScope(scope)
        }
        for _ in 0..<8 { trace.update(1) }
        trace.release(2)
        trace.release(3)
        let findings = TraceAnalyzer.analyze(events: trace.events).findings
        #expect(kindsAndLines(findings) == ["leaked-output@20"])
        #expect(findings.first?.message.hasSuffix("(2 times from this line)") == true, "\(findings)")
    }

    @Test("the clean twins: released soon after its scope, or derived from its own scope's Output, it is no leak")
    func derivedReleasedSoonOrOwned() {
        var soon = screenDerivingFromTheApp()
        soon.release(2)
        #expect(TraceAnalyzer.analyze(events: soon.events).findings.isEmpty)

        var owned = screenDerivingFromTheApp(sourceInScope: true)
        for _ in 0..<6 { owned.update(1) }
        owned.release(2)
        owned.release(1)
        #expect(TraceAnalyzer.analyze(events: owned.events).findings.isEmpty)
    }

    @Test("a cell's binding to the row view model it made, handle dropped, goes with the row: no leak")
    func bindingOwnedWithItsOutput() {
        // Given a configuration that makes its row's Output and binds a label to it without keeping the handle,
        var app = HandleTrace()
        app.trace.beginScope(10, name: "cell for row 0")
        app.trace.output(1, line: 5, label: "row name", scope: 10)
        app.trace.bind(1, to: 1, line: 30, target: Self.label, scope: 10)
        app.handleReleased(1)
        app.trace.endScope(10)
        // when the row updates later and the next configuration replaces it (and one row is still shown),
        app.trace.update(1)
        app.trace.unbind(1, reason: .outputReleased)
        app.trace.release(1)
        app.trace.beginScope(11, name: "cell for row 1")
        app.trace.output(2, line: 5, label: "row name", scope: 11)
        app.trace.bind(2, to: 2, line: 30, target: Self.label, scope: 11)
        app.handleReleased(2)
        app.trace.endScope(11)
        app.trace.update(2)
        // then nothing is reported.
        #expect(app.findings().isEmpty)
    }

    @Test("a cell replacing the row view model it is handed, each old one taking the label's binding along: no leak")
    func bindingReplacedWithItsOutput() {
        // Given row view models made outside the cell's configurations (handed in),
        var app = HandleTrace()
        for row in UInt64(1)...3 { app.trace.output(row, line: 5, label: "row name") }
        for row in UInt64(1)...3 {
            // when each configuration binds the label to its row without keeping the handle,
            app.trace.beginScope(10 + row, name: "cell for row \(row)")
            app.trace.bind(row, to: row, line: 30, target: Self.label, scope: 10 + row)
            app.handleReleased(row)
            app.trace.endScope(10 + row)
            app.trace.update(row)
            // and the next one replaces the row, which goes with its binding (the last stays on screen),
            if row < 3 {
                app.trace.unbind(row, reason: .outputReleased)
                app.trace.release(row)
            }
        }
        // then nothing is reported.
        #expect(app.findings().isEmpty)
    }

    @Test("the planted twin: the same binding to an Output the app owns is a leaked subscription")
    func bindingToTheAppsOutput() {
        var app = HandleTrace()
        app.trace.output(1, line: 5, label: "presence")
        app.trace.beginScope(10, name: "cell for row 0")
        app.trace.bind(1, to: 1, line: 30, target: Self.label, scope: 10)
        app.handleReleased(1)
        app.trace.endScope(10)
        app.trace.update(1)
        #expect(kindsAndLines(app.findings()) == ["leaked-subscription@30"])
    }

    @Test(
        "a container released while holding bound subscriptions: the finding says its owner went and to empty it in deinit"
    )
    func releasedContainer() throws {
        var app = HandleTrace()
        app.trace.output(1, line: 3, label: "unread")
        app.trace.beginScope(10, name: "mail cell")
        app.trace.bind(1, to: 1, line: 40, scope: 10)
        app.contained(1, in: 7)
        app.trace.bind(2, to: 1, line: 41, scope: 10)
        app.contained(2, in: 7)
        app.trace.endScope(10)
        // The cell goes, and its container with it, still holding both.
        app.handleReleased(1)
        app.handleReleased(2)
        app.trace.update(1)
        let findings = app.findings()
        #expect(kindsAndLines(findings) == ["leaked-subscription@40", "leaked-subscription@41"])
        let message = try #require(findings.first?.message)
        #expect(message.contains("was released with 2 subscriptions still bound; empty the container in `deinit`"))
    }

    @Test("closures from two lines keep a scope's Outputs: one retain-cycle at the first bind, the other line a note")
    func retainCycleAtTheFirstClosure() throws {
        var trace = TraceBuilder()
        trace.beginScope(10, name: "composer")
        trace.output(1, .relay, line: 3, label: "typed", scope: 10)
        trace.output(2, line: 4, label: "draft", scope: 10)
        trace.bind(1, to: 1, line: 20, scope: 10)
        trace.bind(2, to: 2, line: 21, scope: 10)
        trace.endScope(10)
        let findings = TraceAnalyzer.analyze(events: trace.events).findings
        #expect(kindsAndLines(findings) == ["retain-cycle@20"])
        let finding = try #require(findings.first)
        #expect(finding.message.contains("1 other line also bind"), "\(finding.message)")
        #expect(finding.related.contains { $0.site.line == 21 && $0.note.contains("does it capture its owner?") })
        #expect(finding.related.contains { $0.site.line == 3 && $0.note.contains("created here") })
    }
}
