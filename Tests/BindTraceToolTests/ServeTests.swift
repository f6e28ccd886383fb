import BindTraceTestSupport
import Foundation
import Testing

#if Serve
/// `bind-trace serve --follow` in a real browser: Scripts/live-session.py appends a trace to its file in
/// steps, as a recording app would, and reads what Chromium shows after each.
@Suite("bind-trace serve", .enabled(if: LiveSession.browserWorks, "needs chromium and Playwright (make setup)"))
struct ServeTests {
    @Test(
        """
        a page follows a trace written in steps: each new Output, the finding when its scope ends, a late page \
        gets the state, pause holds the view, a crashed writer is shown as ended, a hostile label stays text, \
        and requests without the token or from another origin are refused
        """)
    func followsATraceWrittenInSteps() throws {
        // Given a trace cut into the steps an app would flush, written by a process that is gone by the end.
        let steps = try LiveSession.steps()
        defer { steps.cleanUp() }

        // When the script appends them one by one to the file `serve --follow` follows.
        let result = try LiveSession.run(["--scenario", steps.directory])

        // Then every request without the token, or from another site, was refused, with no CORS header.
        #expect(result["noToken"] as? Int == 403)
        #expect(result["wrongToken"] as? Int == 403)
        #expect(result["otherOrigin"] as? Int == 403)
        #expect(result["otherHost"] as? Int == 403)
        #expect(result["pageStatus"] as? Int == 200)
        #expect(result["corsHeaders"] as? [String] == [])
        #expect((result["policy"] as? String)?.contains("default-src 'none'") == true)
        // Each step's new Outputs appear, and the leak appears once its scope ended.
        let seen = try #require(result["steps"] as? [[String: Any]])
        #expect(seen.map { $0["outputs"] as? [Int] ?? [] } == [[1], [1, 2, 3], [1, 2, 3], [1, 2, 3, 4]])
        #expect(seen.map { $0["findings"] as? Int ?? -1 } == [0, 0, 1, 1])
        #expect((seen[2]["findingKinds"] as? [String]) == ["leaked-output"])
        // A page opened late shows the state at once.
        #expect(result["lateOutputs"] as? [Int] == [1, 2, 3])
        #expect(result["lateFindings"] as? Int == 1)
        // Paused, the view held while the stream went on; resumed, it caught up.
        #expect(result["pausedSequence"] as? Int == result["sequenceBeforePause"] as? Int)
        #expect(result["resumedOutputs"] as? [Int] == [1, 2, 3, 4])
        // The writer is gone without an end record: the page says the trace ended.
        #expect(result["finalStatus"] as? String == "ended")
        #expect((result["finalStatusText"] as? String)?.contains("crashed or was killed") == true)
        // The hostile label is text: no element, no script, no dialog.
        #expect(result["hostileShownAsText"] as? Bool == true)
        #expect(result["injectedElements"] as? Int == 0)
        #expect(result["dialogs"] as? [String] == [])
        #expect(result["policyViolations"] as? [String] == [])
    }

    @Test("following a long trace, the server's memory stays flat")
    func memoryStaysFlat() throws {
        // Given a long trace of screens opened and closed (Outputs made, bound, updated, released).
        let steps = try LiveSession.longTrace(blocks: 40, screensPerBlock: 500)
        defer { steps.cleanUp() }

        // When `serve --follow` reads it as it grows, block by block.
        let result = try LiveSession.run(["--memory", steps.directory])

        // Then its resident memory after the last block is within a few MB of what it was a quarter in.
        let samples = try #require(result["rssKiB"] as? [Int])
        let quarter = samples[samples.count / 4]
        let last = try #require(samples.last)
        #expect(result["events"] as? Int == 40 * 500 * 14)
        #expect(last - quarter < 8 * 1024, "RSS (KiB) per block: \(samples)")
    }

    /// The figures of BENCHMARKS.md ("`bind-trace serve`"), measured by hand: `BIND_SERVE_BENCH=1 swift test
    /// --filter ServeTests.figures`.
    @Test(
        "event-to-page latency (p50, p99) and memory over a long follow",
        .enabled(if: ProcessInfo.processInfo.environment["BIND_SERVE_BENCH"] == "1"))
    func figures() throws {
        let small = try LiveSession.longTrace(blocks: 200, screensPerBlock: 1)
        defer { small.cleanUp() }
        let latency = try LiveSession.run(["--latency", small.directory])
        print("serve latency (ms): \(latency)")
        // 50 blocks of 20,000 screens (14 M events) by default; BIND_SERVE_BENCH_SCREENS sets the block size.
        let screens = ProcessInfo.processInfo.environment["BIND_SERVE_BENCH_SCREENS"].flatMap(Int.init) ?? 20_000
        let long = try LiveSession.longTrace(blocks: 50, screensPerBlock: screens)
        defer { long.cleanUp() }
        let started = Date()
        let memory = try LiveSession.run(["--memory", long.directory])
        print("serve memory: \(memory), \(Date().timeIntervalSince(started)) s")
    }
}
#else
@Suite("bind-trace serve without the trait Serve")
struct ServeWithoutTraitTests {
    @Test("a bind-trace built without the trait Serve says how to build it, in one line")
    func saysHowToBuildIt() throws {
        let run = try Tool.run("serve", "app.trace")
        #expect(run.status == 2)
        #expect(run.standardError.contains("built without the package trait Serve"))
        #expect(run.standardError.split(separator: "\n").count == 1)
    }
}
#endif

