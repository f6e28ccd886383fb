import Bind
@_spi(Harness) import BindTraceModel
import Testing

@_spi(Harness) @testable import BindAnalysis

/// The leak rules on what the trace can prove: superseded bindings, abandoned subscriptions,
/// leaks that ended late, long-lived Outputs, one finding per retain cycle.
@Suite("leak rules a user can trust")
struct TrustedLeakRuleTests {
    static let label = BinderTarget(type: "App.Label", identity: 0xA0)

    @Test(
        "a reused cell's label bound to one post, then another, without unbinding: duplicate-binding with the evidence")
    func reusedTargetDifferentOutputs() throws {
        var app = HandleTrace()
        app.trace.output(1, line: 3, label: "post 1")
        app.trace.output(2, line: 3, label: "post 21")
        app.trace.beginScope(10, name: "cell 0 for row 1")
        app.trace.bind(1, to: 1, line: 30, target: Self.label, scope: 10)
        app.trace.endScope(10)
        app.trace.beginScope(11, name: "cell 0 for row 21")
        app.trace.bind(2, to: 2, line: 30, target: Self.label, scope: 11)
        app.trace.endScope(11)
        let like = app.trace.update(1)
        // The screen goes: nothing is alive at the end, the bug still is.
        app.trace.unbind(1, reason: .outputReleased)
        app.trace.release(1)
        app.trace.unbind(2, reason: .outputReleased)
        app.trace.release(2)

        let findings = app.findings()
        #expect(kindsAndLines(findings) == ["duplicate-binding@30"])
        let message = try #require(findings.first?.message)
        #expect(message.contains("to 2 Outputs at once ('post 1' (Int), 'post 21' (Int))"))
        #expect(
            message.contains(
                "an update of 'post 1' (Int) at event #\(like) reached the Label now showing 'post 21' (Int)"))
    }

    @Test("the clean twin: the cell unbinds its previous row before binding the next")
    func reusedTargetUnbound() {
        var app = HandleTrace()
        app.trace.output(1, line: 3)
        app.trace.output(2, line: 3)
        app.trace.bind(1, to: 1, line: 30, target: Self.label)
        app.trace.unbind(1, reason: .container)
        app.trace.bind(2, to: 2, line: 30, target: Self.label)
        app.trace.update(1)
        #expect(app.findings().isEmpty)
    }

    @Test("a screen that binds again on every appearance: the hint says to unsubscribe, not a reused cell")
    func rebindOnAppearance() throws {
        var trace = TraceBuilder()
        trace.output(1, line: 3, label: "title")
        trace.bind(1, to: 1, line: 40, target: Self.label)
        trace.bind(2, to: 1, line: 40, target: Self.label)
        let findings = TraceAnalyzer.analyze(events: trace.events).findings
        #expect(kindsAndLines(findings) == ["duplicate-binding@40"])
        let message = try #require(findings.first?.message)
        #expect(message.contains("bound 2 times at once to the same Label"))
        #expect(!message.contains("reused cell"))
    }

    @Test("closures of one line piling up in one container across configurations are a duplicate binding")
    func containerPileUp() {
        var app = HandleTrace()
        app.trace.output(1, line: 3)
        app.trace.output(2, line: 3)
        app.trace.beginScope(10, name: "configure row 1")
        app.trace.bind(1, to: 1, line: 50, scope: 10)
        app.contained(1, in: 77)
        app.trace.endScope(10)
        app.trace.beginScope(11, name: "configure row 21")
        app.trace.bind(2, to: 2, line: 50, scope: 11)
        app.contained(2, in: 77)
        app.trace.endScope(11)
        #expect(kindsAndLines(app.findings()) == ["duplicate-binding@50"])
    }

    @Test("the clean twins: a screen binding its rows in a loop into one container, and a cell that empties it")
    func containerTwins() {
        var loop = HandleTrace()
        loop.trace.output(1, line: 3)
        loop.trace.output(2, line: 3)
        loop.trace.beginScope(10, name: "screen")
        loop.trace.bind(1, to: 1, line: 50, scope: 10)
        loop.contained(1, in: 77)
        loop.trace.bind(2, to: 2, line: 50, scope: 10)
        loop.contained(2, in: 77)
        #expect(loop.findings().isEmpty)

        var emptied = HandleTrace()
        emptied.trace.output(1, line: 3)
        emptied.trace.output(2, line: 3)
        emptied.trace.beginScope(10, name: "configure row 1")
        emptied.trace.bind(1, to: 1, line: 50, scope: 10)
        emptied.contained(1, in: 77)
        emptied.trace.endScope(10)
        emptied.trace.unbind(1, reason: .container)
        emptied.trace.beginScope(11, name: "configure row 21")
        emptied.trace.bind(2, to: 2, line: 50, scope: 11)
        emptied.contained(2, in: 77)
        emptied.trace.endScope(11)
        #expect(emptied.findings().isEmpty)
    }

    @Test("a reused cell's current binding, held by its container, is not a leak when the app quits")
    func currentBindingSurvives() {
        var app = HandleTrace()
        app.trace.output(1, line: 3)
        app.trace.beginScope(10, name: "cell 0 for row 20")
        app.trace.bind(1, to: 1, line: 30, target: Self.label, scope: 10)
        app.contained(1, in: 77)
        app.trace.bind(2, to: 1, line: 31, scope: 10)
        app.contained(2, in: 77)
        app.trace.endScope(10)
        app.trace.update(1)
        #expect(app.findings().isEmpty)
    }

    @Test("a subscription whose handle was released while bound, in a scope that ended, is a leaked subscription")
    func abandoned() throws {
        var app = HandleTrace()
        app.trace.output(1, line: 3, label: "session user")
        app.trace.beginScope(10, name: "profile screen")
        app.trace.bind(1, to: 1, line: 60, scope: 10)
        app.handleReleased(1)
        app.trace.endScope(10)
        app.trace.update(1)
        app.trace.update(1)

        let findings = app.findings()
        #expect(kindsAndLines(findings) == ["leaked-subscription@60"])
        let message = try #require(findings.first?.message)
        #expect(message.contains("nothing can unbind it"))
        #expect(message.contains("received 2 updates since"))
    }

    @Test("a leak that ended late: the source was released before the end, the finding says how long and how many")
    func endedLate() throws {
        var app = HandleTrace()
        app.trace.output(1, line: 3, label: "session user")
        app.trace.beginScope(10, name: "profile screen")
        app.trace.bind(1, to: 1, line: 60, scope: 10)
        app.trace.endScope(10)
        app.handleReleased(1)
        for _ in 0..<3 { app.trace.update(1) }
        app.trace.unbind(1, reason: .outputReleased)
        app.trace.release(1)

        let findings = app.findings()
        #expect(kindsAndLines(findings) == ["leaked-subscription@60"])
        let message = try #require(findings.first?.message)
        #expect(message.contains("outlived its scope by"))
        #expect(message.contains("3 updates"))
    }

    @Test("the clean twin of a late leak: released with its owner, no value after its scope ended")
    func releasedWithOwner() {
        var app = HandleTrace()
        app.trace.output(1, line: 3)
        app.trace.beginScope(10, name: "profile screen")
        app.trace.bind(1, to: 1, line: 60, scope: 10)
        app.trace.endScope(10)
        app.handleReleased(1)
        app.trace.unbind(1, reason: .outputReleased)
        app.trace.release(1)
        #expect(app.findings().isEmpty)
    }

    @Test("a singleton first used in a scope is not that scope's leak; the scope's abandoned bind to it is")
    func lazySingleton() {
        var app = HandleTrace()
        app.trace.beginScope(10, name: "first screen")
        app.trace.output(1, line: 5, label: "session", scope: 10)
        app.trace.bind(1, to: 1, line: 70, scope: 10)
        app.handleReleased(1)
        app.trace.endScope(10)
        app.trace.beginScope(11, name: "second screen")
        app.trace.bind(2, to: 1, line: 80, scope: 11)
        app.contained(2, in: 9)
        app.trace.endScope(11)
        #expect(kindsAndLines(app.findings()) == ["leaked-subscription@70"])
    }

    @Test("an Output only stored somewhere, with nothing bound to it, is not judged: it may be long-lived by design")
    func storedOnly() {
        var trace = TraceBuilder()
        trace.beginScope(10, name: "screen")
        trace.output(1, line: 5, scope: 10)
        trace.endScope(10)
        #expect(TraceAnalyzer.analyze(events: trace.events).findings.isEmpty)
    }

    @Test("a retain cycle through one bound closure is one finding at that bind, listing every Output it keeps")
    func oneCycleOneFinding() throws {
        var app = HandleTrace()
        app.trace.beginScope(10, name: "profile screen")
        for id in 1...3 as ClosedRange<UInt64> {
            app.trace.output(id, line: UInt(id), scope: 10)
            app.trace.bind(id, to: id, line: 20, scope: 10)
            app.contained(id, in: 9)
        }
        app.trace.bind(4, to: 1, line: 21, target: Self.label, scope: 10)
        app.contained(4, in: 9)
        app.trace.endScope(10)

        let findings = app.findings()
        #expect(kindsAndLines(findings) == ["retain-cycle@20"])
        let finding = try #require(findings.first)
        #expect(finding.outputs.sorted() == [1, 2, 3])
        #expect(finding.message.contains("3 Outputs are created in scope 'profile screen'"))
    }

    @Test("names read like the source: label, else kind, value type and creation site — never a bare id")
    func narratorNames() throws {
        var trace = TraceBuilder()
        trace.output(1, line: 3)
        trace.beginScope(10, name: "feed")
        trace.output(2, .map, line: 12, scope: 10)
        trace.edge(1, 2, .map)
        trace.endScope(10)
        let findings = TraceAnalyzer.analyze(events: trace.events).findings
        let message = try #require(findings.first?.message)
        #expect(message.hasPrefix("map → Int at Screen.swift:12 is created in scope 'feed'"))
        #expect(message.contains("Output<Int> at Screen.swift:3 outlives it"))
        #expect(!message.contains("#"))
        #expect(
            Narrator.name(
                kind: .combine, valueType: "(String, Int)", site: SourceSite(file: "App/Feed.swift", line: 9),
                label: nil) == "combine → (String, Int) at Feed.swift:9")
    }

    @Test("a flatMap leak does not count its inner Output as what keeps it alive")
    func flatMapInnerIsNotAKeeper() throws {
        var trace = TraceBuilder()
        trace.output(1, line: 3, label: "query")
        trace.output(5, line: 4, label: "results cache")
        trace.beginScope(10, name: "search")
        trace.output(2, .flatMap, line: 12, scope: 10)
        trace.edge(1, 2, .flatMap)
        trace.add(.innerSwitch(flatMap: 2, inner: 5))
        trace.endScope(10)
        let findings = TraceAnalyzer.analyze(events: trace.events).findings
        let message = try #require(findings.first?.message)
        #expect(kindsAndLines(findings) == ["leaked-output@12"])
        #expect(message.contains("'query' (Int) outlives it"))
        #expect(!message.contains("results cache"))
    }
}

