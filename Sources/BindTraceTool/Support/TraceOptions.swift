import ArgumentParser
import BindAnalysis
import BindReport
import BindTraceModel

/// How findings are printed.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    /// `Module/File.swift:42: warning: kind: message`, with indented related lines.
    case text
    /// Exactly one JSON object: `{"findings": [...], "summary": {...}}`.
    case json
}

/// The traces a command reads and how it shows progress: the options every command shares.
struct TraceOptions: ParsableArguments {
    @Argument(
        help: ArgumentHelp(
            "Trace files, directories (their *.trace files) or glob patterns; several traces are one run.",
            valueName: "trace"))
    var traces: [String]

    @OptionGroup var progressOptions: ProgressOptions

    var progress: ProgressMode { progressOptions.progress }

    /// The trace files, expanded (see ``TraceInputs``).
    func inputs() throws(ToolFailure) -> [TraceInputs.Input] {
        try TraceInputs.expand(traces)
    }

    /// The one trace of a command that reads one: several are a usage error naming them.
    func single(_ command: String) throws(ToolFailure) -> String {
        let inputs = try inputs()
        guard inputs.count == 1, let input = inputs.first else {
            throw ToolFailure(
                "\(command) reads one trace at a time; \(traces.joined(separator: " ")) names \(inputs.count)")
        }
        return input.path
    }
}

/// How a command shows its progress while reading: part of ``TraceOptions``, and on its own for a
/// command whose traces are not one list (`diff`'s two sides).
struct ProgressOptions: ParsableArguments {
    @Option(help: "Progress on standard error while reading: auto (on a terminal only), always, never.")
    var progress: ProgressMode = .auto
}

/// What to judge, for every command that reports findings.
struct JudgingOptions: ParsableArguments {
    @Flag(help: "Also report what is still bound or alive when the trace ends, as leaks \"at exit\".")
    var atExit = false

    @Option(
        name: .customLong("scope"),
        help: ArgumentHelp(
            "Judge only what belongs to the scope with this id and the scopes nested in it.", valueName: "id"))
    var focusScope: UInt64?

    func options(kinds: Set<Finding.Kind> = Set(Finding.Kind.allCases)) -> AnalysisOptions {
        AnalysisOptions(atExit: atExit, focusScope: focusScope, kinds: kinds)
    }
}

/// Whether a gate accepts traces it could not read whole.
struct GateOptions: ParsableArguments {
    @Flag(
        help: """
            Judge traces that were cut short, lack their end record or lost events, instead of failing \
            with exit status 3.
            """)
    var allowIncomplete = false
}

/// Which findings fail a gate's run (`check`, `report`): one definition, so both spell and
/// describe it alike.
struct FailOnOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Which findings fail the run (exit status 1): note (any), warning (warnings and errors), error "
                + "(cycles only) or none.",
            valueName: "level"))
    var failOn: FailOn = .warning
}

/// The options of every command that judges traces: `check`, `leaks`, `cycles`, `summary` (the
/// gates among them add ``GateOptions``; `summary` never gates).
struct AnalysisArguments: ParsableArguments {
    @OptionGroup var traces: TraceOptions

    @Option(help: "Output format: text (compiler style) or json (one object).")
    var format: OutputFormat = .text

    @OptionGroup var judging: JudgingOptions

    /// Reads and analyses every trace, judging only `kinds`.
    func analyze(kinds: Set<Finding.Kind>) throws(ToolFailure) -> TraceRun {
        try TraceRun.analyze(try traces.inputs(), options: judging.options(kinds: kinds), progress: traces.progress)
    }
}
