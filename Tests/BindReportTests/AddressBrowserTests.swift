@_spi(Harness) import BindAnalysis
@_spi(Harness) import BindTraceModel
import BindTraceTestSupport
import Foundation
import Testing

@_spi(Harness) @testable import BindReport

/// What docs/reports.md promises of addresses and selections, in the system's Chromium (Playwright): the
/// page opened at `#at-N`, `#node-oN` or `#finding-N` shows it; a selected finding is named in the address,
/// its nodes outlined and zoomed to; the graph's caption follows the slider.
@Suite(
    "index.html opened at an address and selected into, in a browser", .serialized,
    .enabled(if: Browser.path != nil, "chromium is not installed: apt-get install -y chromium"),
    .enabled(
        if: BrowserSession.canStart,
        "Playwright cannot start Chromium: make setup installs it; Scripts/browser-session.py --probe says why"))
struct AddressBrowserTests {
    /// The top of an element relative to the window, in whole CSS pixels.
    static func top(_ selector: String) -> String {
        "String(Math.round(document.querySelector('\(selector)').getBoundingClientRect().top))"
    }
    static let navBottom = "String(Math.round(document.querySelector('nav').getBoundingClientRect().bottom))"

    @Test("#at-30 sets the slider to event 30, scrolls to the graph and says in its caption which moment it shows")
    func atAddress() throws {
        let page = try Self.page()

        let run = try BrowserSession.run(
            page + "#at-30",
            [
                .read("document.getElementById('graph-time').value"), .read(Self.top("#graph")), .read(Self.navBottom),
                .read("document.getElementById('graph-caption').textContent"),
                .read("document.getElementById('graph-overlay').getAttribute('data-gone')"),
            ])

        #expect(run.results[0] == "30")
        let top = try #require(run.results[1].flatMap { Int($0) })
        let nav = try #require(run.results[2].flatMap { Int($0) })
        #expect(top >= nav && top < nav + 40, "the graph's section is at \(top), the navigation ends at \(nav)")
        #expect(run.results[3] == "Outputs alive after event #30: the others are covered")
        #expect(run.results[4] == "0")
        #expect(run.problems.isEmpty, "\(run.problems)")
    }

    @Test("#node-o3 outlines the node, lists its details, scrolls to the graph and zooms to the node")
    func nodeAddress() throws {
        let page = try Self.page()

        let run = try BrowserSession.run(
            page + "#node-o3",
            [
                .read("document.querySelector('.node-box[data-node=o3]').className"),
                .read("String(document.getElementById('node-panel').hidden)"), .read(Self.top("#graph")),
                .read(Self.navBottom), .read(Self.boxInsideViewport("o3")),
            ])

        #expect(run.results[0] == "node-box picked")
        #expect(run.results[1] == "false")
        let top = try #require(run.results[2].flatMap { Int($0) })
        let nav = try #require(run.results[3].flatMap { Int($0) })
        #expect(top >= nav && top < nav + 40, "the graph's section is at \(top), the navigation ends at \(nav)")
        #expect(run.results[4] == "true")
        #expect(run.problems.isEmpty, "\(run.problems)")
    }

    @Test("#finding-3 puts the finding just below the sticky navigation bar, not under it")
    func findingAddress() throws {
        let page = try Self.page()

        let run = try BrowserSession.run(
            page + "#finding-3",
            [.read(Self.top("#finding-3")), .read(Self.navBottom), .read("String(window.scrollY > 0)")])

        let top = try #require(run.results[0].flatMap { Int($0) })
        let nav = try #require(run.results[1].flatMap { Int($0) })
        #expect(top >= nav && top < nav + 40, "the finding is at \(top), the navigation ends at \(nav)")
        #expect(run.results[2] == "true")
        #expect(run.problems.isEmpty, "\(run.problems)")
    }

    @Test("clicking a finding names it in the address, brings the graph into view and zooms to its node")
    func clickedFinding() throws {
        let page = try Self.page()
        let scale = "document.getElementById('graph-viewport').getAttribute('data-scale')"

        let run = try BrowserSession.run(
            page,
            [
                .read(scale), .click("#finding-2 .message"), .read("window.location.hash"), .read(scale),
                .read(Self.boxInsideViewport("o3")),
                .read(
                    "(function () { var r = document.getElementById('graph-viewport').getBoundingClientRect();"
                        + " return String(r.top >= 0 && r.bottom <= window.innerHeight); })()"),
            ])

        #expect(run.results[1] == "#finding-2")
        let before = try #require(run.results[0].flatMap { Double($0) })
        let after = try #require(run.results[2].flatMap { Double($0) })
        #expect(after > before, "the graph stayed at scale \(before)")
        #expect(run.results[3] == "true")
        #expect(run.results[4] == "true")
        #expect(run.problems.isEmpty, "\(run.problems)")
    }

