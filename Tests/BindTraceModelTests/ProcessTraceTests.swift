@_spi(Harness) import BindTraceModel
import BindTraceTestSupport
import Foundation
import Testing

/// Runs the TraceFixture with `BIND_TRACE` set to `trace`, and returns it once started; its
/// standard error goes to `errors` when given.
func startFixture(
    _ arguments: [String], trace: String, environment: [String: String] = [:], errors: Pipe? = nil
) throws -> (Process, Pipe) {
    let process = Process()
    process.executableURL = productsDirectory().appendingPathComponent("TraceFixture")
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment
        .merging(["BIND_TRACE": trace]) { $1 }
        .merging(environment) { $1 }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = errors ?? FileHandle.nullDevice
    try process.run()
    return (process, output)
}

/// The values of the updates of the Output labelled `label`, in order.
func updates(labelled label: String, in events: [TraceEvent]) -> Int {
    var ids: Set<UInt64> = []
    var count = 0
    for event in events {
        switch event.kind {
        case .outputCreated(let creation) where creation.label == label: ids.insert(creation.output)
        case .labeled(let output, label): ids.insert(output)
        case .updated(let output, _, _) where ids.contains(output): count += 1
        default: break
        }
    }
    return count
}

/// Waits for `process` to end; after `seconds`, kills it and records an issue (a test never hangs).
func waitOrKill(_ process: Process, seconds: Double = 20) {
    let deadline = Date().addingTimeInterval(seconds)
    while process.isRunning && Date() < deadline { usleep(10_000) }
    if process.isRunning {
        Issue.record("the fixture did not end within \(seconds) s")
        kill(process.processIdentifier, SIGKILL)
    }
    process.waitUntilExit()
}

func temporaryDirectory() throws -> String {
    let path = NSTemporaryDirectory() + "bind-procs-\(UInt32.random(in: 0...UInt32.max))"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

extension TraceFileTests {
    @Suite("Processes that crash, fork, stop and share a path", .requiresTracing)
    struct ProcessTraceTests {
        @Test("a bound closure that calls fatalError after a burst leaves every update, the crashing one included")
        func crashKeepsEverything() throws {
            let path = temporaryTracePath()
            defer { unlink(path) }
            // Under a sanitizer, Swift's crash backtracer and the sanitizer's own signal handling
            // race for the trap (the process may exit, trap or segfault); without the backtracer
            // the trap is the same in every build. Plain builds keep it: it is what users run.
            let (process, _) = try startFixture(
                ["3000", "crash"], trace: path,
                environment: Sanitizer.any ? ["SWIFT_BACKTRACE": "enable=no"] : [:])
            waitOrKill(process)
            #expect(process.terminationReason == .uncaughtSignal)
            #expect(process.terminationStatus == SIGILL || process.terminationStatus == SIGTRAP)
            let reader = try TraceReader(path: path)
            let events = try reader.readAll()
            #expect(updates(labelled: "counter", in: events) == 3000)
            #expect(reader.gaps == [.noEndRecord], "a crash is told apart from a normal stop")
        }

        @Test("a crash while other threads' updates wait in their rings: the crash flush writes them all, in order")
        func crashMergesRings() throws {
            let path = temporaryTracePath()
            defer { unlink(path) }
            let (process, _) = try startFixture(
                ["500", "crash-threads"], trace: path,
                environment: Sanitizer.any ? ["SWIFT_BACKTRACE": "enable=no"] : [:])
            waitOrKill(process)
            #expect(process.terminationReason == .uncaughtSignal)
            let reader = try TraceReader(path: path)
            let events = try reader.readAll()
            #expect(updates(labelled: "worker", in: events) == 1500)
            #expect(reader.gaps == [.noEndRecord], "nothing lost: only the end record is missing")
            #expect(reader.ignoredBytes == 0, "whole records only")
        }

        @Test("stopRecording stops: BindTrace.isRecording is false after it and later updates reach no file")
        func stopRecordingStops() throws {
            let path = temporaryTracePath()
            let second = temporaryTracePath()
            defer {
                unlink(path)
                unlink(second)
            }
            let (process, output) = try startFixture(["500", "stop", second], trace: path)
            waitOrKill(process)
            let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(process.terminationStatus == 0)
            #expect(said == "recording false\n")
            let reader = try TraceReader(path: path)
            #expect(updates(labelled: "counter", in: try reader.readAll()) == 500)
            #expect(reader.gaps.isEmpty, "a stopped recording ends with its end record")
            // A second recording in the same process is a new stream: its strings, the thread's
            // name among them, are defined again in it.
            let again = try TraceReader(path: second)
            #expect(updates(labelled: "counter", in: try again.readAll()) == 500)
            #expect(again.gaps.isEmpty)
            #expect(!again.threadNames.isEmpty && again.threadNames == reader.threadNames)
        }

        @Test("SIGTERM flushes before the process ends")
        func terminationFlushes() throws {
            let path = temporaryTracePath()
            defer { unlink(path) }
            let (process, output) = try startFixture(["2000"], trace: path)
            let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
            #expect(line.hasPrefix("flushed 2000"))
            usleep(30_000)
            kill(process.processIdentifier, SIGTERM)
            waitOrKill(process)
            #expect(process.terminationReason == .uncaughtSignal)
            #expect(process.terminationStatus == SIGTERM)
            let reader = try TraceReader(path: path)
            let events = try reader.readAll()
            #expect(updates(labelled: "counter", in: events) > 2000)
            #expect(reader.ignoredBytes == 0, "whole records only")
        }

        @Test(
            "a forked child records to its own file and the parent's trace stays whole",
            .disabled(
                if: Sanitizer.thread, "ThreadSanitizer kills a child that starts a thread after a multi-threaded fork"))
        func forkedChild() throws {
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let path = directory + "/run.trace"
            let (process, output) = try startFixture(["500", "fork"], trace: path)
            waitOrKill(process)
            #expect(process.terminationStatus == 0)
            let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let child = try #require(
                said.split(separator: " ").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) })
            let parent = try TraceReader(path: path)
            let parentEvents = try parent.readAll()
            #expect(parent.gaps.isEmpty)
            #expect(updates(labelled: "counter", in: parentEvents) == 1000)
            #expect(updates(labelled: "child", in: parentEvents) == 0)
            let childTrace = try TraceReader(path: directory + "/run.\(child).trace")
            let childEvents = try childTrace.readAll()
            #expect(childTrace.gaps.isEmpty)
            #expect(updates(labelled: "child", in: childEvents) == 500)
            #expect(
                updates(labelled: "counter", in: childEvents) == 0, "the parent's buffered events stay the parent's")
        }

        @Test("two processes given one path each write a whole trace of their own")
        func sharedPath() throws {
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let path = directory + "/shared.trace"
            let runs = try (0..<2).map { _ in try startFixture(["3000", "exit"], trace: path) }
            for (process, _) in runs { waitOrKill(process) }
            let files = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
            #expect(files.count == 2)
            for file in files {
                let reader = try TraceReader(path: directory + "/" + file)
                let events = try reader.readAll()
                #expect(reader.gaps.isEmpty, "\(file)")
                #expect(updates(labelled: "counter", in: events) == 3000, "\(file)")
            }
        }

        @Test("BIND_TRACE naming a directory gives each process its own file, named by executable and pid")
        func directoryPattern() throws {
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let (process, _) = try startFixture(["100", "exit"], trace: directory)
            waitOrKill(process)
            let files = try FileManager.default.contentsOfDirectory(atPath: directory)
            #expect(files == ["TraceFixture-\(process.processIdentifier).trace"])
        }
    }
}