@Suite("closure binds in reused cells, without scopes")
struct ContainerReuseTests {
    /// Cells 0–2 of a pool configured in turn for rows 0–5 (cell = row % 3), each binding a
    /// closure from line 50 into its own bag; `emptiesBag` empties it before each reuse.
    func pool(emptiesBag: Bool) -> HandleTrace {
        var app = HandleTrace()
        for row in 0..<6 as Range<UInt64> { app.trace.output(100 + row, line: 3) }
        for row in 0..<6 as Range<UInt64> {
            let bag = 70 + row % 3
            if emptiesBag && row >= 3 { app.trace.unbind(row - 2, reason: .container) }
            app.trace.bind(row + 1, to: 100 + row, line: 50)
            app.contained(row + 1, in: bag)
        }
        return app
    }

    @Test("a pool of cells configured in turn, bags never emptied: one duplicate-binding at the closure bind")
    func poolNeverEmptied() {
        #expect(kindsAndLines(pool(emptiesBag: false).findings()) == ["duplicate-binding@50"])
    }

    @Test("the clean twin: each cell empties its bag before it is configured again")
    func poolEmptied() {
        #expect(pool(emptiesBag: true).findings().isEmpty)
    }

    @Test("a screen binding its rows in one go into one bag is not a reused cell")
    func screenLoop() {
        var app = HandleTrace()
        for row in 0..<6 as Range<UInt64> {
            app.trace.output(100 + row, line: 3)
            app.trace.bind(row + 1, to: 100 + row, line: 50)
            app.contained(row + 1, in: 70)
            app.trace.bind(row + 11, to: 100 + row, line: 51)
            app.contained(row + 11, in: 70)
        }
        #expect(app.findings().isEmpty)
    }
}

