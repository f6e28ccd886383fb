import Foundation
import Testing

/// `bind-trace` reads traces; it must never link the runtime `Bind`, whose Tracing build carries the recorder
/// and a load-time constructor that starts recording when `BIND_TRACE` is set.
@Suite("bind-trace links no runtime")
struct NoRecorderTests {
    /// The symbols `nm` lists for the built `bind-trace`.
    static func symbols() throws -> [Substring] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["nm", try Tool.executable().path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "nm can read the bind-trace binary")
        return String(decoding: data, as: UTF8.self).split(separator: "\n")
    }

    @Test("bind-trace holds no recorder, no BIND_TRACE constructor and nothing else of the runtime Bind")
    func noRuntimeSymbols() throws {
        let symbols = try Self.symbols()
        // The reader side is there, so an empty or stripped symbol table cannot pass this test.
        #expect(symbols.contains { $0.contains("$s14BindTraceModel") }, "bind-trace links the trace reader")
        #expect(symbols.contains { $0.contains("$s15BindTraceFormat") }, "bind-trace links the trace format")

        let recorder = symbols.filter {
            $0.contains("bind_trace_autostart_path") || $0.contains("bind_trace_read_environment")
        }
        #expect(recorder.isEmpty, "the BIND_TRACE load-time constructor of CBindTrace: \(recorder.prefix(5))")
        // Swift symbols of module `Bind` start with `$s4Bind` (`_$s4Bind` on Darwin).
        let runtime = symbols.filter { $0.contains("$s4Bind") || $0.contains("TraceRecorder") }
        #expect(runtime.isEmpty, "symbols of the runtime Bind: \(runtime.prefix(5))")
    }

    @Test("bind-trace run with BIND_TRACE set writes no trace of itself")
    func recordsNothing() throws {
        let trace = try TemporaryTrace(leakyTrace())
        let directory = try TemporaryDirectory()
        defer { trace.cleanUp(); directory.cleanUp() }
        let process = Process()
        process.executableURL = try Tool.executable()
        process.arguments = ["check", trace.path]
        process.environment = ProcessInfo.processInfo.environment.merging([
            "BIND_TRACE": directory.file("self.trace")
        ]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()

        #expect(process.terminationStatus == 1, "bind-trace read the trace and found its leak")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }
}
