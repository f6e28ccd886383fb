import Bind
import BindTraceModel

extension BindTrace.Recording {
    /// Decodes every event of the recording.
    package func events() throws(TraceReadError) -> [TraceEvent] {
        try TraceReader(bytes: bytes).readAll()
    }

    /// A reader over the recording.
    package func reader() throws(TraceReadError) -> TraceReader {
        try TraceReader(bytes: bytes)
    }
}
