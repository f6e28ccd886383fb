import ArgumentParser
import BindAnalysis

/// `bind-trace leaks TRACE…`: leaked subscriptions and Outputs, duplicate and dangling bindings.
struct LeaksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "leaks",
        abstract: "Find leaked subscriptions and Outputs, duplicate bindings and dangling Binders.",
        discussion: """
            A subscription bound (or an Output created) inside BindTrace.scope leaked when the scope \
            ended and it is still bound (alive) when the trace ends. --at-exit also reports what a run \
            without scopes left behind.
            """)

    @OptionGroup var arguments: AnalysisArguments
    @OptionGroup var gate: GateOptions

    static let kinds: Set<Finding.Kind> = [
        .leakedSubscription, .leakedOutput, .retainCycle, .duplicateBinding, .danglingBinder,
    ]

    func run() throws {
        let run = try arguments.analyze(kinds: Self.kinds)
        try FindingReport(run: run, allowIncomplete: gate.allowIncomplete).print(format: arguments.format)
    }
}
