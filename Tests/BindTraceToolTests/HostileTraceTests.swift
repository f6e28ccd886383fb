import Foundation
import Testing

/// Hostile strings a hand-made trace can carry: ANSI, a newline into a CI workflow command, bidi.
private let hostile = "\u{1B}[2J\u{1B}[31mred\n::error::pwned\u{202E}gnp.exe"

/// Checks that `text` (standard output or error) carries none of `hostile`'s dangerous characters.
private func expectClean(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(!text.contains("\u{1B}"), sourceLocation: sourceLocation)
    #expect(!text.unicodeScalars.contains("\u{202E}"), sourceLocation: sourceLocation)
    let commandLines = text.split(separator: "\n").filter { $0.drop { $0 == " " }.hasPrefix("::") }
    #expect(commandLines.isEmpty, "\(commandLines)", sourceLocation: sourceLocation)
}

@Suite("bind-trace on hostile traces: every string escaped, standard error included")
struct HostileTraceTests {
    @Test("a reused scope id puts the hostile scope name into standard error escaped, on one line")
    func standardErrorIsEscaped() throws {
        var writer = TraceFileWriter()
        writer.thread(1)
        writer.beginScope(1, name: hostile, line: 10)
        writer.beginScope(1, name: hostile, line: 11)  // the same id again: an inconsistency
        writer.output(1, file: "::warning::x.swift", line: 3, label: hostile)
        writer.end()
        let trace = try TemporaryTrace(writer.bytes)
        defer { trace.cleanUp() }

        for command in ["check", "summary", "replay"] {
            let run = try Tool.run(command, trace.path, "--at-exit")
            let plain = command == "replay" || command == "dump" ? try Tool.run(command, trace.path) : run
            expectClean(plain.standardError)
            expectClean(plain.standardOutput)
            #expect(plain.standardError.contains("inconsistent trace"), "\(command): \(plain.standardError)")
            #expect(plain.standardError.split(separator: "\n").allSatisfy { $0.hasPrefix("bind-trace: ") })
            #expect(plain.standardError.contains("\\u{202E}"), "\(command): the escape stays visible")
        }
    }

    @Test("JSON output stays valid JSON with bidi and C1 characters escaped the JSON way")
    func jsonStaysValid() throws {
        var writer = TraceFileWriter()
        writer.thread(1)
        writer.output(1, line: 3, label: "a\u{202E}b\u{85}c")
        writer.bind(1, to: 1, line: 4)
        writer.end()
        let trace = try TemporaryTrace(writer.bytes)
        defer { trace.cleanUp() }

        let check = try Tool.run("check", "--at-exit", "--format", "json", trace.path)
        expectClean(check.standardOutput)
        let object = try JSONSerialization.jsonObject(with: Data(check.standardOutput.utf8)) as? [String: Any]
        let findings = try #require(object?["findings"] as? [[String: Any]])
        #expect((findings.first?["message"] as? String)?.contains("a\u{202E}b\u{85}c") == true)

        let dump = try Tool.run("dump", trace.path)
        expectClean(dump.standardOutput)
        for line in dump.standardOutput.split(separator: "\n") {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "\(line)")
        }
    }
}
