import BindTraceModel

/// A failure the tool reports in one line and exit status 2: `bind-trace: app.trace: not a Bind trace`.
struct ToolFailure: Error {
    let message: String

    init(_ message: String) { self.message = message }

    /// A trace that cannot be read, named by the path the user gave.
    init(path: String, _ error: TraceReadError) {
        self.message = "\(path): \(error)"
    }
}
