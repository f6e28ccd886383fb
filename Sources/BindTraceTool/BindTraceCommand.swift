import ArgumentParser
import BindText

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// The C library's `exit`, out of the way of `ParsableCommand.exit(withError:)`.
private func processExit(_ status: Int32) -> Never { exit(status) }

/// `bind-trace`: replays a trace recorded by Bind's instrumented build and finds leaks and cycles.
///
/// To add a subcommand, add a file under `Commands/` and one line to `subcommands` below.
@main
struct BindTraceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bind-trace",
        abstract: "Replay a Bind trace and find leaked subscriptions and feedback cycles.",
        discussion: """
            Record a trace by running a program built with `--traits Tracing` and BIND_TRACE=app.trace.
            Findings print as `Module/File.swift:42: warning: leaked-subscription: …`.
            Every command takes trace files, directories of them and patterns; several traces are one \
            run. Exit status: 0 no findings, 1 findings, 2 bad usage, an unreadable trace, running out \
            of memory or a crash (one line on standard error), 3 a trace not read whole (check, leaks, \
            cycles, report; unless --allow-incomplete).
            """,
        version: ToolVersion.current,
        subcommands: [
            DumpCommand.self,
            ReplayCommand.self,
            LeaksCommand.self,
            CyclesCommand.self,
            CheckCommand.self,
            SummaryCommand.self,
            GraphCommand.self,
            ReportCommand.self,
            ExportCommand.self,
            WhyCommand.self,
            DiffCommand.self,
            ServeCommand.self,
        ]
    )

    /// The subcommands' names, in the order of `--help`.
    static var subcommandNames: [String] {
        configuration.subcommands.compactMap { $0.configuration.commandName }
    }

    /// `arguments`' first word when it is meant as a command (not an option) and names none:
    /// ArgumentParser would only call it an "unexpected argument".
    static func unknownCommand(in arguments: [String]) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-") else { return nil }
        return (subcommandNames + ["help"]).contains(first) ? nil : first
    }

    /// Runs the command line with the tool's exit statuses: 2 (not ArgumentParser's 64) for bad usage.
    static func main() {
        // A closed pipe (`bind-trace dump app.trace | head`) ends the output quietly, not with a signal.
        signal(SIGPIPE, SIG_IGN)
        if let unknown = unknownCommand(in: Array(CommandLine.arguments.dropFirst())) {
            StandardError.write(
                "bind-trace: unknown command '\(unknown)'; the commands are: "
                    + subcommandNames.joined(separator: ", ")
                    + " (bind-trace help COMMAND for one)")
            processExit(2)
        }
        if let status = CrashGuard.runGuarded(arguments: Array(CommandLine.arguments.dropFirst())) {
            Self.exit(status)
        }
        do {
            var command = try parseAsRoot()
            try command.run()
            Self.exit(0)
        } catch let exit as ExitCode {
            StandardOutput.shared.flush()
            Self.exit(exit.rawValue)
        } catch let failure as ToolFailure {
            StandardOutput.shared.flush()
            StandardError.write("bind-trace: \(failure.message)")
            Self.exit(2)
        } catch {
            StandardOutput.shared.flush()
            if exitCode(for: error) == .success {
                let help = fullMessage(for: error)
                if !help.isEmpty { StandardOutput.shared.write(help + "\n") }
                StandardOutput.shared.flush()
                Self.exit(0)
            }
            StandardError.write(usageError(message(for: error), arguments: Array(CommandLine.arguments.dropFirst())))
            Self.exit(2)
        }
    }

    /// A usage error as one line, as an unknown command is: `bind-trace check: unknown option
    /// '--frobnicate' (bind-trace help check lists the options)`. ArgumentParser's own message may
    /// span lines (several errors, a suggestion); they are joined.
    static func usageError(_ message: String, arguments: [String]) -> String {
        let command = arguments.first.flatMap { subcommandNames.contains($0) ? $0 : nil }
        var text = message.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: "; ")
        if text.hasPrefix("Error: ") { text.removeFirst("Error: ".count) }
        if let first = text.first, first.isUppercase, !text.hasPrefix("Bind") {
            text = first.lowercased() + text.dropFirst()
        }
        let help = command.map { "bind-trace help \($0)" } ?? "bind-trace --help"
        return "bind-trace\(command.map { " \($0)" } ?? ""): \(text) (\(help) lists the options)"
    }

    /// Exits with `status`, or with 2 when standard output could not be written whole: a gate must
    /// not pass, nor a caller take a cut-short dump or SVG for the whole one.
    private static func exit(_ status: Int32) -> Never {
        StandardOutput.shared.flush()
        if let failure = StandardOutput.shared.failure {
            StandardError.write("bind-trace: standard output: cannot write: \(failure); output is incomplete")
            processExit(2)
        }
        processExit(status)
    }
}
