import Bind

/// Runs an async test body inside `BindTrace.capture`: the capture's scope is a task-local, so
/// the body and every child task it starts are judged together.
enum AsyncCapture {
    static func capture(_ name: String, _ body: @escaping @Sendable () async throws -> Void) async throws
        -> BindTrace.Recording?
    {
        try await BindTrace.capture(name) { try await body() }
    }
}
