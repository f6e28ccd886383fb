import BindTraceTestSupport
import Foundation
import Testing

/// A run's directory of traces, one per process, removed by `cleanUp()`.
private struct RunDirectory {
    let directory: TemporaryDirectory

    init(_ traces: [String: [UInt8]]) throws {
        directory = try TemporaryDirectory()
        for (name, bytes) in traces {
            try Data(bytes).write(to: URL(fileURLWithPath: directory.file(name)))
        }
    }

    var path: String { directory.path }
    func file(_ name: String) -> String { directory.file(name) }
    func cleanUp() { directory.cleanUp() }
}

/// A leak at `App/Screen.swift:12` (as `leakyTrace`), with Output and subscription ids shifted by
/// `offset`: another process finding the same bug has other ids.
private func leakyTrace(offset: UInt64) -> [UInt8] {
    var trace = TraceFileWriter()
    trace.thread(1)
    trace.output(1 + offset, line: 3, label: "title")
    trace.beginScope(1 + offset, name: "cell", line: 10)
    trace.bind(1 + offset, to: 1 + offset, line: 12, scope: 1 + offset)
    trace.update(1 + offset)
    trace.endScope(1 + offset)
    trace.end()
    return trace.bytes
}

@Suite("many traces are one run: files, directories and patterns, merged by site")
struct ManyTracesTests {
    @Test("a directory of three processes' traces: one finding seen in two of them, named with both")
    func mergedBySite() throws {
        let run = try RunDirectory([
            "tests-101.trace": leakyTrace(offset: 0), "tests-102.trace": cleanTrace(),
            "tests-103.trace": leakyTrace(offset: 40), "notes.txt": Array("not a trace".utf8),
        ])
        defer { run.cleanUp() }

        let check = try Tool.run("check", run.path)

        #expect(check.status == 1, "\(check.standardError)")
        let findings = check.standardOutput.split(separator: "\n").filter {
            $0.contains(": warning: leaked-subscription")
        }
        #expect(findings.count == 1, "merged: \(check.standardOutput)")
        #expect(check.standardOutput.contains("    note: seen in 2 of 3 traces: tests-101.trace, tests-103.trace"))
        #expect(check.standardOutput.contains("bind-trace: 3 traces: 1 finding (1 leaked-subscription)"))
        #expect(check.standardError.isEmpty, "other files in a run's directory are not traces and are ignored")

        let json = try Tool.run("check", "--format", "json", run.path)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let finding = try #require((object["findings"] as? [[String: Any]])?.first)
        #expect((finding["traces"] as? [String])?.count == 2)
        #expect((finding["fingerprint"] as? String)?.count == 32)
        #expect((object["traces"] as? [Any])?.count == 3)
    }

    @Test("files, a quoted glob pattern and a directory name the same traces; summary prints one block per process")
    func patterns() throws {
        let run = try RunDirectory(["a-1.trace": leakyTrace(offset: 0), "a-2.trace": leakyTrace(offset: 7)])
        defer { run.cleanUp() }

        let byFiles = try Tool.run("check", run.file("a-1.trace"), run.file("a-2.trace"))
        let byPattern = try Tool.run("check", run.path + "/*.trace")
        #expect(byFiles.status == 1)
        #expect(byPattern.standardOutput == byFiles.standardOutput)

        let summary = try Tool.run("summary", run.path)
        #expect(summary.status == 0)
        #expect(summary.standardOutput.contains(run.file("a-1.trace") + ": "))
        #expect(summary.standardOutput.contains(run.file("a-2.trace") + ": "))
    }

    @Test("bad inputs: one line naming the path, exit 2")
    func badInputs() throws {
        let empty = try TemporaryDirectory()
        defer { empty.cleanUp() }
        let cases: [(arguments: [String], message: String)] = [
            ([empty.path + "/*.trace"], "\(empty.path)/*.trace: no file matches this pattern"),
            ([empty.path], "\(empty.path): no *.trace files in this directory"),
            (["/nonexistent/bind-traces/"], "/nonexistent/bind-traces/: cannot open"),
        ]
        for (arguments, message) in cases {
            let run = try Tool.run(["check"] + arguments)
            #expect(run.status == 2, "\(arguments)")
            #expect(run.standardError.split(separator: "\n").count == 1, "\(run.standardError)")
            #expect(run.standardError.contains(message), "\(run.standardError)")
        }
    }

    @Test("a file named on its own that is not a trace is an error; found by a pattern it is skipped with a warning")
    func mixedFiles() throws {
        let run = try RunDirectory(["a.trace": leakyTrace(offset: 0), "b.trace": Array("plain text, not a trace".utf8)])
        defer { run.cleanUp() }

        let named = try Tool.run("check", run.file("a.trace"), run.file("b.trace"))
        #expect(named.status == 2)
        #expect(named.standardError.contains("b.trace: not a Bind trace"))

        let found = try Tool.run("check", run.path)
        #expect(found.status == 1)
        #expect(found.standardError.contains("b.trace: warning: skipped: not a Bind trace"))
    }

