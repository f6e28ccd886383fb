import Foundation
import Testing

@Suite("what keeps a leak alive: the references the trace proves, as a note")
struct ReferencePathTests {
    private func check(_ bytes: [UInt8]) throws -> [String] {
        let trace = try TemporaryTrace(bytes)
        defer { trace.cleanUp() }
        return try Tool.run("check", trace.path).standardOutput.split(separator: "\n").map(String.init)
    }

    @Test("a leaked subscription: its Output, alive at the end, holds it in its subscriber list")
    func leakedSubscription() throws {
        let lines = try check(leakyTrace())
        #expect(
            lines.contains(
                "    note: kept alive by: 'title' (Int), alive at the end → its subscriber list → subscription 1 "
                    + "(closure bound at Screen.swift:12) → what its closure captured: not recorded"), "\(lines)")
    }

    @Test("a leaked Output: the longer-lived source holds it through the operator's subscription")
    func leakedOutput() throws {
        // Given a map made in a cell's scope on an Output of the app, and the scope ended
        var trace = TraceFileWriter()
        trace.thread(1)
        trace.output(1, type: "String", line: 3, label: "sender")
        trace.beginScope(1, name: "cell", line: 10)
        trace.output(2, kind: .map, type: "String", line: 71, scope: 1)
        trace.edge(1, 2, .map)
        trace.bind(1, to: 1, line: 71, isInternal: true, scope: 1)
        trace.endScope(1)
        trace.end()

        // Then the leaked-output finding says what holds it, hop by hop
        let lines = try check(trace.bytes)
        #expect(lines.contains { $0.contains("leaked-output") }, "\(lines)")
        #expect(
            lines.contains(
                "    note: kept alive by: 'sender' (String), alive at the end → its subscriber list → map's "
                    + "subscription 1 at Screen.swift:71 → map → String at Screen.swift:71 (the leak)"), "\(lines)")
    }

    @Test("the HTML report lists the path with the finding")
    func inReport() throws {
        let trace = try TemporaryTrace(leakyTrace())
        let out = try TemporaryDirectory()
        defer {
            trace.cleanUp()
            out.cleanUp()
        }
        let run = try Tool.run("report", trace.path, "-o", out.path, "--fail-on", "none")
        #expect(run.status == 0, "\(run.standardError)")
        let html = String(decoding: try out.contents("index.html"), as: UTF8.self)
        #expect(
            html.contains("Kept alive by: &#39;title&#39; (Int), alive at the end → its subscriber list"))
    }

    @Test("the clean twin has no finding, so no path")
    func cleanTwin() throws {
        #expect(!(try check(cleanTrace())).contains { $0.contains("kept alive by") })
    }
}
