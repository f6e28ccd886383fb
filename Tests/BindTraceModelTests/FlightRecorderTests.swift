#if Tracing
@_spi(Harness) import BindTraceModel
import BindTraceTestSupport
import Foundation
import Testing

@testable import Bind

extension TraceFileTests {
    /// `BIND_TRACE_LIMIT`: the trace and its previous segment never hold more than the limit, say
    /// exactly what was dropped, and read on their own at any moment (docs/trace-format.md,
    /// "The flight recorder").
    @Suite("Flight recorder (BIND_TRACE_LIMIT)")
    struct FlightRecorderTests {
        static let limit: Int64 = 4 << 20

        @Test("the limit is read as 256M, 1G, 512K or bytes")
        func limitSpelling() {
            #expect(limitBytes("256M") == 256 << 20)
            #expect(limitBytes("1G") == 1 << 30)
            #expect(limitBytes("512k") == 512 << 10)
            #expect(limitBytes("64MiB") == 64 << 20)
            #expect(limitBytes("5000000") == 5_000_000)
            #expect(limitBytes("lots") == nil)
            #expect(limitBytes("-1M") == nil)
        }

        @Test("a program updating past the limit: never over it, exact drop counts, readable at any moment")
        func boundedAndExact() throws {
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let path = directory + "/run.trace"
            let previous = TraceFilePaths.previous(of: path)
            // Given a program making 1.5 million updates (about 8 MB of trace) under a 4 MB limit
            let (process, _) = try startFixture(
                ["1500000", "limited"], trace: path, environment: ["BIND_TRACE_LIMIT": "4M"])
            // Then while it runs, the two files together never hold more than the limit, and the
            // trace reads (cut short where the recorder is writing, never an error)
            var largest: Int64 = 0
            var reads = 0
            var readErrors: [String] = []
            while process.isRunning {
                largest = max(largest, fileSize(path) + fileSize(previous))
                if reads < 40, fileSize(path) > 0 {
                    reads += 1
                    do { _ = try TraceReader(path: path).readAll() } catch { readErrors.append("\(error)") }
                }
                usleep(2_000)
            }
            waitOrKill(process)
            #expect(process.terminationStatus == 0)
            largest = max(largest, fileSize(path) + fileSize(previous))
            #expect(largest <= Self.limit, "the files held \(largest) bytes at most")
            #expect(readErrors == [], "read while written")

            // And when it is done, each segment is whole; the newer names what came before it exactly
            let newer = try TraceReader(path: path)
            let newerEvents = try newer.readAll()
            let older = try TraceReader(path: previous)
            let olderEvents = try older.readAll()
            #expect(newer.isComplete && older.isComplete)
            expectConsistent(newerEvents)
            expectConsistent(olderEvents)
            let window = try #require(newer.window, "the trace rotated: its window record says so")
            let olderCount = UInt64(olderEvents.count) + older.skippedSequenceNumbers
            #expect(window.inPrevious == olderCount, "the previous segment holds what the window says")
            // Dropped: everything before the older segment, and the chunks a busy flush owed the older
            // segment that did not fit its share (docs/trace-format.md) — a few chunks at most, and
            // counted: every event number before this file is in the older one or in the count.
            let beforeOlder = older.window.map { $0.dropped + $0.inPrevious } ?? 0
            #expect(window.dropped >= beforeOlder, "dropped, exactly")
            #expect(window.dropped - beforeOlder < 8 * 65_536, "at most the chunks owed at the rotation")
            #expect(newer.lostEvents >= window.dropped, "what was dropped is counted as lost")
            #expect(window.segment == (older.window?.segment ?? 1) + 1)
            #expect((newer.windowStartOffset ?? 0) < 0, "the window began before this segment")
            // The last updates are there, in order, up to the program's last
            let updates = updates(labelled: "counter", in: olderEvents) + updates(labelled: "counter", in: newerEvents)
            #expect(updates > 0 && updates < 1_500_000, "the oldest updates were dropped, the newest kept")
        }

        /// Seconds of the soak: `BIND_SOAK_SECONDS` (BENCHMARKS.md's run: 600), else 3 (`make test`).
        static var soakSeconds: Int {
            ProcessInfo.processInfo.environment["BIND_SOAK_SECONDS"].flatMap(Int.init) ?? 3
        }

        @Test("a soak at full speed under the limit: never over it, memory flat, the rate near an unbounded trace's")
        func soak() throws {
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let seconds = Self.soakSeconds
            // Given the same program updating at full speed, recorded unbounded and under the limit
            let unbounded = try soakRun(directory + "/unbounded.trace", seconds: seconds, limit: nil)
            let bounded = try soakRun(directory + "/bounded.trace", seconds: seconds, limit: "4M")
            // Then the bounded files never held more than the limit, its memory stayed flat, and it
            // recorded nearly as fast (the short form's bound is loose: other builds share this machine)
            #expect(bounded.largest <= Self.limit, "at most \(bounded.largest) bytes")
            #expect(bounded.rss.count == seconds)
            // (A sanitizer's allocator quarantines what is freed, so its RSS grows by design: checked
            // without one.)
            let settled = bounded.rss.dropFirst().max() ?? 0
            if !Sanitizer.any {
                #expect(settled <= (bounded.rss.first ?? 0) + 4096, "RSS by second, KB: \(bounded.rss)")
            }
            let ratio = Double(bounded.updates) / Double(max(unbounded.updates, 1))
            #expect(ratio > (seconds >= 60 ? 0.9 : 0.6), "bounded \(bounded.updates), unbounded \(unbounded.updates)")
            print(
                "soak \(seconds) s: bounded \(bounded.updates) updates (largest \(bounded.largest) B, RSS KB "
                    + "\(bounded.rss)), unbounded \(unbounded.updates) updates: ratio \(ratio)")
        }

        /// Runs the soak fixture; returns its updates, its RSS each second and the most its files held.
        private func soakRun(_ path: String, seconds: Int, limit: String?) throws -> (
            updates: Int, rss: [Int], largest: Int64
        ) {
            let previous = TraceFilePaths.previous(of: path)
            let (process, output) = try startFixture(
                ["\(seconds)", "soak"], trace: path, environment: limit.map { ["BIND_TRACE_LIMIT": $0] } ?? [:])
            var largest: Int64 = 0
            while process.isRunning {
                largest = max(largest, fileSize(path) + fileSize(previous))
                usleep(5_000)
            }
            waitOrKill(process, seconds: Double(seconds) + 60)
            largest = max(largest, fileSize(path) + fileSize(previous))
            let lines = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                .split(separator: "\n")
            let rss = lines.compactMap { line in
                line.hasPrefix("second ") ? line.split(separator: " ").dropLast().last.flatMap { Int($0) } : nil
            }
            let total = lines.last { $0.hasPrefix("total ") }.flatMap { Int($0.dropFirst(6)) } ?? 0
            return (total, rss, largest)
        }
    }
}

private enum TraceFilePaths {
    static func previous(of path: String) -> String { String(path.dropLast(6)) + ".previous.trace" }
}

private func limitBytes(_ text: String) -> Int64? { FlightRecorder.parseLimit(text) }

private func fileSize(_ path: String) -> Int64 {
    var status = stat()
    return stat(path, &status) == 0 ? Int64(status.st_size) : 0
}
#endif
