import Bind
import BindTraceTestSupport
import Foundation
import Testing

/// A trace of two threads: 'query' bound on thread 1, updated on thread 2 (its closure runs there).
private func twoThreadTrace() -> [UInt8] {
    var trace = TraceFileWriter()
    trace.thread(1)
    trace.output(1, line: 3, label: "query")
    trace.output(2, line: 4, label: "results")
    trace.bind(1, to: 1, file: "App/View.swift", line: 20)
    trace.thread(2)
    let update = trace.update(1)
    trace.update(2, cause: (1, update))
    trace.end()
    return trace.bytes
}

@Suite("bind-trace export")
struct ExportCommandTests {
    @Test("writes a Perfetto file protoc decodes and a JSON file that parses, and prints nothing")
    func writesBothFormats() throws {
        let trace = try TemporaryTrace(twoThreadTrace())
        defer { trace.cleanUp() }
        let directory = (trace.path as NSString).deletingLastPathComponent
        let perfetto = directory + "/app.pftrace"
        let json = directory + "/app.json"

        let proto = try Tool.run("export", trace.path, "-o", perfetto)
        let chrome = try Tool.run("export", trace.path, "--format", "chrome-json", "-o", json)

        #expect(proto.status == 0)
        #expect(proto.standardOutput.isEmpty && proto.standardError.isEmpty)
        #expect(chrome.status == 0)
        let events = try #require(
            (try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any])?[
                "traceEvents"] as? [[String: Any]])
        let threadNames = events.filter { $0["name"] as? String == "thread_name" }
        #expect(threadNames.count == 2)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: perfetto))
        #expect(bytes.first == 0x0A, "the file starts with field 1 of Trace, a packet")
        try #require(
            PythonChecks.hasPerfetto, "python3 with Perfetto's schema (python3 -m pip install perfetto; make setup)")
        let problems = try PythonChecks.perfettoProblems(perfetto)
        #expect(problems.isEmpty, "Perfetto's own schema: \(problems.prefix(20))")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty)
    }

    @Test("-o - writes the file to standard output")
    func standardOutput() throws {
        let trace = try TemporaryTrace(twoThreadTrace())
        defer { trace.cleanUp() }

        let run = try Tool.run("export", trace.path, "--format", "chrome-json", "-o", "-")

        #expect(run.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any]
        #expect((object?["traceEvents"] as? [Any])?.isEmpty == false)
    }

    @Test("thread numbers up to UInt32.max become dense thread ids 1, 2, … and the JSON still parses")
    func hostileThreads() throws {
        var writer = TraceFileWriter()
        writer.thread(UInt64(UInt32.max))
        writer.output(1, line: 3, label: "a")
        writer.thread(1 << 20)
        writer.update(1)
        writer.end()
        let trace = try TemporaryTrace(writer.bytes)
        defer { trace.cleanUp() }

        let run = try Tool.run("export", trace.path, "--format", "chrome-json", "-o", "-")

        #expect(run.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any]
        let events = try #require(object?["traceEvents"] as? [[String: Any]])
        let threadIDs = Set(events.filter { $0["name"] as? String == "thread_name" }.compactMap { $0["tid"] as? Int })
        #expect(threadIDs == [1, 2])
    }

    @Test("a file that is not a trace: one line naming it, exit 2, and no output file")
    func notATrace() throws {
        let trace = try TemporaryTrace(Array("hello, this is text".utf8))
        defer { trace.cleanUp() }
        let output = (trace.path as NSString).deletingLastPathComponent + "/out.pftrace"

        let run = try Tool.run("export", trace.path, "-o", output)

        #expect(run.status == 2)
        #expect(run.standardError.split(separator: "\n").count == 1)
        #expect(run.standardError.hasPrefix("bind-trace: \(trace.path): "))
        #expect(run.standardError.contains("not a Bind trace"))
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test("an output that cannot be written: one line naming it, exit 2")
    func unwritableOutput() throws {
        let trace = try TemporaryTrace(twoThreadTrace())
        defer { trace.cleanUp() }

        let run = try Tool.run("export", trace.path, "-o", "/nonexistent/directory/app.pftrace")

        #expect(run.status == 2)
        #expect(run.standardError.split(separator: "\n").count == 1)
        #expect(run.standardError.hasPrefix("bind-trace: /nonexistent/directory/app.pftrace: cannot write: "))
    }

    @Test("a trace cut short is exported up to the cut, with the reader's warning")
    func cutShort() throws {
        let whole = twoThreadTrace()
        let trace = try TemporaryTrace(Array(whole.prefix(whole.count - 3)))
        defer { trace.cleanUp() }
        let output = (trace.path as NSString).deletingLastPathComponent + "/out.json"

        let run = try Tool.run("export", trace.path, "--format", "chrome-json", "-o", output)

        #expect(run.status == 0)
        #expect(run.standardError.contains("warning"))
        #expect(FileManager.default.fileExists(atPath: output))
    }

    @Test("an inconsistent trace is drawn, its inconsistencies named on standard error as by every command")
    func inconsistentTrace() throws {
        var writer = TraceFileWriter()
        writer.thread(1)
        writer.update(7)  // an Output the trace never created
        writer.update(7, cause: (3, 99))  // a cause that is not open
        writer.end()
        let trace = try TemporaryTrace(writer.bytes)
        defer { trace.cleanUp() }
        let output = (trace.path as NSString).deletingLastPathComponent + "/out.json"

        let run = try Tool.run("export", trace.path, "--format", "chrome-json", "-o", output)

        #expect(run.status == 0)
        let lines = run.standardError.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { $0.hasPrefix("bind-trace: \(trace.path): inconsistent trace: ") })
        let check = try Tool.run("check", trace.path).standardError.split(separator: "\n")
        #expect(check.filter { $0.contains("inconsistent trace: ") } == lines)
        let text = try String(contentsOfFile: output, encoding: .utf8)
        #expect(text.contains("an Output the trace never created (#7)"))
    }

    #if Tracing
    @Test("a trace the instrumented build recorded on two threads exports one track per thread")
    func recordedOnTwoThreads() throws {
        let query = Output<String>(value: "")
        let recording = try #require(
            BindTrace.capture("export test") {
                let subscription = query.bind { _ in }
                let done = DispatchSemaphore(value: 0)
                Thread {
                    query.update(withValue: "swift")
                    done.signal()
                }.start()
                done.wait()
                subscription.unsubscribe()
            })
        let trace = try TemporaryTrace(recording.bytes)
        defer { trace.cleanUp() }
        let output = (trace.path as NSString).deletingLastPathComponent + "/app.json"

        let run = try Tool.run("export", trace.path, "--format", "chrome-json", "-o", output)

        #expect(run.status == 0)
        let events = try #require(
            (try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output))) as? [String: Any])?[
                "traceEvents"] as? [[String: Any]])
        let threads = Set(events.filter { $0["ph"] as? String != "M" }.compactMap { $0["tid"] as? Int })
        #expect(threads.count >= 2)
        // The update on the other thread delivered to the closure bound on this one: an arrow.
        let flowIn = events.filter { $0["flow_in"] as? Bool == true }.compactMap { $0["bind_id"] as? String }
        let flowOut = Set(events.filter { $0["flow_out"] as? Bool == true }.compactMap { $0["bind_id"] as? String })
        #expect(!flowIn.isEmpty)
        #expect(flowIn.allSatisfy(flowOut.contains))
    }
    #endif
}
