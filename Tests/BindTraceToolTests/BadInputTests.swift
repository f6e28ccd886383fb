import Bind
import BindTraceFormat
import Foundation
import Testing

@Suite("bind-trace on bad input: exit 2 and one line naming the file")
struct BadInputTests {
    /// Runs `check` on `bytes` and returns the run.
    private func check(_ bytes: [UInt8], name: String = "app.trace") throws -> Tool.Run {
        let trace = try TemporaryTrace(bytes, name: name)
        defer { trace.cleanUp() }
        return try Tool.run("check", trace.path)
    }

    private func expectOneLine(
        _ run: Tool.Run, containing text: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(run.status == 2, sourceLocation: sourceLocation)
        let lines = run.standardError.split(separator: "\n")
        #expect(lines.count == 1, "\(run.standardError)", sourceLocation: sourceLocation)
        #expect(run.standardError.hasPrefix("bind-trace: "), sourceLocation: sourceLocation)
        #expect(run.standardError.contains("app.trace: "), sourceLocation: sourceLocation)
        #expect(run.standardError.contains(text), "\(run.standardError)", sourceLocation: sourceLocation)
        #expect(run.standardOutput.isEmpty, sourceLocation: sourceLocation)
    }

    @Test("a missing file")
    func missing() throws {
        let run = try Tool.run("check", "/nonexistent/app.trace")
        expectOneLine(run, containing: "/nonexistent/app.trace: cannot open: No such file or directory")
    }

    @Test("a file that is not a trace")
    func notATrace() throws {
        expectOneLine(try check(Array("hello, world, this is text".utf8)), containing: "not a Bind trace")
    }

    @Test("a header cut short")
    func truncatedHeader() throws {
        expectOneLine(try check(Array(TraceFormat.header.prefix(10))), containing: "truncated header")
    }

    @Test("a record claiming an impossible length")
    func corruptLength() throws {
        var bytes = TraceFileWriter().bytes
        let offset = bytes.count
        bytes += [TraceFormat.Tag.update.rawValue, 0xFF, 0xFF, 0xFF, 0x7F, 0, 0, 0]
        expectOneLine(try check(bytes), containing: "corrupt record at offset \(offset)")
    }

    @Test("a record whose fields run past its length")
    func malformedRecord() throws {
        var bytes = TraceFileWriter().bytes
        bytes += [TraceFormat.Tag.bound.rawValue, 2, 0, 1]
        expectOneLine(try check(bytes), containing: "malformed record")
    }

    @Test("a corrupt record in the middle of a long trace (many batches before it, more after) is one line, exit 2")
    func corruptionInTheMiddle() throws {
        var writer = TraceFileWriter()
        writer.thread(1)
        writer.output(1, line: 3, label: "title")
        for step in 0..<UInt64(20_000) { writer.update(1, cause: step % 2 == 0 ? nil : (0, writer.eventCount)) }
        var bytes = writer.bytes
        let offset = bytes.count
        bytes += [TraceFormat.Tag.update.rawValue, 1, 0x80]  // a field running past its record
        bytes += leakyTrace().dropFirst(TraceFormat.headerSize)
        let trace = try TemporaryTrace(bytes)
        defer { trace.cleanUp() }
        let run = try Tool.run("check", trace.path)
        expectOneLine(
            run, containing: "app.trace: malformed record (tag 14) at offset \(offset): record ends inside a field")
        // `dump` reads one event at a time on one thread: the same line, after every event before it.
        let dump = try Tool.run("dump", trace.path)
        #expect(dump.status == 2)
        #expect(dump.standardError == run.standardError)
        #expect(dump.standardOutput.split(separator: "\n").count == 20_001)
    }

    @Test("a trace cut short is read up to the cut and fails the gate with exit 3, unless --allow-incomplete")
    func cutShort() throws {
        var bytes = leakyTrace()
        bytes.removeLast(2)  // the end record
        bytes += [TraceFormat.Tag.update.rawValue, 3, 0]  // an event cut after its first byte
        let run = try check(bytes)
        #expect(run.status == 3)
        #expect(run.standardOutput.contains("leaked-subscription"), "the findings are still shown")
        let lines = run.standardError.split(separator: "\n")
        #expect(lines.count == 2, "\(run.standardError)")
        #expect(lines.first?.contains("warning:") == true && lines.first?.contains("cut short") == true)
        #expect(lines.last?.contains("incomplete trace:") == true && lines.last?.contains("--allow-incomplete") == true)

        let trace = try TemporaryTrace(bytes)
        defer { trace.cleanUp() }
        let allowed = try Tool.run("check", "--allow-incomplete", trace.path)
        #expect(allowed.status == 1)
        #expect(allowed.standardError.split(separator: "\n").count == 1)
        #expect(allowed.standardError.contains("cut short"))
    }

    @Test("a trace without its end record (a killed process) fails check, leaks and cycles with exit 3")
    func noEndRecord() throws {
        var bytes = cleanTrace()
        bytes.removeLast(2)  // the end record
        let trace = try TemporaryTrace(bytes)
        defer { trace.cleanUp() }
        for command in ["check", "leaks", "cycles"] {
            let run = try Tool.run(command, trace.path)
            #expect(run.status == 3, "\(command)")
            #expect(run.standardError.contains("incomplete trace: "), "\(command)")
            #expect(run.standardError.contains("no end record"), "\(command)")
            #expect(try Tool.run(command, "--allow-incomplete", trace.path).status == 0, "\(command)")
        }
        #expect(try Tool.run("summary", trace.path).status == 0, "summary never gates")
    }

    @Test("bad usage exits 2")
    func badUsage() throws {
        #expect(try Tool.run("check").status == 2)
        #expect(try Tool.run("check", "--format", "xml", "x.trace").status == 2)
        #expect(try Tool.run("frobnicate").status == 2)
        #expect(try Tool.run("replay", "--at", "-3", "x.trace").status == 2)
    }

    @Test("every subcommand has --help, exit 0")
    func help() throws {
        for command in ["dump", "replay", "leaks", "cycles", "check", "summary"] {
            let run = try Tool.run(command, "--help")
            #expect(run.status == 0, "\(command)")
            #expect(run.standardOutput.contains("USAGE: bind-trace \(command)"), "\(command)")
        }
        #expect(try Tool.run("--help").standardOutput.contains("SUBCOMMANDS"))
    }
}
