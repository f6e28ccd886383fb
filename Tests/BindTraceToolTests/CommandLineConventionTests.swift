import BindOutput
import Foundation
import Testing

@Suite("bind-trace follows the conventions a newcomer tries first")
struct CommandLineConventionTests {
    /// Every subcommand, in the order `--help` lists them.
    static let subcommands = ["dump", "replay", "leaks", "cycles", "check", "summary", "graph", "report"]

    @Test("--version prints the tool's version on standard output and exits 0")
    func version() throws {
        // When
        let run = try Tool.run("--version")

        // Then
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == ToolVersion.current)
        #expect(ToolVersion.current.split(separator: ".").count == 3)
    }

    @Test("an unknown command is called unknown, and every command is listed, on one line with exit 2")
    func unknownCommand() throws {
        // When
        let run = try Tool.run("frobnicate", "app.trace")

        // Then
        #expect(run.status == 2)
        #expect(run.standardOutput.isEmpty)
        let lines = run.standardError.split(separator: "\n")
        #expect(lines.count == 1, "\(run.standardError)")
        #expect(run.standardError.hasPrefix("bind-trace: unknown command 'frobnicate'"))
        for name in Self.subcommands {
            #expect(run.standardError.contains(name), "\(name) is listed: \(run.standardError)")
        }
        #expect(!run.standardError.contains("Unexpected argument"))
    }

    @Test("a hostile unknown command is echoed escaped, never as terminal control")
    func hostileUnknownCommand() throws {
        let run = try Tool.run("x\u{1B}[2J\u{202E}")
        #expect(run.status == 2)
        #expect(!run.standardError.contains("\u{1B}") && !run.standardError.contains("\u{202E}"))
        #expect(run.standardError.contains("unknown command"))
    }

    @Test("a known command, help and an unknown option are not called unknown commands")
    func knownWords() throws {
        let help = try Tool.run("help", "check")
        #expect(help.status == 0)
        #expect(!help.standardError.contains("unknown command"))
        let option = try Tool.run("--frobnicate")
        #expect(option.status == 2)
        #expect(!option.standardError.contains("unknown command"))
        let missing = try Tool.run("check")
        #expect(missing.status == 2)
        #expect(!missing.standardError.contains("unknown command"))
    }

    /// The lines of `help` that describe `option`: its own line and the indented ones under it.
    private static func helpLines(_ help: String, option: String) -> [String] {
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix(option + " ") })
        else { return [] }
        let rest = lines[(start + 1)...].prefix { $0.hasPrefix("                 ") }
        return [lines[start]] + rest
    }

    @Test("graph and report take the same graph options, described in the same words")
    func sharedGraphOptions() throws {
        // When both commands' help is printed
        let graph = try Tool.run("graph", "--help")
        let report = try Tool.run("report", "--help")

        // Then each graph option is there, the same in both
        #expect(graph.status == 0 && report.status == 0)
        for option in ["--layout", "--cluster", "--collapse"] {
            let inGraph = Self.helpLines(graph.standardOutput, option: option)
            #expect(!inGraph.isEmpty, "graph --help lists \(option)")
            #expect(inGraph == Self.helpLines(report.standardOutput, option: option), "\(option)")
        }
    }

    @Test("the HTML report's header and the SARIF tool entry carry the version")
    func versionInReports() throws {
        // Given a trace
        let trace = try TemporaryTrace(GraphTraces.app())
        let out = try TemporaryDirectory()
        defer { trace.cleanUp(); out.cleanUp() }

        // When a report is written
        let run = try Tool.run("report", trace.path, "-o", out.path, "--fail-on", "none")

        // Then
        #expect(run.status == 0, "\(run.standardError)")
        let html = String(decoding: try out.contents("index.html"), as: UTF8.self)
        let header = try #require(
            html.range(of: "<header>").flatMap { start in
                html.range(of: "</header>", range: start.upperBound..<html.endIndex).map {
                    html[start.lowerBound..<$0.upperBound]
                }
            })
        #expect(header.contains("bind-trace \(ToolVersion.current)"))
        let sarif = String(decoding: try out.contents("findings.sarif"), as: UTF8.self)
        #expect(
            sarif.contains("\"version\":\"\(ToolVersion.current)\"")
                || sarif.contains("\"version\": \"\(ToolVersion.current)\""))
    }
}
