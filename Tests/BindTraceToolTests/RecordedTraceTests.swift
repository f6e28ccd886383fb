import Bind
import BindTraceTestSupport
import Foundation
import Testing

final class Label: BindableCompatible {
    var text = ""
}

@Suite("bind-trace on traces recorded by the instrumented build", .requiresTracing)
struct RecordedTraceTests {
    @Test("a capture written to a file: the leak and the feedback cycle at their lines")
    func capture() throws {
        let title = Output<String>(value: "Ada")
        var leakLine: UInt = 0
        var loopLine: UInt = 0
        // Not inside `#require(…)`: a macro's argument reads every `#line` (and `bind`'s default
        // `line:`) as the macro's own line, which would make the lines below all equal.
        let captured = BindTrace.capture("tool test") {
            BindTrace.scope("cell") {
                leakLine = #line; _ = title.bind { _ in }
            }
            let name = Output<String>(value: "")
            let field = Output<String>(value: "")
            let bag = SubscriptionContainer()
            loopLine = #line; name.ignoringDuplicates().bind { field.update(withValue: $0) }.add(to: bag)
            field.ignoringDuplicates().bind { name.update(withValue: $0) }.add(to: bag)
            name.update(withValue: "Grace")
            bag.unsubscribe()
        }
        let recording = try #require(captured)
        #expect(leakLine != loopLine, "each line is its own")
        let trace = try TemporaryTrace(recording.bytes)
        defer { trace.cleanUp() }
        let file = "BindTraceToolTests/RecordedTraceTests.swift"

        let run = try Tool.run("check", "--scope", String(recording.scope), trace.path)

        #expect(run.status == 1)
        #expect(run.standardOutput.contains("\(file):\(leakLine): warning: leaked-subscription: "))
        #expect(run.standardOutput.contains("\(file):\(loopLine): error: feedback-cycle: "))
        #expect(run.standardOutput.contains("2 findings"))
    }

    @Test("a --scope the trace never names is an error (exit 2), not a run without findings")
    func unknownScope() throws {
        // Given a recorded trace with a leak in its capture's scope
        let title = Output<String>(value: "Ada")
        let recording = try #require(BindTrace.capture("tool test") { _ = title.bind { _ in } })
        let trace = try TemporaryTrace(recording.bytes)
        defer { trace.cleanUp() }
        let absent = String(recording.scope + 1_000_000)

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "bind-report-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }

        // When check, leaks, summary, graph, report and export are asked about a scope it does not have
        let outputs = [
            "check": [], "leaks": [], "summary": [], "graph": ["-o", "-"], "report": ["-o", directory.path],
            "export": ["-o", directory.path + ".pftrace"],
        ]
        for (command, output) in outputs {
            let run = try Tool.run([command, "--scope", absent, trace.path] + output)
            // Then each says so on one line naming the trace, with the usage status
            #expect(run.status == 2, "\(command)")
            #expect(
                run.standardError == "bind-trace: \(trace.path): no scope \(absent) in this trace "
                    + "(scope ids are those of dump's scopeBegan events)\n", "\(command)")
        }
        // And the scope it has is still judged
        #expect(try Tool.run("check", "--scope", String(recording.scope), trace.path).status == 1)
    }

    @Test("a file recorded by a real instrumented program run with BIND_TRACE")
    func recordedProgram() throws {
        // A separate process: a file recording in this one would mix with other tests' recordings.
        let fixture = try Tool.executable().deletingLastPathComponent().appendingPathComponent("TraceFixture")
        try #require(FileManager.default.isExecutableFile(atPath: fixture.path), "TraceFixture is built")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bind-trace-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("fixture.trace").path
        let process = Process()
        process.executableURL = fixture
        process.arguments = ["200", "exit"]
        // Keep the rest of the environment (a sanitizer's options, for one).
        process.environment = ProcessInfo.processInfo.environment.merging(["BIND_TRACE": path]) { $1 }
        process.standardOutput = Pipe()
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)

        // Without scopes there is nothing to judge; at exit, a closure is still bound to the global 'counter'
        // and its Subscription was dropped. The Output itself, alive at exit, is an app's normal state.
        let check = try Tool.run("check", path)
        #expect(check.status == 0)
        #expect(check.standardError.isEmpty)
        let atExit = try Tool.run("leaks", "--at-exit", path)
        #expect(atExit.status == 1)
        let lines = atExit.standardOutput.split(separator: "\n").map(String.init)
        // The lines as they stand in the fixture's source: the creation of 'counter', and the bind of
        // its default mode (the last `counter.bind { _ in }`).
        let source = try String(contentsOf: fixtureSource, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        let created = try #require(source.firstIndex { $0.hasPrefix("let counter = Output<Int>") }) + 1
        let bound = try #require(source.lastIndex { $0.contains("counter.bind { _ in }") }) + 1
        #expect(
            lines.first?.hasPrefix(
                "TraceFixture/main.swift:\(bound): warning: leaked-subscription: closure bound to 'counter' (Int) is still bound at exit"
            ) == true, "\(lines)")
        #expect(
            lines.contains {
                $0.hasPrefix("    TraceFixture/main.swift:\(created): note: 'counter' (Int) is created here")
            })
        #expect(!lines.contains { $0.contains("leaked-output") })
        let summary = try Tool.run("summary", path)
        #expect(summary.standardOutput.contains("updated        200"))
    }
}
/// Tests/Fixtures/TraceFixture/main.swift, found from this file.
private let fixtureSource = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/TraceFixture/main.swift")
