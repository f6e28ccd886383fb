import BindTraceModel
import BindTraceTestSupport

enum TraceWriterHelper {
    /// An Output labelled `label`, bound, and updated once: a trace not yet ended.
    static func oneUpdate(label: String) -> TraceWriter {
        var trace = TraceWriter(minor: 0)
        trace.thread(1, name: "main")
        trace.event(ExportTraces.created(1, label: label, line: 1))
        trace.event(ExportTraces.bound(1, to: 1, line: 2))
        trace.event(ExportTraces.update(1))
        return trace
    }
}
