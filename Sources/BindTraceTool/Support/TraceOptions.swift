import ArgumentParser
import BindAnalysis
import BindTraceModel

/// How findings are printed.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    /// `Module/File.swift:42: warning: kind: message`, with indented related lines.
    case text
    /// Exactly one JSON object: `{"findings": [...], "summary": {...}}`.
    case json
}

/// The options of every command that judges a trace.
struct AnalysisArguments: ParsableArguments {
    @Argument(help: "The trace file to read.")
    var file: String

    @Option(help: "Output format: text (compiler style) or json (one object).")
    var format: OutputFormat = .text

    @Flag(help: "Also report what is still bound or alive when the trace ends, as leaks \"at exit\".")
    var atExit = false

    @Option(
        name: .customLong("scope"),
        help: ArgumentHelp(
            "Judge only what belongs to the scope with this id and the scopes nested in it.",
            valueName: "id"))
    var focusScope: UInt64?

    /// Reads and analyses the trace, judging only `kinds`; a read failure becomes a ``ToolFailure``.
    func analyze(kinds: Set<Finding.Kind>) throws -> AnalysisResult {
        let options = AnalysisOptions(atExit: atExit, focusScope: focusScope, kinds: kinds)
        do {
            return try TraceAnalyzer.analyze(path: file, options: options)
        } catch {
            throw ToolFailure(path: file, error)
        }
    }
}

extension AnalysisResult {
    /// Prints warnings and trace errors to standard error, one line each.
    func reportProblems(path: String) {
        for warning in warnings {
            StandardError.write("bind-trace: \(path): warning: \(warning)")
        }
        for error in traceErrors.prefix(20) {
            StandardError.write("bind-trace: \(path): inconsistent trace: \(error)")
        }
        let more = summary.traceErrors - min(traceErrors.count, 20)
        if more > 0 {
            StandardError.write("bind-trace: \(path): \(more) more inconsistencies not shown")
        }
    }
}
