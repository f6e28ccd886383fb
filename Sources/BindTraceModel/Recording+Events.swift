import Bind

extension BindTrace.Recording {
    /// Decodes every event of the recording.
    public func events() throws(TraceReadError) -> [TraceEvent] {
        try TraceReader(bytes: bytes).readAll()
    }

    /// A reader over the recording.
    public func reader() throws(TraceReadError) -> TraceReader {
        try TraceReader(bytes: bytes)
    }
}
