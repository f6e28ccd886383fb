import ArgumentParser
import BindAnalysis

/// `bind-trace cycles TRACE…`: feedback cycles and structural cycles.
struct CyclesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cycles",
        abstract: "Find feedback cycles (an Output updated again while its update propagates) and structural cycles.",
        discussion: "Each loop is reported once, at one of its bind calls, with the others as notes.")

    @OptionGroup var arguments: AnalysisArguments
    @OptionGroup var gate: GateOptions

    func run() throws {
        let run = try arguments.analyze(kinds: [.feedbackCycle, .structuralCycle])
        try FindingReport(run: run, allowIncomplete: gate.allowIncomplete).print(format: arguments.format)
    }
}
