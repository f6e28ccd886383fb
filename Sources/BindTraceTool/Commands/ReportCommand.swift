import ArgumentParser
import BindAnalysis
import BindGraph
import BindReport

/// `bind-trace report FILE -o DIR`: index.html, junit.xml and findings.sarif for people and CI.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write an HTML report, JUnit XML and SARIF for a trace.",
        discussion: """
            DIR gets index.html (summary, findings, the graph, a timeline of the labelled and busiest \
            Outputs, a sample of the events), junit.xml (one test case per finding) and findings.sarif \
            (code scanning). The trace is read twice, in bounded memory. A graph too big to draw in \
            reasonable time is left out, and the report says so. Exit status: 1 when findings fail \
            --fail-on, 0 otherwise, 2 for an unreadable trace or an unwritable directory.
            """)

    @Argument(help: "The trace file to read.")
    var file: String

    @Option(
        name: [.short, .customLong("output")],
        help: ArgumentHelp("The directory to write into (created if needed).", valueName: "dir"))
    var output: String = "bind-report"

    @Option(help: "Which findings fail the run (exit status 1): warning (any), error (cycles only) or none.")
    var failOn: FailOn = .warning

    @Flag(help: "Also report what is still bound or alive when the trace ends, as leaks \"at exit\".")
    var atExit = false

    @Option(
        name: .customLong("scope"),
        help: ArgumentHelp(
            "Judge only what belongs to the scope with this id and the scopes nested in it.", valueName: "id"))
    var focusScope: UInt64?

    @Option(
        help: ArgumentHelp("The repository's root as a file:// URI, recorded in SARIF as SRCROOT.", valueName: "uri"))
    var sourceRoot: String?

    @Option(
        name: .customLong("module-path"),
        help: ArgumentHelp(
            "Where a module's sources are, relative to the root (repeatable; default Sources/Module).",
            valueName: "Module=dir"))
    var modulePaths: [String] = []

    @Flag(help: "Also draw Outputs already released (faded) in the graph; memory grows with the trace.")
    var includeReleased = false

    @Option(help: "Graph layout engine: dot, sfdp or auto (by size).")
    var layout: LayoutChoice = .auto

    @Option(help: "Group graph nodes by source file, by module, or not (auto: by file when there are several).")
    var cluster: TraceGraphBuilder.Clustering = .automatic

    @Option(help: "Draw repeated identical structures as one ×N node: auto (3 or more), always, never.")
    var collapse: TraceGraphBuilder.Collapsing = .automatic

    func validate() throws {
        for mapping in modulePaths where !mapping.contains("=") || mapping.hasPrefix("=") {
            throw ValidationError("--module-path takes Module=dir, not '\(mapping)'")
        }
    }

    func run() throws {
        var options = TraceReportOptions(
            analysis: AnalysisOptions(atExit: atExit, focusScope: focusScope),
            graph: TraceGraphBuilder(clustering: cluster, collapsing: collapse), graphLayout: layout.graphLayout)
        options.title = "Bind trace: \(GraphCommand.fileName(file))"
        options.includesReleasedOutputs = includeReleased
        let report: TraceReport
        do {
            report = try ReportContent.build(fromTrace: file, options: options)
        } catch {
            throw ToolFailure(path: file, error)
        }
        for warning in report.warnings { StandardError.write("bind-trace: \(file): warning: \(warning)") }
        for error in report.traceErrors.prefix(20) {
            StandardError.write("bind-trace: \(file): inconsistent trace: \(error)")
        }

        var sources = SourceLocationMapping(sourceRootURI: sourceRoot)
        for mapping in modulePaths {
            let parts = mapping.split(separator: "=", maxSplits: 1)
            sources.modulePaths[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        do {
            try ReportWriter.write(report.content, to: output, options: ReportOptions(sources: sources))
        } catch {
            throw ToolFailure("\(error)")
        }

        let findings = report.content.findings
        let count = findings.count == 1 ? "1 finding" : "\(findings.count) findings"
        let graph = report.graphNote.map { "graph \($0)" } ?? "graph: \(report.graphDescription ?? "drawn")"
        StandardError.write("bind-trace: \(file): report with \(count) → \(output)/index.html (\(graph))")
        let status = failOn.exitStatus(for: findings)
        if status != 0 { throw ExitCode(status) }
    }
}

extension FailOn: ExpressibleByArgument {}
