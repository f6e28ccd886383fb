import Bind
import Foundation
import Testing

@Suite("bind-trace report: HTML, JUnit and SARIF from a trace")
struct ReportCommandTests {
    @Test("writes the three files; the page holds the findings, the inline graph, the timeline and the events")
    func files() throws {
        // Given a trace with a leaked subscription
        let trace = try TemporaryTrace(GraphTraces.app())
        let out = try TemporaryDirectory()
        defer { trace.cleanUp(); out.cleanUp() }

        // When a report is written (not failing on findings)
        let run = try Tool.run("report", trace.path, "-o", out.path, "--fail-on", "none")

        // Then
        #expect(run.status == 0, "\(run.standardError)")
        #expect(
            Set(try FileManager.default.contentsOfDirectory(atPath: out.path)) == [
                "index.html", "junit.xml", "findings.sarif",
            ])
        let html = String(decoding: try out.contents("index.html"), as: UTF8.self)
        #expect(html.contains("leaked-subscription"))
        #expect(html.contains("App/Cell.swift:12"))
        #expect(html.contains("data:image/svg+xml;base64,"))
        #expect(html.contains("email"))
        #expect(html.contains("updated"))
        let junit = String(decoding: try out.contents("junit.xml"), as: UTF8.self)
        #expect(junit.contains("leaked-subscription at App/Cell.swift:12"))
        let sarif = String(decoding: try out.contents("findings.sarif"), as: UTF8.self)
        #expect(
            sarif.contains("\"ruleId\":\"leaked-subscription\"")
                || sarif.contains("\"ruleId\": \"leaked-subscription\""))
        #expect(run.standardError.contains("report with 1 finding"))
    }

    @Test(
        "--fail-on sets the exit status",
        arguments: [
            ("warning", false, Int32(1)), ("error", false, 0), ("none", false, 0),
            ("warning", true, 1), ("error", true, 1), ("none", true, 0),
        ])
    func failOn(level: String, withCycle: Bool, status: Int32) throws {
        let trace = try TemporaryTrace(withCycle ? GraphTraces.loop() : GraphTraces.app())
        let out = try TemporaryDirectory()
        defer { trace.cleanUp(); out.cleanUp() }

        let run = try Tool.run("report", trace.path, "-o", out.path, "--fail-on", level)

        #expect(run.status == status, "\(run.standardError)")
        #expect(FileManager.default.fileExists(atPath: out.file("index.html")))
    }

    @Test("--module-path and --source-root map sites to repository paths in SARIF")
    func sourceMapping() throws {
        let trace = try TemporaryTrace(GraphTraces.app())
        let out = try TemporaryDirectory()
        defer { trace.cleanUp(); out.cleanUp() }

        let run = try Tool.run(
            "report", trace.path, "-o", out.path, "--module-path", "App=Samples/App", "--source-root",
            "file:///src/repo")

        #expect(run.status == 1)
        let sarif = String(decoding: try out.contents("findings.sarif"), as: UTF8.self)
        #expect(sarif.contains("Samples/App/Cell.swift"))
        #expect(sarif.contains("file:///src/repo/"))
    }

    @Test("hostile labels stay text in the page")
    func hostileLabels() throws {
        let labels = [
            "<script>alert(1)</script>", "\" onload=\"x", "back\\slash", "two\nlines",
            String(repeating: "y", count: 10_000),
        ]
        let trace = try TemporaryTrace(GraphTraces.app(labels: labels))
        let out = try TemporaryDirectory()
        defer { trace.cleanUp(); out.cleanUp() }

        let run = try Tool.run("report", trace.path, "-o", out.path, "--fail-on", "none")

        #expect(run.status == 0, "\(run.standardError)")
        let html = String(decoding: try out.contents("index.html"), as: UTF8.self)
        #expect(!html.contains("<script>alert(1)"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(!html.contains("\" onload=\"x"))
    }

    @Test("--max-nodes means what it means in graph: the report draws that many nodes and counts the rest")
    func graphLimited() throws {
        // Given 300 distinct Outputs, more than --max-nodes 100
        let trace = try TemporaryTrace(GraphTraces.big(count: 300))
        let out = try TemporaryDirectory()
        defer { trace.cleanUp(); out.cleanUp() }

        // When the report and the graph are drawn with the same limit
        let report = try Tool.run("report", trace.path, "-o", out.path, "--max-nodes", "100")
        let graph = try Tool.run("graph", trace.path, "-o", out.file("graph.svg"), "--max-nodes", "100")

        // Then both draw the graph and leave the same Outputs out, saying so
        #expect(report.status == 0, "\(report.standardError)")
        #expect(graph.status == 0, "\(graph.standardError)")
        let html = String(decoding: try out.contents("index.html"), as: UTF8.self)
        #expect(html.contains("data:image/svg+xml;base64,"), "the graph is drawn")
        #expect(!html.contains("not drawn"))
        let leftOut = "200 Outputs left out: the graph is limited to 100 nodes, those with findings first"
        #expect(report.standardError.contains(leftOut), "\(report.standardError)")
        #expect(graph.standardError.contains(leftOut), "\(graph.standardError)")
    }

    @Test("an unreadable trace is exit 2 with one line naming it")
    func badTrace() throws {
        let out = try TemporaryDirectory()
        defer { out.cleanUp() }

        let run = try Tool.run("report", "/nonexistent/app.trace", "-o", out.path)

        #expect(run.status == 2)
        #expect(run.standardError == "bind-trace: /nonexistent/app.trace: cannot open: No such file or directory\n")
    }
}
