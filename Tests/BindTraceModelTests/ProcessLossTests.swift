@_spi(Harness) import BindTraceModel
import BindTraceTestSupport
import Foundation
import Testing

/// The lines the fixture printed so far, read until at least `count` complete lines came (or it ended).
private func readLines(_ pipe: Pipe, atLeast count: Int) -> [String] {
    var text = ""
    while text.split(separator: "\n").count < count || !text.hasSuffix("\n") {
        let data = pipe.fileHandleForReading.availableData
        if data.isEmpty { break }
        text += String(decoding: data, as: UTF8.self)
    }
    return text.split(separator: "\n").map(String.init)
}

/// The `bind-trace:` lines of a fixture's standard error.
private func recorderLines(_ pipe: Pipe) -> [String] {
    String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        .split(separator: "\n").map(String.init).filter { $0.hasPrefix("bind-trace:") }
}

extension TraceFileTests {
    /// Nothing invented, nothing lost in silence: what signals, crashes, lost files and runs sharing
    /// one path leave in the trace (docs/trace-format.md, "Crash safety and loss").
    @Suite("Signals mid-burst, crashes, lost files and one path per run", .requiresTracing)
    struct ProcessLossTests {
        @Test(
            "SIGTERM or SIGINT mid-burst: every update made before the signal is in the trace, once (50 trials)")
        func signalMidBurst() throws {
            // Fewer under a sanitizer, whose instrumented fixture runs many times slower.
            for trial in 0..<(Sanitizer.any ? 10 : 50) {
                let signal = trial % 2 == 0 ? SIGTERM : SIGINT
                let path = temporaryTracePath()
                defer { unlink(path) }
                // Given a program updating in a tight loop on two threads
                let (process, output) = try startFixture(["5000", "burst"], trace: path)
                let seen = readLines(output, atLeast: 2 + trial % 5)
                usleep(useconds_t(trial % 4) * 7_000)
                // When the signal comes mid-burst
                let recordedBeforeSignal = seen.compactMap { Int($0) }.max() ?? 0
                kill(process.processIdentifier, signal)
                waitOrKill(process)

                // Then it ends by that signal, and its trace holds every update it had made
                #expect(process.terminationReason == .uncaughtSignal, "trial \(trial)")
                #expect(process.terminationStatus == signal, "trial \(trial)")
                let reader = try TraceReader(path: path)
                let events = try reader.readAll()
                #expect(recordedBeforeSignal > 0, "trial \(trial): the fixture printed its progress")
                #expect(updates(labelled: "counter", in: events) >= recordedBeforeSignal, "trial \(trial)")
                #expect(reader.lostEvents == 0, "trial \(trial): \(reader.warnings)")
                #expect(reader.repeatedChunks == 0, "trial \(trial)")
                #expect(reader.ignoredBytes == 0, "trial \(trial): whole records only")
                #expect(reader.gaps == [], "trial \(trial): the end record is there: \(reader.warnings)")
                #expect(reader.endSignal == signal, "trial \(trial): the trace says which signal ended it")
            }
        }

        @Test("a crash after 100,000 updates writes every chunk exactly once and keeps every update (25 trials)")
        func crashWritesEachChunkOnce() throws {
            for trial in 0..<(Sanitizer.any ? 5 : 25) {
                let path = temporaryTracePath()
                defer { unlink(path) }
                let (process, _) = try startFixture(
                    ["100000", "crash"], trace: path,
                    environment: Sanitizer.any ? ["SWIFT_BACKTRACE": "enable=no"] : [:])
                waitOrKill(process, seconds: 60)
                #expect(process.terminationReason == .uncaughtSignal, "trial \(trial)")
                let reader = try TraceReader(path: path)
                let events = try reader.readAll()
                #expect(updates(labelled: "counter", in: events) == 100_000, "trial \(trial)")
                #expect(reader.repeatedChunks == 0, "trial \(trial): \(reader.warnings)")
                #expect(reader.gaps == [.noEndRecord], "trial \(trial): \(reader.warnings)")
            }
        }