/// The trace steps and the browser script of ``ServeTests``.
enum LiveSession {
    /// A directory of step files (`step-0.bin`, …) and `steps.json` (each step's last event number).
    struct Steps {
        let directory: String
        func cleanUp() { try? FileManager.default.removeItem(atPath: directory) }
    }

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Scripts/live-session.py").path

    static let browserWorks: Bool = {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium") else { return false }
        let probe = try? ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", script, "--probe", "/usr/bin/chromium"])
        return probe?.status == 0
    }()

    /// Runs the script against the real `bind-trace`; its last line of output is a JSON object.
    static func run(_ arguments: [String]) throws -> [String: Any] {
        let run = try ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", script, "--tool", Tool.executable().path] + arguments)
        #expect(run.status == 0, "live-session.py: \(run.standardError)")
        let line = run.standardOutput.split(separator: "\n").last.map(String.init) ?? "{}"
        return try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    /// Four steps of a sign-in screen, never ended (no end record). The script writes the header, then
    /// the `writer` record naming a process of its own (killed at the end: the crash), then the steps.
    static func steps() throws -> Steps {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var trace = TraceFileWriter(minor: 4)
        try Data(trace.bytes[..<16]).write(to: directory.appendingPathComponent("header.bin"))
        var cuts: [(bytes: Int, sequence: UInt64)] = []
        // 1: the model's Output.
        trace.output(1, type: "String", file: "App/Model.swift", line: 4, label: "email")
        trace.beginScope(1, name: "SignInScreen", file: "App/Screen.swift", line: 10)
        cuts.append((trace.bytes.count, trace.eventCount))
        // 2: the screen derives two Outputs (one with a hostile label) and binds to the model in its scope.
        trace.output(2, kind: .map, type: "Bool", file: "App/Screen.swift", line: 12, label: "isValid", scope: 1)
        trace.edge(1, 2)
        trace.output(3, type: "String", file: "App/Screen.swift", line: 13, label: "<img src=x onerror=alert(1)>")
        trace.bind(1, to: 1, file: "App/Screen.swift", line: 20, scope: 1)
        trace.update(1)
        cuts.append((trace.bytes.count, trace.eventCount))
        // 3: the screen closes, its `isValid` still alive: a leaked Output, judged when the scope ends.
        trace.endScope(1)
        cuts.append((trace.bytes.count, trace.eventCount))
        // 4: the app goes on (the page is paused meanwhile), then dies.
        trace.output(4, type: "Int", file: "App/Model.swift", line: 30, label: "count")
        trace.update(4)
        cuts.append((trace.bytes.count, trace.eventCount))
        var start = 16
        var manifest: [[String: Any]] = []
        for (index, cut) in cuts.enumerated() {
            let name = "step-\(index).bin"
            try Data(trace.bytes[start..<cut.bytes]).write(to: directory.appendingPathComponent(name))
            manifest.append(["file": name, "sequence": cut.sequence])
            start = cut.bytes
        }
        try JSONSerialization.data(withJSONObject: manifest).write(to: directory.appendingPathComponent("steps.json"))
        return Steps(directory: directory.path)
    }

    /// `blocks` step files of `screensPerBlock` screens each: an Output made, bound in a scope, updated ten
    /// times, unbound and released (14 events a screen): the live graph stays small however long the trace.
    static func longTrace(blocks: Int, screensPerBlock: Int) throws -> Steps {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var trace = TraceFileWriter(minor: 4)
        var start = 0
        var manifest: [[String: Any]] = []
        var id: UInt64 = 0
        for block in 0..<blocks {
            for _ in 0..<screensPerBlock {
                id += 1
                trace.output(id, type: "String", file: "App/Feed.swift", line: 7, label: "title")
                trace.bind(id, to: id, file: "App/Feed.swift", line: 9)
                for _ in 0..<10 { trace.update(id) }
                trace.unbind(id)
                trace.release(id)
            }
            let name = "step-\(block).bin"
            try Data(trace.bytes[start...]).write(to: directory.appendingPathComponent(name))
            manifest.append(["file": name, "sequence": trace.eventCount])
            start = trace.bytes.count
        }
        try JSONSerialization.data(withJSONObject: manifest).write(to: directory.appendingPathComponent("steps.json"))
        return Steps(directory: directory.path)
    }
}
