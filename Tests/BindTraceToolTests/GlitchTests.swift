import BindTraceTestSupport
import Foundation
import Testing

@Suite("glitch: one update reaching a combine twice through two paths")
struct GlitchTests {
    private func check(_ trace: DiamondTrace, _ arguments: String...) throws -> Tool.Run {
        let file = try TemporaryTrace(trace.bytes)
        defer { file.cleanUp() }
        return try Tool.run(["check", file.path] + arguments)
    }

    @Test("a diamond met in one propagation is a glitch at the combine line, with both paths and both values")
    func diamond() throws {
        // Given one root update of 'email' reaching 'can submit' through both maps
        let trace = DiamondTrace()

        // When the trace is checked
        let run = try check(trace)

        // Then one warning names the combine line, both paths, the inconsistent and the final value
        #expect(run.status == 1, "\(run.standardError)")
        let lines = run.standardOutput.split(separator: "\n").map(String.init)
        let finding = try #require(lines.first { $0.contains("glitch") })
        #expect(
            finding.hasPrefix("App/Form.swift:7: warning: glitch: one update of 'email' (String) reaches 'can submit'"))
        #expect(finding.contains("2 times through 2 paths"))
        #expect(finding.contains("\"(true, false)\" before the final \"(true, true)\""))
        #expect(lines.contains("    App/Form.swift:40: note: the root update is called here"))
        #expect(
            lines.contains(
                "    App/Form.swift:7: note: path 1: 'email' (String) → 'valid' (Bool) → 'can submit' ((Bool, Bool))"))
        #expect(
            lines.contains(
                "    App/Form.swift:7: note: path 2: 'email' (String) → 'long enough' (Bool) → 'can submit' ((Bool, Bool))"
            ))
        #expect(
            lines.contains {
                $0.contains("note: explain it: bind-trace why ") && $0.contains(" --finding ")
            })
    }

    @Test("a glitch's path through a chain of 100 maps made at one line is told folded, in text and JSON alike")
    func foldedChain() throws {
        let file = try TemporaryTrace(ChainGlitchTrace(length: 100).bytes)
        defer { file.cleanUp() }

        let text = try Tool.run("check", file.path)
        let json = try Tool.run("check", file.path, "--format", "json")

        // The path names at most 8 Outputs (the rest counted as steps), repeated ones folded.
        let end = " at Others.swift:51 → 'valid' (Bool) → 'can submit' ((Bool, Bool))"
        let line = try #require(text.standardOutput.split(separator: "\n").first { $0.contains("note: path 1: ") })
        #expect(line.hasPrefix("    App/Form.swift:7: note: path 1: 'email' (String) → "), "\(line)")
        #expect(line.contains(" steps … → map → Int ×") && line.hasSuffix(end), "\(line)")
        #expect(!text.standardOutput.contains("Others.swift:51 → map"))
        let pathText = String(line.split(separator: "note: ", maxSplits: 1).last ?? "")
        #expect(json.standardOutput.contains(pathText))
    }

    @Test("the same graph driven so the paths never meet in one propagation has no glitch")
    func cleanTwin() throws {
        let run = try check(DiamondTrace(meet: false))
        #expect(run.status == 0, "\(run.standardOutput)")
        #expect(!run.standardOutput.contains("glitch"))
    }

    @Test("the JSON of a glitch finding carries its why command line")
    func json() throws {
        let trace = DiamondTrace()
        let run = try check(trace, "--format", "json")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        let findings = try #require(object["findings"] as? [[String: Any]])
        let glitch = try #require(findings.first { $0["kind"] as? String == "glitch" })
        let why = try #require(glitch["why"] as? String)
        #expect(why.hasPrefix("bind-trace why ") && why.contains(" --finding "))
    }
}

@Suite("the report explains each finding with its why chain")
struct WhyInReportTests {
    @Test("the HTML report folds the chain of the glitch's event, and SARIF names its why command")
    func foldedChain() throws {
        // Given the diamond's trace
        let trace = DiamondTrace()
        let file = try TemporaryTrace(trace.bytes)
        let out = try TemporaryDirectory()
        defer {
            file.cleanUp()
            out.cleanUp()
        }

        // When a report is written
        let run = try Tool.run("report", file.path, "-o", out.path, "--fail-on", "none")

        // Then the glitch's article holds the command line and the chain, root first, folded
        #expect(run.status == 0, "\(run.standardError)")
        let html = String(decoding: try out.contents("index.html"), as: UTF8.self)
        #expect(html.contains("Explain it: <code>bind-trace why "))
        #expect(html.contains("<details class=\"why\"><summary>Why: how event \(trace.firstCombine) came about"))
        #expect(html.contains("root #\(trace.root) on thread 1 (main): update(withValue:) called at App/Form.swift:40"))
        let sarif = String(decoding: try out.contents("findings.sarif"), as: UTF8.self)
        #expect(sarif.contains(" --finding "))
    }
}