        @Test(
            "writes that fail (the file may not grow) are counted exactly: the trace says how many are missing, once"
        )
        func failedWritesCountedExactly() throws {
            let path = temporaryTracePath()
            defer { unlink(path) }
            let (process, _) = try startFixture(["20000", "full"], trace: path)
            waitOrKill(process)
            #expect(process.terminationStatus == 0)
            let reader = try TraceReader(path: path)
            let events = try reader.readAll()
            let lost = try #require(
                reader.gaps.lazy.compactMap { if case .lostEvents(let count) = $0 { count } else { nil } }.first,
                "the file may not grow: some writes fail, and the trace must say so")
            #expect(reader.gaps == [.lostEvents(lost)], "the end record is there; only the loss is told")
            #expect(reader.ignoredBytes == 0, "a write that failed partway was cut back to whole records")
            // The fixture updates 20,000 times while the file may not grow, then 20,000 times after.
            // (Counted by kind: the counter's creation may be among the lost events.)
            let recorded = events.filter { if case .updated = $0.kind { true } else { false } }.count
            #expect(recorded + Int(lost) >= 40_000, "every update is in the trace or counted")
            // Each chunk record says which event it starts with: a loss counted twice, or not at
            // all, shows as a chunk that starts before or after the reader's count.
            #expect(
                !reader.warnings.contains { $0.message.contains("starts at event") || $0.message.contains("missing") },
                "\(reader.warnings)")
            #expect(reader.skippedSequenceNumbers == lost, "every lost event had its number")
            #expect(reader.warnings.count == 1, "one warning for every loss: \(reader.warnings)")
            #expect(!reader.warnings.contains { $0.message.contains("lost 0 ") })
            let last = try #require(events.last?.sequence)
            #expect(UInt64(events.count) + lost == last, "read + lost = every event numbered")
        }

        @Test(
            "a trace file deleted, truncated or replaced while written is told once; a sibling continues it",
            arguments: ["deleted", "truncated", "replaced"])
        func lostFileContinues(how: String) throws {
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let path = directory + "/run.trace"
            // Given a program whose trace file is lost after 2,000 updates
            let errors = Pipe()
            let (process, _) = try startFixture(["2000", "lose", how], trace: path, errors: errors)
            let lines = recorderLines(errors)
            waitOrKill(process)

            // Then it ends normally, says so once, and its 2,000 later updates are in the sibling
            #expect(process.terminationStatus == 0)
            #expect(lines.count == 1, "\(lines)")
            #expect(lines.first?.contains("\(path) was \(how) while this process wrote it") == true, "\(lines)")
            let sibling = directory + "/run.\(process.processIdentifier).trace"
            #expect(lines.first?.hasSuffix("recording goes on in \(sibling)") == true, "\(lines)")
            let reader = try TraceReader(path: sibling)
            let events = try reader.readAll()
            #expect(reader.continuedFrom?.path == path)
            #expect(reader.continuedFrom?.how == how)
            #expect(updates(labelled: "after", in: events) == 2000)
            #expect(reader.isComplete)
            #expect(reader.lostEvents >= 2000, "the updates before the loss are not in this file, and it says so")
            #expect(
                try eventsOfUnknownOutputs(path: sibling) == 0,
                "the continuation announces what it uses again: a consistent trace")
        }

        @Test(
            "a SIGTERM to a child forked after the recording stopped ends the child, never its parent",
            .disabled(
                if: Sanitizer.thread, "ThreadSanitizer kills a child that starts a thread after a multi-threaded fork"))
        func signalToForkedChild() throws {
            let path = temporaryTracePath()
            defer { unlink(path) }
            let (process, output) = try startFixture(["200", "stop-fork"], trace: path)
            waitOrKill(process, seconds: 15)
            let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(process.terminationReason == .exit)
            #expect(process.terminationStatus == 0)
            #expect(said == "parent alive\n")
        }

        @Test(
            "one plain path, one run's processes one after another: each trace kept; a later run replaces it",
            .disabled(if: !FileManager.default.isExecutableFile(atPath: "/usr/bin/setsid"), "needs setsid"))
        func onePathOneRun() throws {
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let path = directory + "/run.trace"
            let fixture = productsDirectory().appendingPathComponent("TraceFixture").path
            // Given two runs of the program one after the other in one shell script (one process group)
            let sameRun = try ChildProcess.run(
                URL(fileURLWithPath: "/bin/sh"), ["-c", "\"$0\" 300 exit && \"$0\" 300 exit", fixture],
                environment: ["BIND_TRACE": path])
            #expect(sameRun.status == 0)
            // Then both traces are kept: the second beside the first, and it says so
            var files = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
            #expect(files.count == 2, "\(files)")
            #expect(sameRun.standardError.contains("holds the trace of another process of this run"))
            for file in files {
                let reader = try TraceReader(path: directory + "/" + file)
                #expect(updates(labelled: "counter", in: try reader.readAll()) == 300, "\(file)")
                #expect(reader.gaps.isEmpty, "\(file)")
            }

            // When a separate run (its own session and process group) records to the same path
            let separate = try ChildProcess.run(
                URL(fileURLWithPath: "/usr/bin/setsid"), ["-w", fixture, "100", "exit"],
                environment: ["BIND_TRACE": path])
            #expect(separate.status == 0)

            // Then it replaces the file, as a new run should
            files = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
            #expect(files.count == 2, "\(files)")
            let replaced = try TraceReader(path: path)
            #expect(updates(labelled: "counter", in: try replaced.readAll()) == 100)
            #expect(replaced.writer?.session != UInt64(getsid(0)))
        }
    }
}

/// Updates, fires, binds and releases of Outputs the trace at `path` never created (the analysis is
/// not a dependency of these tests: this much of its consistency check the reader's events show).
private func eventsOfUnknownOutputs(path: String) throws -> Int {
    var known: Set<UInt64> = []
    var unknown = 0
    for event in try TraceReader(path: path).readAll() {
        switch event.kind {
        case .outputCreated(let creation): known.insert(creation.output)
        case .updated(let output, _, _), .fired(let output, _, _), .released(let output):
            if !known.contains(output) { unknown += 1 }
        case .bound(let binding): if !known.contains(binding.output) { unknown += 1 }
        default: break
        }
    }
    return unknown
}
