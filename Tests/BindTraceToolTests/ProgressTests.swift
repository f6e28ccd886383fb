import Foundation
import Testing

@Suite("progress on standard error: on a terminal, or when asked for")
struct ProgressTests {
    @Test(
        "in a pipe nothing is shown unless --progress always, which ends with the figures",
        arguments: ["check", "summary", "replay", "graph", "report"])
    func pipe(command: String) throws {
        let trace = try TemporaryTrace(deepChainTrace(depth: 50))
        let out = try TemporaryDirectory()
        defer { trace.cleanUp(); out.cleanUp() }
        var extra: [String] = []
        if command == "graph" { extra = ["--format", "dot", "-o", out.file("g.dot")] }
        if command == "report" { extra = ["-o", out.file("report")] }

        let quiet = try Tool.run([command, trace.path] + extra)
        #expect(!quiet.standardError.contains("events, "), "\(quiet.standardError)")

        let asked = try Tool.run([command, trace.path, "--progress", "always"] + extra)
        let progress = asked.standardError.split(separator: "\n").filter { $0.contains(" events, ") }
        #expect(progress.count >= 1, "\(asked.standardError)")
        #expect(progress.last?.contains("KB of ") == true, "bytes read of the total: \(progress)")
        #expect(progress.last?.contains(", 150 events, ") == true, "\(progress)")
        #expect(zip(progress, progress.dropFirst()).allSatisfy { $0 != $1 }, "no line told twice: \(progress)")
        #expect(!asked.standardError.contains("\r"), "no in-place updates outside a terminal")
    }
}

@Suite("progress on a terminal")
struct TerminalProgressTests {
    @Test(
        "on a terminal the line is updated in place and erased at the end",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func terminal() throws {
        let trace = try TemporaryTrace(deepChainTrace(depth: 50))
        defer { trace.cleanUp() }
        // util-linux `script` runs the command on a pseudo-terminal and copies what it printed.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        let command = "'\(try Tool.executable().path)' summary --progress always '\(trace.path)' >/dev/null"
        process.arguments = ["-qec", command, "/dev/null"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()

        #expect(process.terminationStatus == 0)
        #expect(text.contains("\r\u{1B}[Kbind-trace: \(trace.path): "), "\(text.debugDescription)")
        #expect(text.hasSuffix("\r\u{1B}[K"), "erased at the end: \(text.debugDescription)")
        #expect(!text.contains("\n"), "one line, rewritten in place")
    }
}
