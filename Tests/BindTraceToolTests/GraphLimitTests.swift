import Foundation
import Testing

@Suite("graph draws at most --max-nodes Output nodes and says what it left out")
struct GraphLimitTests {
    /// 300 unrelated Outputs; the last one has a subscription leaked from a scope.
    private func wideTrace() -> [UInt8] {
        var trace = TraceFileWriter()
        trace.thread(1)
        for id in 1...UInt64(300) { trace.output(id, line: id, label: "o\(id)") }
        trace.beginScope(1, name: "cell", line: 1_000)
        trace.bind(1, to: 300, line: 1_001, scope: 1)
        trace.endScope(1)
        trace.end()
        return trace.bytes
    }

    @Test("with --max-nodes 50, 250 Outputs are left out, the one with a finding is drawn, and stderr says so")
    func limited() throws {
        let trace = try TemporaryTrace(wideTrace())
        let out = try TemporaryDirectory()
        defer { trace.cleanUp(); out.cleanUp() }

        let run = try Tool.run(
            "graph", trace.path, "--collapse", "never", "--max-nodes", "50", "--format", "dot", "-o", out.file("g.dot"))

        #expect(run.status == 0, "\(run.standardError)")
        #expect(
            run.standardError.contains("250 Outputs left out: the graph is limited to 50 nodes"), "\(run.standardError)"
        )
        #expect(run.standardError.contains("(raise with --max-nodes)"))
        let dot = String(decoding: try out.contents("g.dot"), as: UTF8.self)
        #expect(dot.contains("o300"), "the Output with a finding is kept")
        #expect(dot.contains("o1"))
        #expect(!dot.contains("o200"))
    }

    @Test("the default limit is 4,000 nodes: 300 Outputs are all drawn, with nothing said about limits")
    func defaultLimit() throws {
        let trace = try TemporaryTrace(wideTrace())
        defer { trace.cleanUp() }

        let run = try Tool.run("graph", trace.path, "--collapse", "never", "--format", "dot")

        #expect(run.status == 0)
        #expect(!run.standardError.contains("left out"))
        #expect(run.standardOutput.contains("o200"))
        #expect(try Tool.run("graph", trace.path, "--max-nodes", "0").status == 2)
    }
}
