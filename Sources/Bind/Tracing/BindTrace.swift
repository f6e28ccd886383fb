#if Tracing
import CBindTrace
#endif

/// Controls the trace recorded by the instrumented build (package trait `Tracing`).
///
/// Every member exists in both builds; without the trait they do nothing and ``isEnabled`` is
/// `false`. Recording to a file needs no code at all: run the program with `BIND_TRACE=/path`.
///
/// ```swift
/// BindTrace.scope("sign-in screen") {
///     let screen = SignInScreen(viewModel: viewModel)
///     screen.show()
/// }   // what the scope bound or created and is still bound or alive here is judged as a leak
/// ```
public enum BindTrace {
    /// Whether this build records traces (it was built with the `Tracing` trait).
    public static var isEnabled: Bool {
        #if Tracing
        true
        #else
        false
        #endif
    }

    /// Whether a trace is being recorded right now.
    public static var isRecording: Bool {
        #if Tracing
        bind_trace_is_recording()
        #else
        false
        #endif
    }

    /// Whether updates record a short `String(describing:)` of their value (at most 120 bytes).
    ///
    /// Off by default; `BIND_TRACE_VALUES=1` turns it on from the start. Values may hold private
    /// data: they end up in the trace file.
    public static var recordsValuePreviews: Bool {
        get {
            #if Tracing
            bind_trace_previews_enabled()
            #else
            false
            #endif
        }
        set {
            #if Tracing
            bind_trace_set_previews(newValue)
            #endif
        }
    }

    /// Runs `body` as a named region of the trace.
    ///
    /// Whatever is bound or created inside it and is still bound or alive when it ends is what
    /// leak detection judges. Scopes nest, and follow the task that runs them.
    @discardableResult
    public static func scope<T>(
        _ name: String, file: StaticString = #fileID, line: UInt = #line, _ body: () throws -> T
    ) rethrows -> T {
        #if Tracing
        guard bind_trace_is_recording() else { return try body() }
        let id = bind_trace_new_scope_id()
        TraceRecorder.scopeBegan(id: id, parent: currentScope, name: name, file: .literal(file), line: line)
        defer { TraceRecorder.scopeEnded(id: id) }
        return try $currentScope.withValue(id) { try body() }
        #else
        return try body()
        #endif
    }

    /// Runs the asynchronous `body` as a named region of the trace; see ``scope(_:file:line:_:)``.
    ///
    /// The scope follows the task, and child tasks inherit it.
    @discardableResult
    public static func scope<T>(
        _ name: String, file: StaticString = #fileID, line: UInt = #line,
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T
    ) async rethrows -> T {
        try await scope(name, site: .literal(file), line: line, isolation: isolation, body)
    }

    /// The asynchronous scope, begun at a site given as a literal or as text.
    private static func scope<T>(
        _ name: String, site: ScopeFile, line: UInt, isolation: isolated (any Actor)?, _ body: () async throws -> T
    ) async rethrows -> T {
        #if Tracing
        guard bind_trace_is_recording() else { return try await body() }
        let id = bind_trace_new_scope_id()
        TraceRecorder.scopeBegan(id: id, parent: currentScope, name: name, file: site, line: line)
        defer { TraceRecorder.scopeEnded(id: id) }
        return try await $currentScope.withValue(id) { try await body() }
        #else
        return try await body()
        #endif
    }

    /// Records a named moment, shown in replays and timelines.
    public static func mark(_ name: String) {
        #if Tracing
        if bind_trace_is_recording() { TraceRecorder.mark(name) }
        #endif
    }

    /// Starts recording to the file `path` names, replacing it. Stops any file recording in progress
    /// once the new file is open.
    ///
    /// `path` is a pattern, as `BIND_TRACE` is: `%p` is the process id, `%h` the host name, and a
    /// directory (existing, or ending in `/`) means `<executable>-<pid>.trace` inside it. A file that
    /// another live process is writing is left alone: the trace goes to `<name>.<pid>.trace` beside
    /// it, and standard error says so.
    ///
    /// - Throws: ``TraceRecordingError`` when the file cannot be created.
    public static func startRecording(toFile path: String) throws {
        #if Tracing
        try TraceRecorder.startFile(path: path)
        #endif
    }

    /// Stops recording and flushes everything recorded to its file.
    public static func stopRecording() {
        #if Tracing
        TraceRecorder.stop()
        #endif
    }

    /// Runs `body` while recording to memory and returns what was recorded.
    ///
    /// The events of `body` are wrapped in a scope named `name`. Other threads keep recording into
    /// the same capture while it runs; `Recording.scope` tells which events were `body`'s own.
    /// Returns `nil` in a build without the `Tracing` trait.
    public static func capture(
        _ name: String = "capture", file: StaticString = #fileID, line: UInt = #line, _ body: () throws -> Void
    ) rethrows -> Recording? {
        #if Tracing
        let session = TraceRecorder.beginCapture()
        var scopeID: UInt64 = 0
        do {
            try scope(name, file: file, line: line) {
                scopeID = currentScope
                try body()
            }
        } catch {
            _ = TraceRecorder.endCapture(session)
            throw error
        }
        return Recording(bytes: TraceRecorder.endCapture(session), scope: scopeID)
        #else
        try body()
        return nil
        #endif
    }

    /// Runs the asynchronous `body` while recording to memory; see ``capture(_:file:line:_:)``.
    public static func capture(
        _ name: String = "capture", file: StaticString = #fileID, line: UInt = #line,
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Void
    ) async rethrows -> Recording? {
        try await capture(name, site: .literal(file), line: line, isolation: isolation, body)
    }

