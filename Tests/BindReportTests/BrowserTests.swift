import BindAnalysis
import BindTraceModel
import BindTraceTestSupport
import Foundation
import Testing

@_spi(Harness) @testable import BindReport

/// Opens a real report in headless Chromium: the script runs under the page's CSP, the graph and
/// tables render, and the browser logs no policy violation.
@Suite(
    "index.html in a real browser",
    .enabled(if: Browser.path != nil, "chromium is not installed: apt-get install -y chromium"))
struct BrowserTests {
    @Test("the script runs under the CSP, and the findings, graph and event table render")
    func rendersInChromium() throws {
        let directory = try Fixtures.temporaryDirectory()
        var content = Fixtures.hostileContent()
        content.findings.append(Fixtures.finding(.duplicateBinding))
        try ReportWriter.write(content, to: directory)

        let run = try Browser.run(["--dump-dom", "file://\(directory)/index.html"])

        #expect(run.output.contains("data-script=\"ran\""), "the inline script did not run")
        #expect(run.output.contains("6 of 6 rows shown"), "the event filter did not initialise")
        #expect(
            run.output.contains(#/id="graph-viewport"[^>]* data-scale=/#), "the graph viewer did not initialise")
        #expect(run.output.contains("3 of 3 findings shown"), "the finding search did not initialise")
        #expect(run.output.components(separatedBy: "<article class=\"finding").count - 1 == 3)
        #expect(run.output.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        let violations = run.log.split(separator: "\n").filter {
            $0.contains("Content Security Policy") || $0.contains("Refused to")
        }
        #expect(violations.isEmpty, "\(violations)")
    }

    @Test("a finding selected by its address outlines its Output in the graph, hostile labels still inert")
    func selectedFinding() throws {
        let directory = try Fixtures.temporaryDirectory()
        var content = Fixtures.hostileContent()
        content.graphSVG = Fixtures.svg.replacingOccurrences(of: "<title>email</title>", with: "<title>o3</title>")
        try ReportWriter.write(content, to: directory)

        // Finding 2 (the feedback cycle) is about Output 3; finding 1 about none.
        let selected = try Browser.run(["--dump-dom", "file://\(directory)/index.html#finding-2"])
        let unselected = try Browser.run(["--dump-dom", "file://\(directory)/index.html"])

        #expect(selected.output.contains("data-script=\"ran\""))
        #expect(selected.output.contains("data-highlighted=\"1\""))
        #expect(selected.output.contains("class=\"node-box highlighted\" data-node=\"o3\""))
        #expect(selected.output.contains("class=\"finding error selected\""))
        #expect(unselected.output.contains("data-highlighted=\"0\""))
        #expect(!unselected.output.contains("highlighted\" data-node"))
        #expect(selected.output.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        let violations = selected.log.split(separator: "\n").filter {
            $0.contains("Content Security Policy") || $0.contains("Refused to")
        }
        #expect(violations.isEmpty, "\(violations)")
    }

    @Test("the time slider set by the address covers an Output released before that event, and only then")
    func timeSlider() throws {
        let directory = try Fixtures.temporaryDirectory()
        var content = Fixtures.hostileContent()
        content.graphSVG = Fixtures.svg.replacingOccurrences(of: "<title>email</title>", with: "<title>o3</title>")
        content.outputLifetimes = [3: OutputLifetime(created: 2, released: 4)]
        content.lastEvent = 6
        try ReportWriter.write(content, to: directory)

        let alive = try Browser.run(["--dump-dom", "file://\(directory)/index.html#at-3"])
        let released = try Browser.run(["--dump-dom", "file://\(directory)/index.html#at-5"])

        #expect(alive.output.contains("data-gone=\"0\""))
        #expect(alive.output.contains("#3</output>"))
        #expect(released.output.contains("data-gone=\"1\""))
        #expect(released.output.contains("class=\"node-box gone\" data-node=\"o3\""))
        #expect(released.output.contains("#5</output>"))
    }

    @Test("a node picked by the address lists the findings about its Output, as links")
    func pickedNode() throws {
        let directory = try Fixtures.temporaryDirectory()
        var content = Fixtures.hostileContent()
        content.graphSVG = Fixtures.svg.replacingOccurrences(of: "<title>email</title>", with: "<title>o3</title>")
        try ReportWriter.write(content, to: directory)

        let run = try Browser.run(["--dump-dom", "file://\(directory)/index.html#node-o3"])

        #expect(run.output.contains("class=\"node-box picked\" data-node=\"o3\""))
        #expect(run.output.contains("data-findings=\"1\""))
        #expect(run.output.contains("<a href=\"#finding-2\">feedback-cycle App/Cell.swift:42</a>"))
        #expect(run.output.contains("Output #3: 1 finding"))
    }

    @Test("a screenshot can be taken (saved to $BIND_REPORT_SCREENSHOT when set)")
    func screenshot() throws {
        let directory = try Fixtures.temporaryDirectory()
        try ReportWriter.write(Fixtures.hostileContent(), to: directory)
        let image = ProcessInfo.processInfo.environment["BIND_REPORT_SCREENSHOT"] ?? directory + "/screenshot.png"
        _ = try Browser.run(["--window-size=1280,2000", "--screenshot=\(image)", "file://\(directory)/index.html"])
        let size = (try? FileManager.default.attributesOfItem(atPath: image)[.size] as? Int) ?? 0
        #expect(size > 10_000)
    }
}

enum Browser {
    static let path: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Runs headless Chromium with `arguments`; returns its standard output and its log (standard error).
    static func run(_ arguments: [String]) throws -> (output: String, log: String) {
        let profile = NSTemporaryDirectory() + "bind-report-chromium-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let run = try ChildProcess.run(
            URL(fileURLWithPath: path!),
            [
                "--headless", "--disable-gpu", "--no-sandbox", "--no-first-run", "--disable-extensions",
                "--user-data-dir=\(profile)", "--enable-logging=stderr", "--v=0", "--virtual-time-budget=2000",
            ] + arguments)
        return (run.standardOutput, run.standardError)
    }
}
