import BindText
import Foundation
import Testing

@Suite("bind-trace follows the conventions a newcomer tries first")
struct CommandLineConventionTests {
    /// Every subcommand, as the tool's configuration lists them in `bind-trace --help` (its
    /// SUBCOMMANDS section), so that a command added to the tool is checked without editing this file.
    static func subcommands() throws -> [String] {
        let help = try Tool.run("--help")
        try #require(help.status == 0, "\(help.standardError)")
        let lines = help.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex { $0.hasPrefix("SUBCOMMANDS:") }, "\(help.standardOutput)")
        let names = lines[(start + 1)...].prefix { !$0.isEmpty }.compactMap { line -> String? in
            // `  check  Report every finding…`; an abstract's continuation line is indented further.
            guard line.hasPrefix("  "), !line.hasPrefix("    ") else { return nil }
            return line.split(separator: " ").first.map(String.init)
        }
        return names.filter { $0 != "help" }
    }

    /// The options a command's `--help` lists: name → value name (nil for a flag) and help text.
    static func options(of command: String) throws -> [String: (value: String?, help: String)] {
        let run = try Tool.run(command, "--help")
        try #require(run.status == 0, "\(command) --help: \(run.standardError)")
        var options: [String: (value: String?, help: String)] = [:]
        for line in run.standardOutput.split(separator: "\n").map(String.init) {
            let words = line.trimmingCharacters(in: .whitespaces)
            guard line.hasPrefix("  "), words.hasPrefix("-") else { continue }
            // `-o, --output <path>   Where to write…` or `--at-exit   Also report…`
            let parts = words.components(separatedBy: "  ").filter { !$0.isEmpty }
            let spelling = parts[0].split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            let tokens = spelling.split(separator: " ")
            guard let name = tokens.first.map(String.init), name.hasPrefix("--") else { continue }
            let value = tokens.dropFirst().first.map { String($0.dropFirst().dropLast()) }
            options[name] = (value, parts.dropFirst().joined(separator: " "))
        }
        return options
    }

    @Test("the command list comes from the tool: every command, including why and export")
    func commandList() throws {
        let names = try Self.subcommands()
        for expected in ["dump", "replay", "leaks", "cycles", "check", "summary", "graph", "report", "export", "why"] {
            #expect(names.contains(expected), "\(expected) in \(names)")
        }
    }

    @Test("every command: --help exits 0, and a usage error is one line naming what was wrong, with exit 2")
    func everyCommandUnknownOption() throws {
        let trace = try TemporaryTrace(GraphTraces.app())
        defer { trace.cleanUp() }
        for command in try Self.subcommands() {
            #expect(try Tool.run(command, "--help").status == 0, "\(command) --help")
            // An unknown option, after whatever else the command may lack (ArgumentParser names the
            // first problem it meets: a missing -o, a missing selection, or the unknown option)
            for arguments in [[command, "--frobnicate", trace.path], [command, trace.path, "--frobnicate"]] {
                let run = try Tool.run(arguments)
                #expect(run.status == 2, "\(arguments)")
                #expect(run.standardOutput.isEmpty, "\(arguments)")
                #expect(run.standardError.split(separator: "\n").count == 1, "\(arguments): \(run.standardError)")
                #expect(run.standardError.hasPrefix("bind-trace \(command): "), "\(run.standardError)")
                #expect(run.standardError.hasSuffix("(bind-trace help \(command) lists the options)\n"))
                #expect(!run.standardError.contains("unknown command"))
                #expect(!run.standardError.contains("Usage:") && !run.standardError.contains("Error:"))
            }
        }
        // A command that lacks nothing else names the option itself
        let check = try Tool.run("check", trace.path, "--frobnicate")
        #expect(
            check.standardError
                == "bind-trace check: unknown option '--frobnicate' (bind-trace help check lists the options)\n")
    }

    @Test("one meaning per option name: the same value name in every command; --output is always where to write")
    func oneMeaningPerName() throws {
        var seen: [String: (command: String, value: String?)] = [:]
        for command in try Self.subcommands() {
            for (name, option) in try Self.options(of: command) {
                if name == "--output" {
                    // Where to write, in every command that has it (a file or a directory: `<path>`, `<dir>`)
                    #expect(option.help.lowercased().contains("write"), "\(command) --output: \(option.help)")
                    continue
                }
                if let earlier = seen[name] {
                    #expect(
                        earlier.value == option.value,
                        "\(name) is <\(earlier.value ?? "flag")> in \(earlier.command) but <\(option.value ?? "flag")> in \(command)"
                    )
                } else {
                    seen[name] = (command, option.value)
                }
            }
        }
        #expect(seen["--fail-on"]?.value == "level")
    }

    @Test("why and replay select Outputs with --label and --output-id; their old --output still works, with a warning")
    func selectorsHaveTheirOwnNames() throws {
        for command in ["why", "replay"] {
            let options = try Self.options(of: command)
            #expect(options["--output-id"] != nil, "\(command) --output-id")
            #expect(options["--label"] != nil, "\(command) --label")
            #expect(options["--output"] == nil, "\(command) lists no --output")
        }
        let trace = try TemporaryTrace(GraphTraces.app())
        defer { trace.cleanUp() }
        let replay = try Tool.run("replay", trace.path, "--output", "1")
        #expect(replay.status == 0, "\(replay.standardError)")
        #expect(
            replay.standardError
                == "bind-trace: warning: replay --output is deprecated (--output names the file to write elsewhere); "
                + "use --output-id ID\n")
        #expect(replay.standardOutput == (try Tool.run("replay", trace.path, "--output-id", "1")).standardOutput)
    }

    @Test("summary, which never gates, does not offer --allow-incomplete; given anyway, it warns and runs")
    func summaryHasNoGate() throws {
        #expect(try Self.options(of: "summary")["--allow-incomplete"] == nil)
        for gate in ["check", "leaks", "cycles", "report"] {
            #expect(try Self.options(of: gate)["--allow-incomplete"] != nil, "\(gate)")
        }
        let trace = try TemporaryTrace(GraphTraces.app())
        defer { trace.cleanUp() }
        let run = try Tool.run("summary", trace.path, "--allow-incomplete")
        #expect(run.status == 0)
        #expect(run.standardError.hasPrefix("bind-trace: warning: summary --allow-incomplete is deprecated"))
        #expect(run.standardError.split(separator: "\n").count == 1)
    }

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
        for name in try Self.subcommands() {
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
        for option in ["--layout", "--cluster", "--collapse", "--max-nodes"] {
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

    @Test("counts are pluralised: 1 update, 1 Output, 1 event, never '1 updates'")
    func plurals() throws {
        // Given a trace with one update at one site
        let trace = try TemporaryTrace(GraphTraces.app())
        defer { trace.cleanUp() }

        // When summary prints its counts
        let run = try Tool.run("summary", trace.path)

        // Then one is singular
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("App/Screen.swift:3: 1 update (1 Output)"), "\(run.standardOutput)")
        #expect(run.standardOutput.contains(" on 1 thread"))
        for wrong in ["1 updates", "1 Outputs", "1 events", "1 threads", "1 subscriptions"] {
            #expect(!run.standardOutput.contains(" \(wrong)"), "\(wrong) in \(run.standardOutput)")
        }
    }
}
