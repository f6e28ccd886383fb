@_spi(Harness) import BindAnalysis
@_spi(Harness) import BindTraceModel
import BindTraceTestSupport
import Foundation
import Testing

@_spi(Harness) @testable import BindReport

/// The report used as a debugger, in the system's headless Chromium driven by Playwright: real mouse
/// clicks, key presses and typing (trusted events), then the page's state read back. One browser at a
/// time: the machine running `make test` is busy with every other suite as well.
@Suite(
    "index.html as a debugger, clicked and typed into", .serialized,
    .enabled(if: Browser.path != nil, "chromium is not installed: apt-get install -y chromium"),
    .enabled(
        if: BrowserSession.canStart,
        "Playwright cannot start Chromium: make setup installs it; Scripts/browser-session.py --probe says why"))
struct InteractiveBrowserTests {
    @Test("clicking a finding outlines its Output in the graph and scrolls the event table to its event")
    func clickFinding() throws {
        // Given a report whose second finding is about Output 3 at event 12 (the table holds events 1-6),
        // and whose third is about no Output, at event 4.
        let page = try Self.debuggerPage()

        // When the second finding, then the third, is clicked.
        let run = try BrowserSession.run(
            page,
            [
                .click("#finding-2 .message"),
                .read("document.getElementById('graph-overlay').getAttribute('data-highlighted')"),
                .read("document.querySelector('.node-box[data-node=o3]').className"),
                .read("document.getElementById('finding-2').className"),
                .read("document.getElementById('event-rows').getAttribute('data-current')"),
                .click("#finding-3 .message"),
                .read("document.getElementById('graph-overlay').getAttribute('data-highlighted')"),
                .read("document.querySelector('#event-rows tr.current').id"),
                .read("document.getElementById('event-chain').getAttribute('data-links')"),
            ])

        // Then the first outlines o3 and marks the nearest event row before 12; the second, event 4's row.
        #expect(run.results == ["1", "node-box highlighted", "finding error selected", "6", "0", "event-4", "3"])
        #expect(run.problems.isEmpty, "\(run.problems)")
    }

    @Test("moving the time slider covers an Output released before that event and uncovers it when moved back")
    func moveSlider() throws {
        // Given Output 3 created at event 1 and released at event 50, in a trace of 100 events.
        let page = try Self.debuggerPage()
        let value = "document.getElementById('graph-time').value"
        let gone = "document.getElementById('graph-overlay').getAttribute('data-gone')"

        // When the slider's track is clicked at a quarter, then at 85 %, then moved with the keys.
        let run = try BrowserSession.run(
            page,
            [
                .click("#graph-time", at: 0.25), .read(value), .read(gone),
                .click("#graph-time", at: 0.85), .read(value), .read(gone),
                .read("document.querySelector('.node-box[data-node=o3]').className"),
                .key("Home"), .read(gone), .key("ArrowRight"), .key("ArrowRight"), .read(value), .read(gone),
            ])

        // Then it is alive in the first half, gone after its release, gone before its creation, alive at 2.
        let early = try #require(run.results[0].flatMap { Int($0) })
        let late = try #require(run.results[2].flatMap { Int($0) })
        #expect((1..<50).contains(early))
        #expect(run.results[1] == "0")
        #expect(late >= 50)
        #expect(run.results[3] == "1")
        #expect(run.results[4] == "node-box gone")
        #expect(run.results[5] == "1")
        #expect(run.results[6] == "2")
        #expect(run.results[7] == "0")
        #expect(run.problems.isEmpty, "\(run.problems)")
    }

