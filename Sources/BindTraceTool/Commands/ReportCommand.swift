import ArgumentParser
@_spi(Harness) import BindAnalysis
@_spi(Harness) import BindGraph
@_spi(Harness) import BindReport
import BindText
@_spi(Harness) import BindTraceModel
import Foundation

/// `bind-trace report TRACE… -o DIR`: index.html, junit.xml and findings.sarif for people and CI.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write an HTML report, JUnit XML and SARIF for a trace, or for every trace of a run.",
        discussion: """
            DIR gets index.html (summary, findings, the graph, a timeline of the labelled and busiest \
            Outputs, a sample of the events), junit.xml (one test case per finding) and findings.sarif \
            (code scanning); DIR is replaced as a whole. The trace is read twice, in bounded memory. The \
            graph is drawn as by `graph`: at most --max-nodes Output nodes, at the end or, when nothing \
            is alive there, at the moment most Outputs were alive. Several \
            traces make one report of their findings, merged by site. Exit status: 1 when findings \
            not in the baseline fail --fail-on, 0 otherwise, 2 for an unreadable trace or an unwritable \
            directory, 3 for a trace not read whole unless --allow-incomplete.
            """)

    @OptionGroup var traces: TraceOptions

    @Option(
        name: [.short, .customLong("output")],
        help: ArgumentHelp("The directory to write into (replaced as a whole; created if needed).", valueName: "dir"))
    var output: String = "bind-report"

    @OptionGroup var failOnOptions: FailOnOptions

    @OptionGroup var judging: JudgingOptions
    @OptionGroup var gate: GateOptions
    @OptionGroup var baselineOptions: BaselineOptions

    @Option(
        help: ArgumentHelp("The repository's root as a file:// URI, recorded in SARIF as SRCROOT.", valueName: "uri"))
    var sourceRoot: String?

    @Option(
        name: .customLong("module-path"),
        help: ArgumentHelp(
            "Where a module's sources are, relative to the root (repeatable; default: the package's own layout).",
            valueName: "Module=dir"))
    var modulePaths: [String] = []

    @Flag(help: "Also draw Outputs already released (faded) in the graph; memory grows with the trace.")
    var includeReleased = false

    @OptionGroup var graphOptions: GraphOptions

    @Option(
        help: ArgumentHelp(
            "Add a \"Changes since BASE\" section: what changed since this run (trace, directory or pattern), as diff.",
            valueName: "base"))
    var base: String?

    func validate() throws {
        for mapping in modulePaths where !mapping.contains("=") || mapping.hasPrefix("=") {
            throw ValidationError("--module-path takes Module=dir, not '\(mapping)'")
        }
    }

    func run() throws {
        let inputs = try traces.inputs()
        let baseline = try baselineOptions.read()
        var reports: [(path: String, report: TraceReport)] = []
        // Of a run, every process's graph joins one merged by creation site; each state is dropped once added.
        var siteGraph = SiteMergedGraph()
        for input in inputs {
            // Of a run, the first processes' graphs are drawn too (each a Graphviz layout).
            let graph = inputs.count > 1 && reports.count < Self.maximumProcessGraphs
            guard var report = try read(input, details: inputs.count == 1, graph: graph) else { continue }
            if inputs.count > 1, let state = report.finalState {
                siteGraph.add(state, findings: report.content.findings)
            }
            report.finalState = nil
            reports.append((input.path, report))
        }
        guard !reports.isEmpty else {
            throw ToolFailure("\(traces.traces.joined(separator: " ")): no Bind trace among these files")
        }
        try TraceRun.requireFocusScope(
            judging.focusScope, paths: reports.map(\.path), named: reports.contains(where: \.report.sawFocusScope))
        var content = reports.count == 1 ? reports[0].report.content : Self.merged(reports)
        if reports.count > 1 { content.mergedGraphSVG = siteGraph.svg(options: reportOptions) }
        let merged = TraceRun.merge(reports.map { ($0.path, $0.report.content.findings) })
        content.findings = merged.map(\.finding)
        if reports.count > 1 { content.findingTraces = merged.map(\.traces) }
        var accepted = baseline?.fingerprints ?? []
        if let path = baselineOptions.writeBaseline {
            try Baseline.write(merged, to: path)
            accepted = Set(merged.map(\.fingerprint))
        }
        content.hasBaseline = baseline != nil || baselineOptions.writeBaseline != nil
        content.baselinedFingerprints = accepted
        if let base { try addChanges(since: base, to: &content) }
        try write(content)

        let incomplete = reports.compactMap { path, report in
            TraceRun.incompleteness(warnings: report.warnings, isComplete: report.isComplete).map { (path, $0) }
        }
        for (path, reason) in incomplete where !gate.allowIncomplete {
            StandardError.write(
                "bind-trace: \(path): incomplete trace: \(reason); findings may be missing or false "
                    + "(exit 3; --allow-incomplete judges it anyway)")
        }
        let failing = content.findings.filter { !accepted.contains(FindingFingerprint.of($0)) }
        let count = content.findings.count == 1 ? "1 finding" : "\(content.findings.count) findings"
        let known = accepted.isEmpty ? "" : ", \(content.findings.count - failing.count) in the baseline"
        let subject = reports.count == 1 ? reports[0].path : "\(reports.count) traces"
        let graph =
            reports.count > 1
            ? "\(content.processGraphs.count) of \(reports.count) processes' graphs"
                + (content.mergedGraphSVG == nil ? "" : " and one merged by creation site")
            : reports[0].report.graphNote.map { "graph \($0)" }
                ?? "graph: \(reports[0].report.graphDescription ?? "drawn")"
        StandardError.write("bind-trace: \(subject): report with \(count)\(known) → \(output)/index.html (\(graph))")
        if !incomplete.isEmpty && !gate.allowIncomplete { throw ExitCode(3) }
        let status = failOnOptions.failOn.exitStatus(for: failing)
        if status != 0 { throw ExitCode(status) }
    }

    /// Reads one trace into a report; `nil` for a file found by a pattern that is not a trace.
    /// A report of a run draws at most this many processes' graphs.
    static let maximumProcessGraphs = 8

    /// What every trace of this report is read and drawn with.
    private var reportOptions: TraceReportOptions {
        TraceReportOptions(
            analysis: judging.options(),
            graph: graphOptions.builder(), graphLayout: graphOptions.layout.graphLayout,
            maximumGraphNodes: graphOptions.maxNodes)
    }

    private func read(_ input: TraceInputs.Input, details: Bool, graph: Bool = false) throws -> TraceReport? {
        var options = reportOptions
        options.title = "Bind trace: \(GraphCommand.fileName(input.path))"
        options.includesReleasedOutputs = includeReleased
        options.includesDetails = details
        options.includesGraph = graph
        let progress = ProgressLine(path: input.path, mode: traces.progress, passes: details ? 2 : 1)
        defer { progress.finish() }
        let report: TraceReport
        do {
            report = try ReportContent.build(fromTrace: input.path, options: options) { pass, reader, events in
                progress.update(pass: pass, bytesRead: reader.bytesRead, events: events)
            }
        } catch .notATrace where !input.isExplicit {
            StandardError.write("bind-trace: \(input.path): warning: skipped: not a Bind trace")
            return nil
        } catch {
            throw ToolFailure(path: input.path, error)
        }
        progress.finish()
        for warning in report.warnings { StandardError.write("bind-trace: \(input.path): warning: \(warning)") }
        for error in report.traceErrors.prefix(20) {
            StandardError.write("bind-trace: \(input.path): inconsistent trace: \(error)")
        }
        return report
    }

    private func write(_ content: ReportContent) throws {
        var sources = SourceLocationMapping(sourceRootURI: sourceRoot)
        if let root = packageRoot {
            // The modules the SARIF names (a `#fileID` starts with its module).
            let files = content.findings.flatMap { [$0.site?.file].compactMap { $0 } + $0.related.map(\.site.file) }
            let modules = Set(files.compactMap { $0.split(separator: "/", maxSplits: 1).first.map(String.init) })
            sources.modulePaths = PackageLayout.modulePaths(root: root, modules: modules)
        }
        for mapping in modulePaths {
            let parts = mapping.split(separator: "=", maxSplits: 1)
            sources.modulePaths[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        do {
            try ReportWriter.write(
                content, to: output, options: ReportOptions(sources: sources, toolVersion: ToolVersion.current))
        } catch {
            throw ToolFailure("\(error)")
        }
    }

    /// The package the report is about: `--source-root` when it is a local `file://` URI, else the
    /// nearest package up from the current directory (CI runs `bind-trace report` at the package's
    /// root), else up from a trace's directory; nil when none is found.
    private var packageRoot: String? {
        if let sourceRoot, sourceRoot.hasPrefix("file://") {
            return String(sourceRoot.dropFirst("file://".count)).removingPercentEncoding ?? sourceRoot
        }
        let traceDirectories = traces.traces.map { ($0 as NSString).deletingLastPathComponent }
            .map { $0.isEmpty ? "." : $0 }
        return PackageLayout.root(searching: [FileManager.default.currentDirectoryPath] + traceDirectories)
    }

    /// One report for the traces of a whole run: figures summed, one row per trace, the first
    /// processes' graphs as pictures; no timeline or event table (those are per process:
    /// `bind-trace replay`).
    private static func merged(_ reports: [(path: String, report: TraceReport)]) -> ReportContent {
        var content = ReportContent(
            title: "Bind traces: \(reports.count) processes", traceFile: reports.map(\.path).joined(separator: ", "))
        let events = reports.reduce(UInt64(0)) { $0 + $1.report.summary.events }
        let incomplete = reports.filter { !$0.report.isComplete || !$0.report.warnings.isEmpty }.count
        content.summary = [
            .init(label: "traces (processes)", value: NumberText.grouped(reports.count)),
            .init(label: "events", value: NumberText.grouped(events)),
        ]
        if incomplete > 0 { content.summary.append(.init(label: "traces not read whole", value: "\(incomplete)")) }
        content.processGraphs = reports.compactMap { path, report in
            report.content.graphSVG.map { ProcessGraph(trace: GraphCommand.fileName(path), svg: $0) }
        }
        for (path, report) in reports {
            let name = GraphCommand.fileName(path)
            let findings = report.content.findings.count
            content.summary.append(
                .init(
                    label: "\(name): \(NumberText.grouped(report.summary.events)) events",
                    value: findings == 1 ? "1 finding" : "\(findings) findings"))
        }
        return content
    }
}

extension FailOn: ExpressibleByArgument {}
