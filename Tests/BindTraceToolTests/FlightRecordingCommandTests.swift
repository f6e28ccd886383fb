import BindTraceTestSupport
import Foundation
import Testing

/// Every command on a real flight recording (`BIND_TRACE_LIMIT`): the newest segment is judged on
/// its own, says what came before it and where that is, and a finding that involves an Output made
/// before the segment says so at that Output's line instead of guessing its history.
@Suite("bind-trace on a flight recording's segments", .requiresTracing)
struct FlightRecordingCommandTests {
    /// The fixture's `windowed` run under a 4 MB limit: `doubled` (a map of `counter`) is made and
    /// bound before the newest segment, the leaking screen inside it.
    struct Recording {
        let directory: String
        var current: String { directory + "/run.trace" }
        var previous: String { directory + "/run.previous.trace" }

        init() throws {
            directory =
                FileManager.default.temporaryDirectory.appendingPathComponent("flight-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let fixture = try Tool.executable().resolvingSymlinksInPath().deletingLastPathComponent()
                .appendingPathComponent("TraceFixture")
            let run = try ChildProcess.run(
                fixture, ["1000000", "windowed"],
                environment: ["BIND_TRACE": directory + "/run.trace", "BIND_TRACE_LIMIT": "4M"])
            #expect(run.status == 0, "\(run.standardError)")
        }

        func cleanUp() { try? FileManager.default.removeItem(atPath: directory) }
    }

    @Test(
        """
        check: a segment is incomplete (exit 3) and names the segment before it; judged anyway, the leak in \
        the window is found, and the Output made before the window says so
        """)
    func checkASegment() throws {
        let recording = try Recording()
        defer { recording.cleanUp() }
        #expect(FileManager.default.fileExists(atPath: recording.previous), "the trace rotated at least once")

        let strict = try Tool.run("check", recording.current)
        #expect(strict.status == 3)
        #expect(strict.standardError.contains("of a flight recording (BIND_TRACE_LIMIT)"))
        #expect(strict.standardError.contains("are in the segment before it, run.previous.trace beside it"))
        // Read under another name (a copy), the warning gives the naming rule instead of a wrong file.
        let copy = recording.directory + "/copied-segment.bin"
        try FileManager.default.copyItem(atPath: recording.current, toPath: copy)
        let copied = try Tool.run("check", copy)
        #expect(copied.status == 3)
        #expect(copied.standardError.contains("<name>.previous.trace beside the newest segment <name>.trace"))

        let judged = try Tool.run("check", recording.current, "--allow-incomplete", "--format", "json")
        #expect(judged.status == 1, "\(judged.standardError)")
        let findings = try #require(
            (try JSONSerialization.jsonObject(with: Data(judged.standardOutput.utf8)) as? [String: Any])?["findings"]
                as? [[String: Any]])
        #expect(findings.count == 1)
        let finding = try #require(findings.first)
        #expect(finding["kind"] as? String == "leaked-output")
        #expect((finding["message"] as? String)?.contains("'title' (String) is created in scope 'Screen'") == true)
        // The message is that of a whole trace (its fingerprint too); the line of `doubled` says it
        // was made before this segment, and nothing about its earlier life is claimed.
        #expect((finding["message"] as? String)?.contains("before this trace") == false)
        let related = (finding["related"] as? [[String: Any]] ?? []).compactMap { $0["note"] as? String }
        #expect(
            related.contains {
                $0.hasPrefix("'doubled' (Int) is created here")
                    && $0.hasSuffix("(made before this trace begins: what happened to it then is not in the trace)")
            }, "\(related)")
        #expect(!related.contains { $0.contains("'title'") && $0.contains("before this trace begins") })

    }

    @Test("why --finding, report, export, graph and summary work on a segment, as the finding's explain-it line says")
    func everyCommandOnASegment() throws {
        let recording = try Recording()
        defer { recording.cleanUp() }
        let check = try Tool.run("check", recording.current, "--allow-incomplete")
        let explain = try #require(
            check.standardOutput.split(separator: "\n").first { $0.contains("explain it: bind-trace why") })
        let fingerprint = try #require(explain.split(separator: " ").last.map(String.init))

        let why = try Tool.run("why", recording.current, "--finding", fingerprint)
        #expect(why.status == 0, "\(why.standardError)")
        #expect(why.standardOutput.contains("scope 'Screen' ended"))
        #expect(why.standardOutput.contains("root #"))

        let report = try Tool.run(
            "report", recording.current, "-o", recording.directory + "/report", "--allow-incomplete", "--fail-on",
            "none")
        #expect(report.status == 0, "\(report.standardError)")
        let page = try String(contentsOfFile: recording.directory + "/report/index.html", encoding: .utf8)
        #expect(page.contains("made before this trace begins"))

        let export = try Tool.run(
            "export", recording.current, "--format", "perfetto", "-o", recording.directory + "/run.pftrace")
        #expect(export.status == 0, "\(export.standardError)")
        let graph = try Tool.run("graph", recording.current, "-o", recording.directory + "/graph.svg")
        #expect(graph.status == 0, "\(graph.standardError)")
        let summary = try Tool.run("summary", recording.current)
        #expect(summary.status == 0, "\(summary.standardError)")
        #expect(summary.standardOutput.contains("1 leaked-output") || summary.standardOutput.contains("leaked-output"))
    }
}