    @Test(
        "a FIFO or a device among a run's traces is skipped with a warning, not read forever",
        .hangGuard)
    func specialFiles() throws {
        let run = try RunDirectory(["a.trace": leakyTrace(offset: 0)])
        defer { run.cleanUp() }
        #expect(mkfifo(run.file("pipe.trace"), 0o600) == 0)
        #expect(symlink("/dev/zero", run.file("zero.trace")) == 0)

        for arguments in [[run.path], [run.path + "/*.trace"]] {
            let check = try Tool.run(["check"] + arguments)
            #expect(check.status == 1, "\(check.standardError)")
            #expect(check.standardOutput.contains("App/Screen.swift:12"))
            #expect(check.standardError.contains("pipe.trace: warning: skipped: a FIFO, not a trace file"))
            #expect(check.standardError.contains("zero.trace: warning: skipped: a device, not a trace file"))
        }
        let onlySpecial = try Tool.run(["check", run.path + "/*o.trace"])
        #expect(onlySpecial.status == 2)
        #expect(
            onlySpecial.standardError.contains("*o.trace: no trace file matches this pattern"),
            "\(onlySpecial.standardError)")
    }

    @Test("traces of two format versions are not judged together")
    func versions() throws {
        var other = leakyTrace(offset: 0)
        other[10] &+= 1  // the minor version
        let run = try RunDirectory(["a.trace": leakyTrace(offset: 0), "b.trace": other])
        defer { run.cleanUp() }

        let check = try Tool.run("check", run.path)
        #expect(check.status == 2)
        #expect(check.standardError.split(separator: "\n").count == 1)
        #expect(check.standardError.contains("b.trace: trace format"), "\(check.standardError)")
    }

    @Test("one report for a whole run: every trace's findings in index.html, junit.xml and findings.sarif")
    func oneReport() throws {
        let run = try RunDirectory(["x-1.trace": leakyTrace(offset: 0), "x-2.trace": GraphTraces.loop()])
        let out = try TemporaryDirectory()
        defer { run.cleanUp(); out.cleanUp() }

        let report = try Tool.run("report", run.path, "-o", out.file("report"))

        #expect(report.status == 1, "\(report.standardError)")
        #expect(report.standardError.contains("2 traces: report with"))
        let sarif = String(decoding: try out.contents("report/findings.sarif"), as: UTF8.self)
        #expect(sarif.contains("leaked-subscription"))
        #expect(sarif.contains("feedback-cycle"))
        #expect(sarif.contains("x-1.trace") && sarif.contains("x-2.trace"))
        let junit = String(decoding: try out.contents("report/junit.xml"), as: UTF8.self)
        #expect(junit.contains("leaked-subscription at App/Screen.swift:12"))
        let html = String(decoding: try out.contents("report/index.html"), as: UTF8.self)
        #expect(html.contains("2 processes"))
        #expect(html.contains("Seen in 1 trace: x-1.trace"))
        // Each process's graph, as a picture under its trace's name.
        #expect(html.components(separatedBy: "<figure class=\"process-graph\">").count == 3)
        #expect(html.contains("<figcaption>x-1.trace</figcaption>"))
        #expect(report.standardError.contains("2 of 2 processes' graphs and one merged by creation site"))
        #expect(html.contains("<figcaption>All processes, merged by creation site</figcaption>"))
    }

    @Test("dump and replay take several traces and keep each event attributable; graph and replay --at take one")
    func otherCommands() throws {
        let run = try RunDirectory(["p-1.trace": leakyTrace(offset: 0), "p-2.trace": cleanTrace()])
        defer { run.cleanUp() }

        let dump = try Tool.run("dump", run.path)
        #expect(dump.status == 0)
        let lines = dump.standardOutput.split(separator: "\n")
        #expect(lines.allSatisfy { $0.hasPrefix("{\"trace\":") })
        #expect(lines.contains { $0.contains("p-1.trace") } && lines.contains { $0.contains("p-2.trace") })
        for line in lines { #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil) }

        let replay = try Tool.run("replay", run.path)
        #expect(replay.status == 0)
        #expect(replay.standardOutput.contains("== \(run.file("p-1.trace")) =="))
        #expect(replay.standardOutput.contains("== \(run.file("p-2.trace")) =="))

        for arguments in [["graph", run.path], ["replay", "--at", "2", run.path]] {
            let one = try Tool.run(arguments)
            #expect(one.status == 2, "\(arguments)")
            #expect(one.standardError.contains("reads one trace at a time"), "\(one.standardError)")
        }
    }

    @Test("report writes the report of a run with a killed worker, and exits 3 unless --allow-incomplete")
    func reportGatesIncomplete() throws {
        var killed = leakyTrace(offset: 3)
        killed.removeLast(2)  // no end record: the worker was killed
        let run = try RunDirectory(["w-1.trace": cleanTrace(), "w-2.trace": killed])
        let out = try TemporaryDirectory()
        defer { run.cleanUp(); out.cleanUp() }

        let gated = try Tool.run("report", run.path, "-o", out.file("r"))
        #expect(gated.status == 3, "\(gated.standardError)")
        #expect(gated.standardError.contains("w-2.trace: incomplete trace: "))
        #expect(FileManager.default.fileExists(atPath: out.file("r/index.html")), "the report is still written")

        let allowed = try Tool.run("report", run.path, "-o", out.file("r"), "--allow-incomplete")
        #expect(allowed.status == 1, "the leak fails the run: \(allowed.standardError)")
    }
}
