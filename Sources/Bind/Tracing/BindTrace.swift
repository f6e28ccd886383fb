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
        bt_is_recording()
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
            bt_previews_enabled()
            #else
            false
            #endif
        }
        set {
            #if Tracing
            bt_set_previews(newValue)
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
        guard bt_is_recording() else { return try body() }
        let id = bt_new_scope_id()
        TraceRecorder.scopeBegan(id: id, parent: currentScope, name: name, file: file, line: line)
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
        #if Tracing
        guard bt_is_recording() else { return try await body() }
        let id = bt_new_scope_id()
        TraceRecorder.scopeBegan(id: id, parent: currentScope, name: name, file: file, line: line)
        defer { TraceRecorder.scopeEnded(id: id) }
        return try await $currentScope.withValue(id) { try await body() }
        #else
        return try await body()
        #endif
    }

    /// Records a named moment, shown in replays and timelines.
    public static func mark(_ name: String) {
        #if Tracing
        if bt_is_recording() { TraceRecorder.mark(name) }
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
        #if Tracing
        let session = TraceRecorder.beginCapture()
        var scopeID: UInt64 = 0
        do {
            try await scope(name, file: file, line: line) {
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
    @discardableResult
    public static func withScope<T>(_ token: ScopeToken, _ body: () throws -> T) rethrows -> T {
        #if Tracing
        try $currentScope.withValue(token.id) { try body() }
        #else
        try body()
        #endif
    }

    /// `body`, wrapped to run in the caller's current scope wherever and whenever it is called.
    ///
    /// - Complexity: O(1); the wrapper costs one task-local write per call.
    public static func inheritingScope(_ body: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        let token = currentScopeToken
        return { withScope(token, body) }
    }

    /// A trace recorded in memory by ``BindTrace/capture(_:file:line:_:)``.
    public struct Recording: Sendable {
        /// The trace, in the same format as a trace file.
        public let bytes: [UInt8]
        /// The id of the scope that wrapped the captured body.
        public let scope: UInt64
    }
}

/// Why recording could not start.
public struct TraceRecordingError: Error, CustomStringConvertible {
    public let path: String
    public let reason: String
    public var description: String { "\(path): cannot record a trace: \(reason)" }
}