    /// ``capture(_:file:line:isolation:_:)`` begun at a `#fileID` given as text: a test framework's
    /// source location, so that "scope begins here" names the user's test, not the framework.
    package static func capture(
        _ name: String, fileID: String, line: Int, isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> Void
    ) async rethrows -> Recording? {
        try await capture(name, site: .text(fileID), line: UInt(clamping: max(line, 0)), isolation: isolation, body)
    }

    private static func capture(
        _ name: String, site: ScopeFile, line: UInt, isolation: isolated (any Actor)?, _ body: () async throws -> Void
    ) async rethrows -> Recording? {
        #if Tracing
        let session = TraceRecorder.beginCapture()
        var scopeID: UInt64 = 0
        do {
            try await scope(name, site: site, line: line, isolation: isolation) {
                scopeID = currentScope
                try await body()
            }
        } catch {
            _ = TraceRecorder.endCapture(session)
            throw error
        }
        return Recording(bytes: TraceRecorder.endCapture(session), scope: scopeID)
        #else
        try await body()
        return nil
        #endif
    }

    /// The innermost scope of the running task (0 for none).
    @TaskLocal static var currentScope: UInt64 = 0

    // MARK: - Carrying a scope to other threads

    /// A trace scope, carried by value to work that runs on another thread.
    ///
    /// Scopes follow tasks by themselves; a closure given to `DispatchQueue.async`, a `Thread` or a
    /// callback API runs outside them unless it carries the scope along:
    ///
    /// ```swift
    /// BindTrace.scope("profile screen") {
    ///     DispatchQueue.global().async(execute: BindTrace.inheritingScope {
    ///         viewModel.load()   // judged as part of "profile screen"
    ///     })
    /// }
    /// ```
    public struct ScopeToken: Sendable, Hashable {
        let id: UInt64
    }

    /// The scope the caller runs in (``ScopeToken`` of no scope outside any, and in a build without
    /// the `Tracing` trait).
    public static var currentScopeToken: ScopeToken {
        #if Tracing
        ScopeToken(id: currentScope)
        #else
        ScopeToken(id: 0)
        #endif
    }

    /// Runs `body` in the scope of `token`, as if it ran where the token was taken.
    ///
    /// The one line for work no wrapper fits — an `Operation` subclass takes the token when it is
    /// made and runs `main()` in it:
    ///
    /// ```swift
    /// final class Upload: Operation, @unchecked Sendable {
    ///     private let scope = BindTrace.currentScopeToken     // taken where the operation is made
    ///     override func main() { BindTrace.withScope(scope) { … } }
    /// }
    /// ```
    @discardableResult
    public static func withScope<T>(_ token: ScopeToken, _ body: () throws -> T) rethrows -> T {
        #if Tracing
        try $currentScope.withValue(token.id) { try body() }
        #else
        try body()
        #endif
    }

    /// Runs the asynchronous `body` in the scope of `token`: for a `Task.detached`, which inherits
    /// no task-local value.
    ///
    /// ```swift
    /// let scope = BindTrace.currentScopeToken
    /// Task.detached { await BindTrace.withScope(scope) { await viewModel.refresh() } }
    /// ```
    @discardableResult
    public static func withScope<T>(
        _ token: ScopeToken, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T
    ) async rethrows -> T {
        #if Tracing
        try await $currentScope.withValue(token.id) { try await body() }
        #else
        try await body()
        #endif
    }

    /// `body`, wrapped to run in the caller's current scope wherever and whenever it is called:
    /// `queue.addOperation(…)`, `Thread(block: …)`, `Thread.detachNewThread(…)`, `RunLoop.perform(…)`,
    /// `DispatchQueue.async(execute: …)`.
    ///
    /// - Complexity: O(1); the wrapper costs one task-local write per call.
    public static func inheritingScope(_ body: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        let token = currentScopeToken
        return { withScope(token, body) }
    }

    /// `body`, wrapped to run in the caller's current scope: for callbacks that take an argument,
    /// such as a `Timer`'s block.
    ///
    /// ```swift
    /// Timer.scheduledTimer(withTimeInterval: 1, repeats: true, block: BindTrace.inheritingScope { _ in tick() })
    /// ```
    public static func inheritingScope<Argument>(
        _ body: @escaping @Sendable (Argument) -> Void
    ) -> @Sendable (Argument) -> Void {
        let token = currentScopeToken
        return { argument in withScope(token) { body(argument) } }
    }

    /// Where a scope begins: a `#fileID` literal, or a test framework's, handed over as text.
    enum ScopeFile {
        case literal(StaticString)
        case text(String)
    }

    /// A trace recorded in memory by ``BindTrace/capture(_:file:line:_:)``.
    public struct Recording: Sendable {
        /// The trace, in the same format as a trace file.
        public let bytes: [UInt8]
        /// The id of the scope that wrapped the captured body.
        public let scope: UInt64
    }
}

/// Why recording could not start, thrown by ``BindTrace/startRecording(toFile:)``.
public struct TraceRecordingError: Error, CustomStringConvertible {
    /// The trace file that could not be written.
    public let path: String
    /// What went wrong, in words: the system's error message, or "another process is writing it".
    public let reason: String
    /// One line naming the file and the reason: `app.trace: cannot record a trace: …`.
    public var description: String { "\(path): cannot record a trace: \(reason)" }
}