@Suite("retain cycles through closures bound in nested scopes")
struct NestedScopeCycleTests {
    @Test("a screen's view model kept by a held closure bound in the screen's nested setup scope is a retain cycle")
    func nestedSetupScope() {
        var app = HandleTrace()
        app.trace.beginScope(10, name: "profile screen")
        app.trace.output(1, line: 5, label: "followers", scope: 10)
        app.trace.beginScope(11, parent: 10, name: "viewDidLoad")
        app.trace.bind(1, to: 1, line: 40, scope: 11)
        app.contained(1, in: 9)
        app.trace.endScope(11)
        app.trace.endScope(10)
        #expect(kindsAndLines(app.findings()) == ["retain-cycle@40"])
    }

    @Test("the twin: the nested scope's binding was dropped, so it is the scope's leaked subscription, not a cycle")
    func nestedAbandoned() {
        var app = HandleTrace()
        app.trace.output(2, line: 4, label: "app events")
        app.trace.beginScope(10, name: "coordinator")
        app.trace.output(1, line: 5, label: "bus", scope: 10)
        app.trace.beginScope(11, parent: 10, name: "checkout flow")
        app.trace.bind(1, to: 1, line: 40, scope: 11)
        app.handleReleased(1)
        app.trace.endScope(11)
        app.trace.endScope(10)
        #expect(kindsAndLines(app.findings()) == ["leaked-subscription@40"])
    }
}

