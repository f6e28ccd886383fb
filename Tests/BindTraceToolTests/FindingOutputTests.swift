import Foundation
import Testing

/// A trace with one bug: a closure bound in scope 'cell' (line 12) to a long-lived Output (line 3).
func leakyTrace() -> [UInt8] {
    var trace = TraceFileWriter()
    trace.thread(1)
    trace.output(1, line: 3, label: "title")
    trace.beginScope(1, name: "cell", line: 10)
    trace.bind(1, to: 1, line: 12, scope: 1)
    trace.update(1)
    trace.endScope(1)
    trace.end()
    return trace.bytes
}

/// The same program without the bug: the subscription is unbound before the scope ends.
func cleanTrace() -> [UInt8] {
    var trace = TraceFileWriter()
    trace.thread(1)
    trace.output(1, line: 3, label: "title")
    trace.beginScope(1, name: "cell", line: 10)
    trace.bind(1, to: 1, line: 12, scope: 1)
    trace.unbind(1, reason: .container)
    trace.endScope(1)
    trace.end()
    return trace.bytes
}

@Suite("bind-trace prints findings for editors, CI logs and scripts")
struct FindingOutputTests {
    @Test("findings print compiler-style with indented related lines, and exit 1")
    func compilerStyle() throws {
        let trace = try TemporaryTrace(leakyTrace())
        defer { trace.cleanUp() }

        let run = try Tool.run("check", trace.path)

        #expect(run.status == 1)
        let lines = run.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("App/Screen.swift:12: warning: leaked-subscription: ") == true)
        #expect(lines.contains("    App/Screen.swift:3: note: 'title' (Int) is created here and lives on"))
        #expect(lines.contains("    App/Screen.swift:10: note: scope 'cell' begins here"))
        #expect(run.standardError.isEmpty)
    }

    @Test("no findings exit 0")
    func clean() throws {
        let trace = try TemporaryTrace(cleanTrace())
        defer { trace.cleanUp() }

        for command in ["check", "leaks", "cycles"] {
            let run = try Tool.run(command, trace.path)
            #expect(run.status == 0, "\(command)")
            #expect(run.standardOutput.contains("no findings"))
        }
    }

    @Test("cycles judges only cycles: a leak is not its business")
    func cyclesOnly() throws {
        let trace = try TemporaryTrace(leakyTrace())
        defer { trace.cleanUp() }
        #expect(try Tool.run("cycles", trace.path).status == 0)
        #expect(try Tool.run("leaks", trace.path).status == 1)
    }

    @Test("--format json prints exactly one JSON object with findings and a summary")
    func json() throws {
        let trace = try TemporaryTrace(leakyTrace())
        defer { trace.cleanUp() }

        let run = try Tool.run("leaks", "--format", "json", trace.path)

        #expect(run.status == 1)
        #expect(run.standardOutput.split(separator: "\n").count == 1)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        let findings = try #require(object["findings"] as? [[String: Any]])
        #expect(findings.count == 1)
        let finding = try #require(findings.first)
        #expect(finding["kind"] as? String == "leaked-subscription")
        #expect((finding["message"] as? String)?.contains("scope 'cell'") == true)
        let site = try #require(finding["site"] as? [String: Any])
        #expect(site["file"] as? String == "App/Screen.swift")
        #expect(site["line"] as? Int == 12)
        let related = try #require(finding["related"] as? [[String: Any]])
        #expect(related.first?["file"] as? String == "App/Screen.swift")
        #expect(related.first?["line"] as? Int == 3)
        #expect(related.first?["note"] is String)
        let summary = try #require(object["summary"] as? [String: Any])
        #expect(summary["findings"] as? Int == 1)
        #expect(summary["events"] as? Int == 5)
    }

    @Test("--at-exit reports a closure a run without scopes left bound, at its bind line, and no live Output")
    func atExit() throws {
        var writer = TraceFileWriter()
        writer.output(1, line: 3)
        writer.bind(1, to: 1, line: 4)
        writer.end()
        let trace = try TemporaryTrace(writer.bytes)
        defer { trace.cleanUp() }

        #expect(try Tool.run("leaks", trace.path).status == 0)
        let run = try Tool.run("leaks", "--at-exit", trace.path)
        #expect(run.status == 1)
        #expect(
            run.standardOutput.contains(
                "App/Screen.swift:4: warning: leaked-subscription: closure bound to Output<Int> at Screen.swift:3 is still bound at exit"
            ), "\(run.standardOutput)")
        #expect(!run.standardOutput.contains("leaked-output"), "an Output alive at exit is an app's normal state")
    }
}

@Suite("bind-trace output is safe for terminals and logs")
struct TerminalSafetyTests {
    @Test("a label with escape sequences and newlines prints as visible escapes on one line")
    func controlCharactersAreEscaped() throws {
        var writer = TraceFileWriter()
        writer.thread(1)
        writer.output(1, line: 3, label: "\u{1B}[31mred\nnext line\u{7}")
        writer.beginScope(1, name: "cell", line: 10)
        writer.bind(1, to: 1, line: 12, scope: 1)
        writer.endScope(1)
        writer.end()
        let trace = try TemporaryTrace(writer.bytes)
        defer { trace.cleanUp() }

        let run = try Tool.run("check", trace.path)

        #expect(run.status == 1)
        #expect(!run.standardOutput.contains("\u{1B}"))
        #expect(!run.standardOutput.contains("\u{7}"))
        #expect(run.standardOutput.contains("\\u{1B}[31mred\\u{A}next line\\u{7}"))
        let findingLines = run.standardOutput.split(separator: "\n").filter {
            $0.contains("warning: leaked-subscription")
        }
        #expect(findingLines.count == 1, "the finding stays on one line")
    }
}
