import Foundation
import Testing

@Suite("progress on standard error: on a terminal, or when asked for")
struct ProgressTests {
    @Test("in a pipe nothing is shown unless --progress always, which ends with the figures", arguments: ["check", "summary", "replay", "graph", "report"])
    func pipe(command: String) throws {
        let trace = try TemporaryTrace(deepChainTrace(depth: 50))
        let out = try TemporaryDirectory()
        defer { trace.cleanUp(); out.cleanUp() }
        var extra: [String] = []
        if command == "graph" { extra = ["--format", "dot", "-o", out.file("g.dot")] }
        if command == "report" { extra = ["-o", out.file("report")] }

        let quiet = try Tool.run([command, trace.path] + extra)
        #expect(!quiet.standardError.contains("events, "), "\(quiet.standardError)")

        let asked = try Tool.run([command, trace.path, "--progress", "always"] + extra)
        let progress = asked.standardError.split(separator: "\n").filter { $0.contains(" events, ") }
        #expect(progress.count >= 1, "\(asked.standardError)")
        #expect(progress.last?.contains("KB of ") == true, "bytes read of the total: \(progress)")
        #expect(progress.last?.contains(", 150 events, ") == true, "\(progress)")
        #expect(!asked.standardError.contains("\r"), "no in-place updates outside a terminal")
    }
}
