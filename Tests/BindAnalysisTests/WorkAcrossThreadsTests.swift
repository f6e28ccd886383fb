import Bind
import BindTraceModel
import Testing

@_spi(Harness) @testable import BindAnalysis

/// Scopes carried to other threads: work that binds after its scope ended is judged with it, and a
/// bind on a thread with no scope while scoped work runs is a note, never a finding.
@Suite("work across threads")
struct WorkAcrossThreadsTests {
    @Test(
        "an operation queued by a screen binds after the screen's scope ended: its abandoned binding is the screen's leak"
    )
    func carriedWorkAfterTheScopeEnded() {
        // Given a screen's scope that ended before the work it queued ran on another thread,
        var app = HandleTrace()
        app.trace.output(1, line: 3, label: "transfer rate")
        app.trace.beginScope(10, name: "downloads screen")
        app.trace.endScope(10)
        app.trace.thread = 2
        // when that work binds in the screen's scope and drops the Subscription,
        app.trace.bind(1, to: 1, line: 40, scope: 10)
        app.handleReleased(1)
        app.trace.update(1)
        // then the binding is the screen's leaked subscription.
        #expect(kindsAndLines(app.findings()) == ["leaked-subscription@40"])
    }

    @Test("the clean twin: the late work keeps its Subscription, so nothing is reported")
    func carriedWorkKeepsItsSubscription() {
        var app = HandleTrace()
        app.trace.output(1, line: 3)
        app.trace.beginScope(10, name: "downloads screen")
        app.trace.endScope(10)
        app.trace.thread = 2
        app.trace.bind(1, to: 1, line: 40, scope: 10)
        app.contained(1, in: 7)
        app.trace.update(1)
        #expect(app.findings().isEmpty)
    }

    @Test("a bind on a thread running no scope while another thread runs one is a note at the bind, not a finding")
    func unscopedBindIsANote() throws {
        // Given a scope running on thread 1,
        var trace = TraceBuilder()
        trace.output(1, line: 3)
        trace.beginScope(10, name: "stopwatch screen")
        // when thread 2 binds with no scope (twice from one line),
        trace.thread = 2
        trace.bind(1, to: 1, line: 50)
        trace.bind(2, to: 1, line: 50)
        trace.thread = 1
        trace.endScope(10)
        let result = TraceAnalyzer.analyze(events: trace.events)
        // then there is one note at that line, naming the scope, and no finding.
        #expect(result.findings.isEmpty)
        let note = try #require(result.notes.first)
        #expect(result.notes.count == 1)
        #expect(note.site.line == 50)
        #expect(note.message.contains("'stopwatch screen'"))
        #expect(note.compilerStyle.hasPrefix("App/Screen.swift:50: note: "))
    }

    @Test("a scope begun again while open replaces the old one: a hand-off is never inferred to be the old one's work")
    func replacedScopeIsNotRunning() throws {
        // Given an Output made in a scope whose id then begins again while it is open (a bad trace),
        var trace = TraceBuilder()
        trace.beginScope(10, name: "first run")
        trace.output(1, line: 3, scope: 10)
        trace.beginScope(10, name: "second run")
        // when another thread binds that Output with no scope,
        trace.thread = 2
        trace.bind(1, to: 1, line: 50)
        let result = TraceAnalyzer.analyze(events: trace.events)
        // then the bind is not the replaced scope's (it can never end, and its list would hold the
        // binding forever): it is a hand-off noted against the scope that runs.
        let note = try #require(result.notes.first)
        #expect(note.site.line == 50)
        #expect(note.message.contains("'second run'"), "\(note.message)")
        #expect(result.traceErrors.contains { $0.message.contains("begins again while open") })
    }

    @Test("binds with no scope on the scope's own thread, or while no scope runs, give no note")
    func noNoteWithoutAHandOff() {
        var trace = TraceBuilder()
        trace.output(1, line: 3)
        trace.bind(1, to: 1, line: 50)
        trace.beginScope(10, name: "screen")
        trace.bind(2, to: 1, line: 51)
        trace.thread = 2
        trace.bind(3, to: 1, line: 52, scope: 10)
        trace.thread = 1
        trace.endScope(10)
        #expect(TraceAnalyzer.analyze(events: trace.events).notes.isEmpty)
    }

    @Test("threads with large numbers count their scopes too: a note only for the thread that runs none")
    func largeThreadNumbersCountTheirScopes() {
        // Given a scope running on a thread whose number is past the small ones recorders hand out,
        var trace = TraceBuilder()
        trace.output(1, line: 3)
        trace.thread = 70_000
        trace.beginScope(10, name: "export screen")
        // when that thread binds with no scope, and so does thread 70,001,
        trace.bind(1, to: 1, line: 50)
        trace.thread = 70_001
        trace.bind(2, to: 1, line: 51)
        trace.thread = 70_000
        trace.endScope(10)
        // and, once the scope ended, thread 70,001 binds again with no scope,
        trace.thread = 70_001
        trace.bind(3, to: 1, line: 52)
        let result = TraceAnalyzer.analyze(events: trace.events)
        // then only thread 70,001's bind while the scope ran is a note.
        #expect(result.notes.map(\.site.line) == [51])
    }
}