@Suite("Outputs shared after their scope")
struct SharedOutputTests {
    @Test("bound later by the enclosing screen's own work, an Output is still that screen's: its cycle is reported")
    func enclosingScopeIsNotOutside() {
        var app = HandleTrace()
        app.trace.beginScope(10, name: "screen")
        app.trace.beginScope(11, parent: 10, name: "load")
        app.trace.output(1, line: 5, label: "items", scope: 11)
        app.trace.endScope(11)
        app.trace.bind(1, to: 1, line: 40, scope: 10)
        app.contained(1, in: 9)
        app.trace.endScope(10)
        #expect(kindsAndLines(app.findings()) == ["retain-cycle@40"])
    }

    @Test("bound later by another screen, an Output is shared: not the first screen's leak")
    func otherScreenShares() {
        var app = HandleTrace()
        app.trace.beginScope(10, name: "first screen")
        app.trace.output(1, line: 5, label: "store", scope: 10)
        app.trace.bind(1, to: 1, line: 40, scope: 10)
        app.contained(1, in: 9)
        app.trace.endScope(10)
        app.trace.beginScope(12, name: "second screen")
        app.trace.bind(2, to: 1, line: 41, scope: 12)
        app.contained(2, in: 8)
        app.trace.endScope(12)
        #expect(app.findings().isEmpty)
    }
}

@Suite("a reused cell's own view model")
struct CellViewModelTests {
    /// A cell configured twice, each configuration in its scope creating a row view model and
    /// binding a closure to it into the cell's bag; `emptiesBag` empties the bag before the reuse.
    func cell(emptiesBag: Bool) -> HandleTrace {
        var app = HandleTrace()
        for row in 0..<2 as Range<UInt64> {
            if emptiesBag && row == 1 {
                app.trace.unbind(1, reason: .container)
                app.trace.release(1)
            }
            app.trace.beginScope(10 + row, name: "cell for row \(row)")
            app.trace.output(row + 1, line: 5, label: "row title", scope: 10 + row)
            app.trace.bind(row + 1, to: row + 1, line: 40, scope: 10 + row)
            app.contained(row + 1, in: 9)
            app.trace.endScope(10 + row)
        }
        return app
    }

    @Test("its current view model, kept with its bag for the next reuse, is not a leak when the app quits")
    func currentViewModelSurvives() {
        #expect(cell(emptiesBag: true).findings().isEmpty)
    }

    @Test("never emptied, the bag piles up the rows' closures: a duplicate binding, not a leaked Output")
    func neverEmptied() {
        #expect(kindsAndLines(cell(emptiesBag: false).findings()) == ["duplicate-binding@40"])
    }
}
