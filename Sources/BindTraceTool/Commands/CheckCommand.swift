import ArgumentParser
import BindAnalysis

/// `bind-trace check FILE`: every finding kind.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Report every finding: leaks, duplicate and dangling bindings, feedback and structural cycles.")

    @OptionGroup var arguments: AnalysisArguments

    func run() throws {
        let result = try arguments.analyze(kinds: Set(Finding.Kind.allCases))
        try FindingReport(path: arguments.file, result: result).print(format: arguments.format)
    }
}
