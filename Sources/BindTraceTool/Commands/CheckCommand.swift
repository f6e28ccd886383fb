import ArgumentParser
import BindAnalysis
import BindReport

/// `bind-trace check TRACE…`: every finding kind, for every process of a run.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Report every finding: leaks, duplicate and dangling bindings, feedback and structural cycles.",
        discussion: """
            Several traces (files, directories, patterns) are one run: findings are merged by kind and \
            site, with the traces that saw them. Exit status: 0 no findings, 1 findings not in the \
            baseline, 2 bad usage or an unreadable trace, 3 a trace that was not read whole (cut short, \
            no end record, lost events) unless --allow-incomplete.
            """)

    @OptionGroup var arguments: AnalysisArguments
    @OptionGroup var gate: GateOptions
    @OptionGroup var baselineOptions: BaselineOptions
    @OptionGroup var failOnOptions: FailOnOptions

    func run() throws {
        let run = try arguments.analyze(kinds: Set(Finding.Kind.allCases))
        var baseline = try baselineOptions.read()
        if let path = baselineOptions.writeBaseline {
            try Baseline.write(run.findings, to: path)
            baseline = Baseline(fingerprints: Set(run.findings.map(\.fingerprint)))
        }
        try FindingReport(
            run: run, baseline: baseline, allowIncomplete: gate.allowIncomplete, failOn: failOnOptions.failOn
        )
        .print(format: arguments.format)
    }
}
