import Bind
import Testing

/// Runs an async test body inside `BindTrace.capture`: the capture's scope is a task-local, so
/// the body and every child task it starts are judged together. The scope begins at the test's
/// own line (`location`), so "scope begins here" points at the user's test, not at BindTesting.
enum AsyncCapture {
    static func capture(
        _ name: String, at location: SourceLocation, _ body: @escaping @Sendable () async throws -> Void
    ) async throws -> BindTrace.Recording? {
        try await BindTrace.capture(name, fileID: location.fileID, line: location.line) { try await body() }
    }
}
