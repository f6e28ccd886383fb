import ArgumentParser
import BindExport
import BindText

extension TimelineFormat: ExpressibleByArgument {}

/// `bind-trace export TRACE --format perfetto -o app.pftrace`: the trace as a timeline for Perfetto.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a trace as a timeline for Perfetto (ui.perfetto.dev, trace_processor) or as Chrome JSON.",
        discussion: """
            One track per thread and per scope; each update or fire a slice with the closures it ran and \
            the updates they caused nested inside; binds, unbinds and releases as instants; findings on \
            a "findings" track; a binding delivering on another thread, or a scope carried to one, as an \
            arrow. Streams: memory stays flat however long the trace. Exit status: 0 written, 2 bad \
            usage, an unreadable trace or an unwritable file (nothing is left at the path).
            """)

    @OptionGroup var traces: TraceOptions

    @Option(help: "perfetto (protobuf, for traces of any size) or chrome-json (trace-event JSON).")
    var format: TimelineFormat = .perfetto

    @Option(
        name: [.short, .customLong("output")],
        help: ArgumentHelp("Where to write the file; - for standard output.", valueName: "path"))
    var output: String

    @OptionGroup var judging: JudgingOptions

    /// Past this size a JSON trace strains the Perfetto UI (it holds the whole trace in the browser).
    static let jsonWarningBytes = 100_000_000

    func run() throws {
        let file = try traces.single("export")
        let progress = ProgressLine(path: file, mode: traces.progress)
        let summary: TimelineExport.Summary
        do {
            defer { progress.finish() }
            let path = output == "-" ? "/dev/stdout" : output
            summary = try TimelineExport.write(trace: file, format: format, to: path, options: judging.options()) {
                progress.update(bytesRead: $0, events: $1)
            }
        } catch .focusScopeNotNamed(let path, let scope) {
            try TraceRun.requireFocusScope(scope, paths: [path], named: false)
            return
        } catch {
            throw ToolFailure(error.description)
        }
        for warning in summary.warnings { StandardError.write("bind-trace: \(file): warning: \(warning)") }
        // As every command reports them: at most 20 lines, then how many more.
        for error in summary.traceErrors.prefix(20) {
            StandardError.write("bind-trace: \(file): inconsistent trace: \(error)")
        }
        let more = summary.traceErrorCount - min(summary.traceErrors.count, 20)
        if more > 0 { StandardError.write("bind-trace: \(file): \(more) more inconsistencies not shown") }
        if format == .chromeJSON && summary.bytes > Self.jsonWarningBytes {
            StandardError.write(
                "bind-trace: \(output): warning: \(summary.bytes / 1_000_000) MB of JSON; the Perfetto UI loads "
                    + "JSON whole and slowly: --format perfetto writes a smaller file it reads exactly")
        }
    }
}
