import BindTraceTestSupport
import Foundation
import Testing

/// `BIND_TRACE` set for a program built without the `Tracing` trait: it cannot record, and says so
/// once on standard error instead of ignoring the variable in silence. The fixture is the plain or
/// the traced build's, as this test build is.
@Suite("BIND_TRACE in a build that cannot record")
struct UntracedEnvironmentTests {
    private static let warning = "BIND_TRACE is set, but this binary was built without Bind's Tracing trait"

    private func runFixture(environment: [String: String]) throws -> (run: ChildProcess.Run, trace: String) {
        let directory = try temporaryDirectory()
        let trace = directory + "/fixture.trace"
        let run = try ChildProcess.run(
            productsDirectory().appendingPathComponent("TraceFixture"), ["3", "exit"],
            environment: ["BIND_TRACE": trace, "BIND_TRACE_QUIET": ""].merging(environment) { $1 })
        return (run, trace)
    }

    @Test(
        "a plain build says once on standard error which variable it ignores, why and how to record; it writes nothing",
        .disabled(if: tracingBuild, "the Tracing build records BIND_TRACE"))
    func plainBuildSaysItIgnoresBindTrace() throws {
        let (run, trace) = try runFixture(environment: [:])
        #expect(run.status == 0, "\(run.standardError)")
        let lines = run.standardError.split(separator: "\n").filter { $0.contains(Self.warning) }
        #expect(lines.count == 1, "one line: \(run.standardError)")
        let line = try #require(lines.first)
        #expect(line.hasPrefix("TraceFixture: warning: "), "names the program: \(line)")
        #expect(line.contains("--traits Tracing") && line.contains("BindTracing"), "says how to enable it: \(line)")
        #expect(line.contains("BIND_TRACE_QUIET=1"), "says how to silence it: \(line)")
        #expect(!FileManager.default.fileExists(atPath: trace), "nothing is written")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: (trace as NSString).deletingLastPathComponent).isEmpty)
    }

    @Test(
        "BIND_TRACE_QUIET=1 silences the plain build's line",
        .disabled(if: tracingBuild, "the Tracing build records BIND_TRACE"))
    func quiet() throws {
        let (run, _) = try runFixture(environment: ["BIND_TRACE_QUIET": "1"])
        #expect(run.status == 0)
        #expect(!run.standardError.contains(Self.warning), "\(run.standardError)")
    }

    @Test("the traced build records BIND_TRACE and prints no such line", .requiresTracing)
    func tracedBuildSaysNothing() throws {
        let (run, trace) = try runFixture(environment: [:])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(!run.standardError.contains(Self.warning), "\(run.standardError)")
        #expect(FileManager.default.fileExists(atPath: trace), "the trace is written")
    }
}