    @Test("a leaked subscription outlines the subscriber node that leaks, not its source Output")
    func leakedSubscriptionOutline() throws {
        let page = try Self.page()
        let highlighted =
            "Array.prototype.map.call(document.querySelectorAll('.node-box.highlighted'), b => b.getAttribute('data-node')).join(' ')"

        let run = try BrowserSession.run(page, [.click("#finding-4 .message"), .read(highlighted)])

        #expect(run.results[0] == "o3-sab12")
        #expect(run.problems.isEmpty, "\(run.problems)")
    }

    @Test("the graph's caption names the moment the slider shows, and the drawn one again at the end")
    func captionFollowsSlider() throws {
        let page = try Self.page()
        let caption = "document.getElementById('graph-caption').textContent"

        let run = try BrowserSession.run(
            page,
            [
                .read(caption), .click("#graph-time", at: 0.5), .key("Home"), .read(caption), .key("End"),
                .read(caption),
            ])

        #expect(run.results[0] == "Outputs at the end (event #100)")
        #expect(run.results[1] == "Outputs alive after event #0: the others are covered")
        #expect(run.results[2] == "Outputs at the end (event #100)")
        #expect(run.problems.isEmpty, "\(run.problems)")
    }

    @Test("a report of a trace that released everything shows its busiest moment, and a long path folded")
    func releasedEverything() throws {
        // Given a glitch through 100 maps made at one line, and every Output released before the end
        let trace = NSTemporaryDirectory() + "chain-\(UUID().uuidString).trace"
        try Data(ChainGlitchTrace(length: 100, releasingEverything: true).bytes).write(to: URL(fileURLWithPath: trace))
        defer { try? FileManager.default.removeItem(atPath: trace) }
        let directory = try Fixtures.temporaryDirectory()
        try ReportWriter.write(try ReportContent.build(fromTrace: trace).content, to: directory)

        // When the report is opened
        let run = try BrowserSession.run(
            "file://\(directory)/index.html",
            [
                .read("String(document.getElementById('graph-image').naturalWidth > 0)"),
                .read("document.getElementById('graph-caption').textContent"),
                .read("String(document.querySelectorAll('.node-box:not(.subscriber-box)').length)"),
                .read("document.querySelector('article.finding[data-kind=glitch]').textContent"),
            ])

        // Then the graph is drawn at the moment all 104 Outputs lived, and the glitch's path is folded
        #expect(run.results[0] == "true")
        #expect(run.results[1]?.contains("when most Outputs were alive (104); none is alive at the end") == true)
        #expect((run.results[2].flatMap { Int($0) } ?? 0) > 0, "no Output node has a box to outline")
        let finding = try #require(run.results[3])
        // At most 8 Outputs are named (the rest counted as steps), repeated ones folded.
        #expect(finding.contains(" steps … → map → Int ×"))
        #expect(finding.contains(" at Others.swift:51 → 'valid' (Bool)"))
        #expect(!finding.contains("Others.swift:51 → map"))
        #expect(run.problems.isEmpty, "\(run.problems)")
    }

    /// Whether a node's outline lies inside the graph's viewport (zoomed and panned to it).
    static func boxInsideViewport(_ node: String) -> String {
        "(function () { var v = document.getElementById('graph-viewport').getBoundingClientRect();"
            + " var b = document.querySelector('.node-box[data-node=\"\(node)\"]').getBoundingClientRect();"
            + " return String(b.width > 0 && b.left >= v.left && b.right <= v.right && b.top >= v.top"
            + " && b.bottom <= v.bottom); })()"
    }

    /// The debugger's page, plus a subscriber node of Output 3 holding subscription 11 and a fourth
    /// finding, a leaked subscription of it.
    static func page() throws -> String {
        let directory = try Fixtures.temporaryDirectory()
        var content = Fixtures.hostileContent()
        content.graphSVG = Fixtures.svg.replacingOccurrences(of: "<title>email</title>", with: "<title>o3</title>")
            .replacingOccurrences(
                of: "<g id=\"edge1\"",
                with: "<g id=\"node3\" class=\"node\"><title>o3-sab12</title>"
                    + "<polygon fill=\"none\" stroke=\"black\" points=\"200,-100 250,-100 250,-80 200,-80 200,-100\"/>"
                    + "</g>\n<g id=\"edge1\"")
        content.subscriberNodes = ["o3-sab12": [11]]
        content.outputLifetimes = [3: OutputLifetime(created: 1, released: 50)]
        content.lastEvent = 100
        content.findings.append(
            Finding(
                kind: .duplicateBinding, message: Hostile.url, site: SourceSite(file: "App/List.swift", line: 5),
                related: [], event: 4))
        content.findings.append(
            Finding(
                kind: .leakedSubscription, message: "subscription 11 leaks",
                site: SourceSite(file: "App/Cell.swift", line: 9), related: [], outputs: [3], subscriptions: [11],
                event: 5))
        try ReportWriter.write(content, to: directory)
        return "file://\(directory)/index.html"
    }
}
