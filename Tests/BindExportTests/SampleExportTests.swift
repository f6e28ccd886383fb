import BindTraceModel
import BindTraceTestSupport
import Foundation
import Testing

/// The sign-in sample (`make demo`'s app), built with the Tracing trait next to this test bundle.
private let sample: URL? = {
    let bundle = Bundle.main.bundleURL
    let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    for start in [bundle, runner] {
        var directory = start
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("SignInSample")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
    }
    return nil
}()

@Suite(
    "bind-trace export of the sign-in sample's recorded trace",
    .enabled(if: sample != nil, "SignInSample is built next to the tests"), .requiresTracing)
struct SampleExportTests {
    /// Runs the sample with BIND_TRACE (values recorded) and returns the trace's bytes.
    private func recordSample() throws -> [UInt8] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "bind-sample-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("signin.trace").path
        let executable: URL = try #require(sample)
        let process = Process()
        process.executableURL = executable
        process.environment = ProcessInfo.processInfo.environment.merging(
            ["BIND_TRACE": path, "BIND_TRACE_VALUES": "1"]) { $1 }
        process.standardOutput = Pipe()
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    @Test("the demo's timeline: balanced, nested as replay nests it, the same in both formats, findings at their lines")
    func demo() throws {
        let exported = try Exported(try recordSample())
        defer { exported.cleanUp() }
        let depths = try exported.replayDepths()

        let slices = exported.perfetto.slices()
        let deliveries = slices.filter { ["update", "fire", "bind"].contains($0.event.category) }

        #expect(deliveries.count == depths.count)
        for slice in deliveries {
            let sequence = try #require(slice.event.arguments["event"].flatMap { UInt64($0) })
            #expect(slice.depth == 2 * (depths[sequence] ?? -1), "\(slice.event.name)")
        }
        #expect(exported.json.slices().map(\.event.name) == slices.map(\.event.name))
        #expect(exported.json.slices().map(\.depth) == slices.map(\.depth))
        let findingsTrack = try #require(exported.perfetto.track(named: "findings"))
        let findings = slices.filter { $0.event.track == findingsTrack }
        #expect(findings.count == exported.summary.findings)
        let cycle = try #require(findings.first { $0.event.name == "feedback-cycle" })
        #expect(cycle.event.arguments["site"] == "SignInSample/SignInScreen.swift:19")
        // The feedback loop is drawn as it ran: 'email' updated again deep inside its own update.
        let emails = slices.filter { $0.event.name.hasPrefix("update 'email' (String)") }
        #expect(emails.contains { inner in inner.ancestors.contains { $0.hasPrefix("update 'email' (String)") } })
        #expect(slices.contains { $0.event.category == "update" && $0.event.arguments["value"] != nil })
        #expect(exported.perfetto.tracks.values.filter { $0.kind == "thread" }.count >= 1)
        #expect(exported.perfetto.tracks.values.contains { $0.name.hasPrefix("scope 'cell 1 for row 0'") })
    }
}
