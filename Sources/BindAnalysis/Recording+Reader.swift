// TEMPORARY shim (added by the trace helper): `BindTraceModel` no longer depends on `Bind`, so its
// `BindTrace.Recording.reader()` extension is gone. Replace the one use in
// TraceAnalyzer+Recording.swift with `TraceReader(bytes: recording.bytes)` and delete this file.
import Bind
import BindTraceModel

extension BindTrace.Recording {
    func reader() throws(TraceReadError) -> TraceReader { try TraceReader(bytes: bytes) }
}