    @Test("j and k move between the findings shown, and the arrows do on a focused finding")
    func keyboardNavigation() throws {
        let page = try Self.debuggerPage()
        let selected = "document.querySelector('article.finding.selected').id + ' ' + document.activeElement.id"

        let run = try BrowserSession.run(
            page,
            [
                .key("j"), .read(selected), .key("j"), .read(selected), .key("k"), .read(selected),
                .key("ArrowDown"), .key("ArrowDown"), .read(selected), .key("j"), .read(selected),
                // In the search box j is text, not navigation.
                .click("#finding-filter"), .key("j"), .read("document.getElementById('finding-filter').value"),
                .read("document.querySelector('article.finding.selected').id"),
            ])

        #expect(
            run.results.prefix(5)
                == [
                    "finding-1 finding-1", "finding-2 finding-2", "finding-1 finding-1", "finding-3 finding-3",
                    "finding-3 finding-3",
                ])
        #expect(run.results[5] == "j")
        #expect(run.results[6] == "finding-3")
        #expect(run.problems.isEmpty, "\(run.problems)")
    }

    @Test("a clicked node lists its findings, bindings (lines) and updates as text; an update leads to its event")
    func clickNode() throws {
        let page = try Self.debuggerPage()

        let run = try BrowserSession.run(
            page,
            [
                .click(".node-box[data-node=o3]"),
                .read("document.getElementById('node-panel').getAttribute('data-findings')"),
                .read("document.querySelector('#node-panel a').getAttribute('href')"),
                .read("document.querySelector('#node-panel .node-name').textContent"),
                .read("document.querySelector('#node-panel .node-updates').textContent"),
                .read("document.querySelector('#node-panel .node-bindings li').textContent"),
                .read(
                    "String(document.querySelectorAll('#node-panel script, #node-panel [onload], #node-panel b').length)"
                ),
                .read("document.querySelector('#node-panel .node-recent li').textContent"),
                .click("#node-panel .node-recent a"),
                .read("document.getElementById('event-rows').getAttribute('data-current')"),
                .read("document.getElementById('event-chain').getAttribute('data-links')"),
            ])

        #expect(run.results[0] == "1")
        #expect(run.results[1] == "#finding-2")
        #expect(run.results[2] == "#3 '\(Hostile.script)' (String) created at App/Model.swift:7")
        #expect(run.results[3] == "2 updates, last value \(Hostile.handler)")
        #expect(run.results[4] == "App/\(Hostile.quotes):9 (subscription 9)")
        #expect(run.results[5] == "0")
        #expect(run.results[6] == "event #4: \(Hostile.url)")
        #expect(run.results[7] == "4")
        #expect(run.results[8] == "3")
        #expect(run.problems.isEmpty, "\(run.problems)")
    }

    @Test("searching by a file:line or a label outlines the matching nodes and keeps the matching findings")
    func search() throws {
        let page = try Self.debuggerPage()
        let matched = "document.getElementById('graph-overlay').getAttribute('data-matched')"
        let status = "document.getElementById('finding-status').textContent"

        let run = try BrowserSession.run(
            page,
            [
                .click("#finding-filter"), .type("Model.swift:7"), .read(matched), .read(status),
                .read("document.querySelector('.node-box[data-node=o3]').className"),
                .key("End"), .type("0"), .read(matched),
            ])

        // Findings 2 and 3 name App/Model.swift:7 among their related sites; Output 3 was created there.
        #expect(run.results[0] == "1")
        #expect(run.results[1] == "2 of 3 findings shown, 1 node outlined")
        #expect(run.results[2] == "node-box match")
        #expect(run.results[3] == "0")
        #expect(run.problems.isEmpty, "\(run.problems)")
    }

    @Test("clicking an event row tells the chain of events that caused it, as far as the table holds them")
    func eventChain() throws {
        // Given event 4 caused by 2, caused by 1 (a root), and event 3 caused by 40, outside the table.
        let page = try Self.debuggerPage()
        let chain =
            "Array.prototype.map.call(document.querySelectorAll('#event-chain li'), e => e.textContent).join('|')"

        let run = try BrowserSession.run(
            page, [.click("#event-4 td.desc"), .read(chain), .click("#event-3"), .read(chain)])

        #expect(
            run.results[0]
                == "Event #4, updated: \(Hostile.script)|caused by event #2, updated: \(Hostile.url)|"
                + "caused by event #1, bound: \(Hostile.handler) (the root: no event caused it)")
        #expect(
            run.results[1]
                == "Event #3, bound: \(Hostile.quotes)|"
                + "caused by event #40 (not in the table's sample: bind-trace why tells the rest)")
        #expect(run.problems.isEmpty, "\(run.problems)")
    }

    @Test("at a phone's width the page, a clicked node's details and an event's chain fit the screen")
    func phoneWidth() throws {
        let page = try Self.debuggerPage()
        let right = { (id: String) in
            "String(Math.round(document.getElementById('\(id)').getBoundingClientRect().right))"
        }

        let run = try BrowserSession.run(
            page,
            [
                .size(width: 390, height: 844), .click(".node-box[data-node=o3]"), .click("#event-4 td.desc"),
                .read("String(document.documentElement.scrollWidth <= window.innerWidth)"),
                .read(right("node-panel")), .read(right("event-chain")),
                .read("document.getElementById('event-chain').getAttribute('data-links')"),
            ])

        #expect(run.results[0] == "true")
        #expect(try #require(run.results[1].flatMap { Int($0) }) <= 390)
        #expect(try #require(run.results[2].flatMap { Int($0) }) <= 390)
        #expect(run.results[3] == "3")
        #expect(run.problems.isEmpty, "\(run.problems)")
    }

    /// A report with hostile text everywhere, a graph with Output 3's node, its lifetime and details,
    /// and a third finding at event 4.
    static func debuggerPage() throws -> String {
        let directory = try Fixtures.temporaryDirectory()
        var content = Fixtures.hostileContent()
        content.graphSVG = Fixtures.svg.replacingOccurrences(of: "<title>email</title>", with: "<title>o3</title>")
        content.outputLifetimes = [3: OutputLifetime(created: 1, released: 50)]
        content.lastEvent = 100
        content.outputDetails = [
            3: OutputDetail(
                name: "#3 '\(Hostile.script)' (String)", site: "App/Model.swift:7", updates: 2,
                lastValue: Hostile.handler, bindings: ["App/\(Hostile.quotes):9 (subscription 9)"])
        ]
        content.outputDetails[3]?.recentUpdates = [.init(time: 40, sequence: 4, preview: Hostile.url)]
        content.events.rows[3].cause = 2
        content.events.rows[1].cause = 1
        content.events.rows[2].cause = 40
        content.findings.append(
            Finding(
                kind: .duplicateBinding, message: Hostile.url, site: SourceSite(file: "App/List.swift", line: 5),
                related: [.init(site: SourceSite(file: "App/Model.swift", line: 7), note: Hostile.handler)],
                event: 4))
        try ReportWriter.write(content, to: directory)
        return "file://\(directory)/index.html"
    }
}

