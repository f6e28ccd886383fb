import BindTraceTestSupport
import Foundation
import Testing

/// Where the output goes wrong: a full disk, a device named with `-o`, a reader that leaves.
@Suite(
    "bind-trace when its output cannot be written: exit 2 and one line, never a cut-short result passed off as whole")
struct OutputFailureTests {
    /// A trace with one leak (`leakyTrace()`), so `check` would exit 1 if the write failure were not reported.
    private func leakyTrace() throws -> TemporaryTrace {
        try TemporaryTrace(BindTraceToolTests.leakyTrace())
    }

    /// Runs `bind-trace arguments…` with its standard output sent to `/dev/full`.
    private func runIntoFullDisk(_ arguments: [String]) throws -> Tool.Run {
        try ChildProcess.run(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", "exec \"$0\" \"$@\" > /dev/full", try Tool.executable().path] + arguments)
    }

    @Test(
        "standard output on a full disk: exit 2, whatever the findings",
        .enabled(if: FileManager.default.fileExists(atPath: "/dev/full")),
        arguments: [["check"], ["check", "--format", "json"], ["dump"], ["graph"]])
    func fullStandardOutput(command: [String]) throws {
        let trace = try leakyTrace()
        defer { trace.cleanUp() }
        let run = try runIntoFullDisk(command + [trace.path])
        #expect(run.status == 2, "\(run.standardError)")
        #expect(
            run.standardError.contains(
                "bind-trace: standard output: cannot write: No space left on device; output is incomplete"))
    }

    @Test(
        "-o naming a device (through a link) writes through it and never replaces the link or the device",
        .enabled(if: FileManager.default.fileExists(atPath: "/dev/full")))
    func outputToDevice() throws {
        let trace = try leakyTrace()
        defer { trace.cleanUp() }
        // Links in the trace's own directory: a regression replaces a link there, never a device.
        let directory = (trace.path as NSString).deletingLastPathComponent
        let full = directory + "/full.svg"
        let null = directory + "/null.svg"
        #expect(symlink("/dev/full", full) == 0)
        #expect(symlink("/dev/null", null) == 0)

        let intoFull = try Tool.run("graph", trace.path, "--format", "dot", "-o", full)
        #expect(intoFull.status == 2)
        #expect(
            intoFull.standardError.contains("full.svg: cannot write: No space left on device"),
            "\(intoFull.standardError)")
        #expect(isLink(full))

        let intoNull = try Tool.run("graph", trace.path, "-o", null)
        #expect(intoNull.status == 0, "\(intoNull.standardError)")
        #expect(isLink(null))
    }

    @Test("-o naming the process's standard output (/proc/self/fd/1, /dev/stdout) writes to it, wherever it goes")
    func outputToStandardOutput() throws {
        let trace = try leakyTrace()
        defer { trace.cleanUp() }
        let file = (trace.path as NSString).deletingLastPathComponent + "/out.svg"
        // Written to descriptor 1, redirected to a file; renaming over the link would leave it empty.
        let run = try ChildProcess.run(
            URL(fileURLWithPath: "/bin/sh"),
            [
                "-c", "exec \"$0\" \"$@\" > \"$OUT\"", try Tool.executable().path, "graph", trace.path, "-o",
                "/proc/self/fd/1",
            ],
            environment: ["OUT": file])
        #expect(run.status == 0, "\(run.standardError)")
        let written = try String(contentsOfFile: file, encoding: .utf8)
        #expect(written.hasPrefix("<?xml"))
        #expect(written.contains("</svg>"))
    }

    private func isLink(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK
    }

    @Test("a reader that leaves early (`| head`) ends the output quietly, with the command's own status")
    func closedPipe() throws {
        let trace = try TemporaryTrace(Self.longTrace())
        defer { trace.cleanUp() }
        let run = try ChildProcess.run(
            URL(fileURLWithPath: "/bin/bash"),
            [
                "-c", "\"$0\" \"$@\" | head -c 1 > /dev/null; exit ${PIPESTATUS[0]}", try Tool.executable().path,
                "dump", trace.path,
            ])
        #expect(run.status == 0)
        #expect(run.standardError.isEmpty, "\(run.standardError)")
    }

    @Test("a non-blocking standard output that fills up (as some CI runners hand down) is waited on, not lost")
    func nonBlockingStandardOutput() throws {
        let trace = try TemporaryTrace(Self.longTrace())
        defer { trace.cleanUp() }
        let pipe = Pipe()
        let writeEnd = pipe.fileHandleForWriting.fileDescriptor
        #expect(fcntl(writeEnd, F_SETFL, fcntl(writeEnd, F_GETFL) | O_NONBLOCK) == 0)
        let process = Process()
        process.executableURL = try Tool.executable()
        process.arguments = ["dump", trace.path]
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        try pipe.fileHandleForWriting.close()
        // The pipe fills while nobody reads: writes would fail with EAGAIN.
        Thread.sleep(forTimeInterval: 0.5)
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let whole = try Tool.run("dump", trace.path).standardOutput
        #expect(whole.utf8.count > 200_000)
        #expect(String(decoding: output, as: UTF8.self) == whole)
    }

    /// A trace whose dump is far more than a pipe holds (about 1 MB).
    private static func longTrace() -> [UInt8] {
        var writer = TraceFileWriter()
        writer.thread(1)
        writer.output(1, line: 3, label: "title")
        for _ in 0..<20_000 { writer.update(1) }
        writer.end()
        return writer.bytes
    }
}
