import ArgumentParser
import BindAnalysis
import BindDiff
@_spi(Harness) import BindGraph
import BindText

/// `bind-trace diff BASE HEAD`: what changed between two runs — findings, the site graph, per-site counts.
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare two runs: new and fixed findings, sites and edges added and removed, per-site growth.",
        discussion: """
            BASE and HEAD are each a trace, a directory of traces (one run) or a pattern. Runs are matched \
            by what is stable between them: an Output's creation site, kind, label and value type, a \
            subscription's bind site, finding fingerprints; never ids or addresses. A count grows when \
            it reaches --growth-ratio times BASE's and at least --growth-minimum more. Exit status: 0, \
            1 when --fail-on finds new findings or growth, 2 bad usage or an unreadable trace, 3 a trace \
            that was not read whole unless --allow-incomplete (the diff is still written).
            """)

    @Argument(help: ArgumentHelp("The run before: a trace, a directory of traces or a pattern.", valueName: "base"))
    var base: String

    @Argument(help: ArgumentHelp("The run after: a trace, a directory of traces or a pattern.", valueName: "head"))
    var head: String

    @Option(
        help: "Output format: text, json (one object; docs/schemas/diff.schema.json) or markdown (for a pull request).")
    var format: DiffFormat = .text

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp("Where to write the diff (default: standard output).", valueName: "file"))
    var output: String?

    @Option(
        help: ArgumentHelp(
            "Also draw the site graph of both runs, changes marked, as SVG to this file.", valueName: "file"))
    var svg: String?

    @Flag(help: "Draw every site in the --svg picture, not only the changed ones and their neighbours.")
    var svgShowsAll = false

    @Option(
        help: ArgumentHelp(
            "What fails the run (exit 1): new-findings, growth (repeatable), or none.", valueName: "level"))
    var failOn: [DiffGate] = []

    @Option(help: ArgumentHelp("Growth is at least this many times BASE's count.", valueName: "ratio"))
    var growthRatio: Double = 2

    @Option(help: ArgumentHelp("… and at least this many more.", valueName: "count"))
    var growthMinimum: UInt64 = 100

    @OptionGroup var judging: JudgingOptions
    @OptionGroup var gate: GateOptions
    @OptionGroup var progress: ProgressOptions

    func validate() throws {
        guard growthRatio.isFinite, growthRatio >= 1 else {
            throw ValidationError("--growth-ratio must be a number of at least 1, not \(growthRatio)")
        }
    }

    func run() throws {
        let options = judging.options()
        let (baseSide, baseRun) = try DiffSides.read([base], options: options, progress: progress.progress)
        let (headSide, headRun) = try DiffSides.read([head], options: options, progress: progress.progress)
        DiffSides.reportProblems(baseRun, side: "BASE", allowIncomplete: gate.allowIncomplete)
        DiffSides.reportProblems(headRun, side: "HEAD", allowIncomplete: gate.allowIncomplete)
        let diff = RunDiff(
            base: baseSide, head: headSide,
            threshold: GrowthThreshold(ratio: growthRatio, minimumIncrease: growthMinimum))

        let text: String
        switch format {
        case .text: text = diff.textLines.map { Escape.terminal($0) }.joined(separator: "\n") + "\n"
        case .json: text = Escape.terminal(diff.json.compactText, spelling: .json) + "\n"
        case .markdown: text = diff.markdown
        }
        if let output, output != "-" {
            do {
                try AtomicFile.write(bytes: Array(text.utf8), to: output)
            } catch {
                throw ToolFailure("\(output): cannot write: \(error.reason)")
            }
        } else {
            StandardOutput.shared.write(text)
        }
        if let svg { try draw(diff, to: svg) }

        if !gate.allowIncomplete && !(baseSide.incomplete.isEmpty && headSide.incomplete.isEmpty) {
            throw ExitCode(3)
        }
        let gates = Set(failOn)
        if gates.contains(.newFindings) && !diff.newFindings.isEmpty { throw ExitCode(1) }
        if gates.contains(.growth) && !diff.grown.isEmpty { throw ExitCode(1) }
    }

    private func draw(_ diff: RunDiff, to path: String) throws(ToolFailure) {
        let rendered: RenderedGraph
        do {
            rendered = try GraphvizRenderer().render(diff.graphDocument(showsUnchanged: svgShowsAll), format: .svg)
        } catch {
            throw ToolFailure("\(path): cannot draw the diff's graph: \(error)")
        }
        for warning in rendered.warnings { StandardError.write("bind-trace: graphviz: warning: \(warning)") }
        do {
            try AtomicFile.write(bytes: [UInt8](rendered.data), to: path)
        } catch {
            throw ToolFailure("\(path): cannot write: \(error.reason)")
        }
    }
}

/// `bind-trace diff`'s formats.
enum DiffFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, markdown
}

/// What fails `bind-trace diff` (`--fail-on`).
enum DiffGate: String, ExpressibleByArgument, CaseIterable {
    /// A finding HEAD has and BASE had not.
    case newFindings = "new-findings"
    /// A site count past the growth threshold.
    case growth
    /// Nothing (the default; a written diff is a success).
    case none
}