/// One headless Chromium session driven by `Scripts/browser-session.py` (Python's Playwright, pointed at
/// the system's Chromium).
enum BrowserSession {
    /// `python3` as found on `PATH`: the one `make setup` installed Playwright for.
    static let env = URL(fileURLWithPath: "/usr/bin/env")

    /// Whether Playwright starts the browser here (asked once: the driver's `--probe`).
    static let canStart: Bool = {
        guard let browser = Browser.path else { return false }
        return (try? ChildProcess.run(env, ["python3", driver, "--probe", browser]))?.status == 0
    }()

    static let driver = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Scripts/browser-session.py").path

    /// One thing a person does, or a JavaScript expression whose value (a string) is read back.
    enum Step {
        case click(String, at: Double = 0.5)
        case key(String)
        case type(String)
        case read(String)
        /// The window's inner size in CSS pixels.
        case size(width: Int, height: Int)

        var json: [String: String] {
            switch self {
            case .click(let selector, let at): ["click": selector, "at": String(at)]
            case .key(let key): ["key": key]
            case .type(let text): ["type": text]
            case .read(let expression): ["eval": expression]
            case .size(let width, let height): ["size": "\(width)x\(height)"]
            }
        }
    }

    struct Run: Decodable {
        /// One per `read` step, in order: the value read (`nil` when the expression gave none).
        var results: [String?]
        /// What the page logged (console, policy violations, exceptions, dialogs).
        var log: [String]

        /// Log lines that mean a policy violation, a script error or a trace string that ran.
        var problems: [String] {
            log.filter {
                $0.contains("Content Security Policy") || $0.contains("Refused to") || $0.hasPrefix("dialog:")
                    || $0.hasPrefix("exception:")
            }
        }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func run(_ url: String, _ steps: [Step]) throws -> Run {
        let stepsJSON = try JSONEncoder().encode(steps.map(\.json))
        let run = try ChildProcess.run(
            env, ["python3", driver, Browser.path!, url, String(decoding: stepsJSON, as: UTF8.self)])
        guard run.status == 0 else {
            throw Failure(description: "browser-session exited \(run.status): \(run.standardError)")
        }
        return try JSONDecoder().decode(Run.self, from: Data(run.standardOutput.utf8))
    }
}
