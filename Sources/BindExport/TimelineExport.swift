@_spi(Harness) import BindAnalysis
import BindText
@_spi(Harness) import BindTraceModel

/// The file formats a trace can be exported to.
package enum TimelineFormat: String, CaseIterable, Sendable {
    /// Perfetto's protobuf trace (`TrackEvent`s): exact nesting and flows, any size.
    case perfetto
    /// Chrome trace-event JSON: for tools that read only JSON; large traces are better as `perfetto`.
    case chromeJSON = "chrome-json"
}

/// Writes a trace as a timeline another engine opens (Perfetto UI, `trace_processor`, Chrome's
/// `about:tracing`): threads and scopes as tracks, propagations as nested slices, binds, unbinds and
/// releases as instants, findings on their own track, hand-offs between threads as flows.
///
/// ```swift
/// let summary = try TimelineExport.write(trace: "app.trace", format: .perfetto, to: "app.pftrace")
/// print(summary.bytes, "bytes")
/// ```
package enum TimelineExport {
    /// What an export wrote.
    package struct Summary: Sendable {
        package var events: UInt64 = 0
        package var findings = 0
        package var bytes = 0
        /// Why the trace was not read whole (cut short, lost events); the export holds what was read.
        package var warnings: [TraceWarning] = []
        /// The first inconsistencies the replay found (each also a reason to doubt the nesting drawn
        /// around it), at most ``AnalysisOptions/maximumTraceErrors``.
        package var traceErrors: [TraceError] = []
        /// Every inconsistency found, including those not kept in ``traceErrors``.
        package var traceErrorCount = 0
    }

    /// Reads `trace` twice, streaming: once to judge it (the findings `check` reports), once to draw it.
    ///
    /// - Parameters:
    ///   - progress: called now and then with the bytes and events read so far.
    /// - Throws: ``TimelineWriteError``; on error nothing is left at `output`.
    /// - Complexity: memory proportional to what is alive at once in the trace, as `check`'s.
    package static func write(
        trace path: String, format: TimelineFormat, to output: String, options: AnalysisOptions = AnalysisOptions(),
        progress: (_ bytesRead: Int, _ events: UInt64) -> Void = { _, _ in }
    ) throws(TimelineWriteError) -> Summary {
        let judged: AnalysisResult
        do {
            judged = try TraceAnalyzer.analyze(reader: TraceReader(path: path), options: options)
        } catch {
            throw .unreadableTrace(path: path, error)
        }
        if let scope = options.focusScope, !judged.sawFocusScope { throw .focusScopeNotNamed(path: path, scope: scope) }
        let findings = judged.findings
        let reader: TraceReader
        let stream: AtomicFileStream
        do {
            reader = try TraceReader(path: path)
        } catch {
            throw .unreadableTrace(path: path, error)
        }
        do {
            stream = try AtomicFileStream(path: output)
        } catch {
            throw .unwritableOutput(error)
        }
        let sink: any TimelineSink =
            switch format {
            case .perfetto: PerfettoTraceWriter(output: stream)
            case .chromeJSON: try ChromeJSONWriter(output: stream)
            }
        let replay = Replay(options: options, reading: reader)
        let builder = try TimelineBuilder(
            replay: replay, sink: sink, findings: findings, processName: fileName(path),
            threadName: { reader.threadNames[$0] })
        var summary = Summary()
        while true {
            let event: TraceEvent?
            do {
                event = try reader.next()
            } catch {
                throw .unreadableTrace(path: path, error)
            }
            guard let event else { break }
            try builder.add(event)
            summary.events += 1
            if summary.events & 0xFFFF == 0 { progress(reader.bytesRead, summary.events) }
        }
        try builder.finish()
        summary.findings = findings.count
        summary.bytes = stream.byteCount
        summary.warnings = reader.warnings
        summary.traceErrors = replay.errors
        summary.traceErrorCount = replay.errorCount
        return summary
    }

    private static func fileName(_ path: String) -> String {
        Narrator.shortened(path.split(separator: "/").last.map(String.init) ?? path)
    }
}
