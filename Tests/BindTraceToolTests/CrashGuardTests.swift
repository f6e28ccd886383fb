import Bind
import BindTraceModel
import BindTraceTestSupport
import Foundation
import Testing

@Suite("bind-trace never ends by a signal: a crash or running out of memory is one line and exit 2")
struct CrashGuardTests {
    @Test(
        "a crash while reading (a SIGSEGV sent to the worker) ends with one line and exit 2", .hangGuard,
        .disabled(if: Sanitizer.any, "a sanitizer handles SIGSEGV itself and prints its own report"))
    func crashIsOneLine() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let fifo = directory.file("live.trace")
        #expect(mkfifo(fifo, 0o600) == 0)

        let process = Process()
        process.executableURL = try Tool.executable()
        process.arguments = ["check", fifo]
        let errorPipe = Pipe()
        process.standardError = errorPipe
        process.standardOutput = Pipe()
        try process.run()
        // Keep the trace open and unfinished, so the worker blocks reading it.
        let writer = try #require(writerOnceRead(fifo), "bind-trace never opened the FIFO")
        writer.write(Data(TraceFileWriter().bytes))

        let worker = try #require(waitForChild(of: process.processIdentifier))
        kill(worker, SIGSEGV)
        let errorData = errorPipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try? writer.close()

        let standardError = String(decoding: errorData, as: UTF8.self)
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 2)
        let lines = standardError.split(separator: "\n")
        #expect(lines.count == 1, "\(standardError)")
        #expect(
            lines.last?.hasPrefix("bind-trace: check \(fifo): stopped by signal \(SIGSEGV)") == true, "\(standardError)"
        )
    }

    @Test(
        "under a 1 GB memory limit, 5,000 findings on Outputs sharing a 16 KB label print, each label shortened",
        .disabled(if: Sanitizer.any, "a sanitizer's shadow memory does not fit under ulimit -v"))
    func memoryLimit() throws {
        var writer = TraceFileWriter()
        writer.thread(1)
        // At the reader's limit for one string (16 KiB): quoted whole, the messages would be 80 MB.
        let label = String(repeating: "x", count: 16_000)
        for id in 1...UInt64(5_000) {
            writer.output(id, line: 3, label: label)
            writer.bind(id, to: id, line: 10 + id)  // one finding per bind site
        }
        writer.end()
        let trace = try TemporaryTrace(writer.bytes)
        defer { trace.cleanUp() }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [
            "-c", "ulimit -v 1000000; exec \"$0\" check --at-exit \"$1\"", try Tool.executable().path, trace.path,
        ]
        let outputPipe = Pipe()
        let errorPipe = Pipe()
        process.standardOutput = outputPipe
        process.standardError = errorPipe
        try process.run()
        let standardOutput = String(decoding: outputPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let standardError = String(decoding: errorPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()

        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 1, "\(standardError.suffix(500))")
        let findings = standardOutput.split(separator: "\n").filter { $0.contains(": warning: leaked-subscription:") }
        #expect(findings.count == 5_000)
        #expect(findings.allSatisfy { $0.utf8.count < 1_000 }, "each message quotes the label shortened")
        #expect(findings.first?.contains("… (") == true, "\(findings.first?.prefix(400) ?? "")")
    }

    @Test("SIGTERM to bind-trace (a CI timeout) stops the worker too, and the status says so", .hangGuard)
    func terminationIsForwarded() throws {
        let directory = try TemporaryDirectory()
        defer { directory.cleanUp() }
        let fifo = directory.file("live.trace")
        #expect(mkfifo(fifo, 0o600) == 0)
        let process = Process()
        process.executableURL = try Tool.executable()
        process.arguments = ["check", fifo]
        process.standardError = Pipe()
        process.standardOutput = Pipe()
        try process.run()
        let writer = try #require(writerOnceRead(fifo), "bind-trace never opened the FIFO")
        writer.write(Data(TraceFileWriter().bytes))
        let worker = try #require(waitForChild(of: process.processIdentifier))

        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        try? writer.close()

        #expect(process.terminationStatus == 128 + SIGTERM)
        var gone = false
        for _ in 0..<100 where !gone {
            gone = kill(worker, 0) != 0
            if !gone { usleep(20_000) }
        }
        #expect(gone, "the worker was stopped too")
    }

    /// The worker process the tool starts, found through /proc.
    /// The FIFO opened for writing once a reader has it open, or nil after 20 s: a plain open would
    /// block forever if bind-trace never opened it.
    private func writerOnceRead(_ fifo: String) -> FileHandle? {
        for _ in 0..<1000 {
            let descriptor = open(fifo, O_WRONLY | O_NONBLOCK)
            if descriptor >= 0 {
                _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
                return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
            }
            usleep(20_000)
        }
        return nil
    }

    private func waitForChild(of parent: Int32) -> Int32? {
        for _ in 0..<200 {
            let path = "/proc/\(parent)/task/\(parent)/children"
            if let text = try? String(contentsOfFile: path, encoding: .utf8),
                let child = text.split(separator: " ").first.flatMap({ Int32($0) })
            {
                return child
            }
            usleep(20_000)
        }
        return nil
    }
}
