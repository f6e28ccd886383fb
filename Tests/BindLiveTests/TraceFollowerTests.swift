@_spi(Harness) import BindAnalysis
import BindLive
@_spi(Harness) import BindTraceModel
import BindTraceTestSupport
import Foundation
import Testing

@Suite("TraceFollower: a trace read while it is written")
struct TraceFollowerTests {
    @Test("each poll reads what the file gained; half a record waits for the rest instead of ending the trace")
    func readsWhatTheFileGained() throws {
        // Given a trace file holding its header and one Output.
        let file = try GrowingFile()
        defer { file.cleanUp() }
        var trace = TraceWriter()
        trace.event(.outputCreated(Self.creation(1, label: "email")))
        file.append(trace.bytes)
        let follower = TraceFollower(path: file.path, follows: true)

        // When it is polled, then the file gains half a record, then the rest.
        follower.poll(now: 0)
        let first = follower.snapshot().outputs.map(\.id)
        let before = trace.bytes.count
        trace.event(.outputCreated(Self.creation(2, label: "password")))
        let record = Array(trace.bytes[before...])
        file.append(Array(record.prefix(record.count / 2)))
        follower.poll(now: 0.05)
        let half = follower.snapshot().outputs.map(\.id)
        file.append(Array(record.dropFirst(record.count / 2)))
        follower.poll(now: 0.1)

        // Then each Output appears once whole, and the trace is still followed.
        #expect(first == [1])
        #expect(half == [1])
        #expect(follower.snapshot().outputs.map(\.id) == [1, 2])
        #expect(follower.status == .following)
        #expect(follower.warnings.isEmpty)
    }

    @Test("an end record ends the trace; another run on the same path starts run 2 from its first event")
    func anotherRunContinues() throws {
        let file = try GrowingFile()
        defer { file.cleanUp() }
        var first = TraceWriter()
        first.record(.writer(process: 1, group: 1, session: 1))
        first.event(.outputCreated(Self.creation(1, label: "email")))
        first.end()
        file.append(first.bytes)
        let follower = TraceFollower(path: file.path, follows: true)
        follower.poll(now: 0)
        #expect(follower.status == .ended(.finished))

        // When another process records to the same path (the recorder empties the file and starts again).
        var second = TraceWriter()
        second.record(.writer(process: 2, group: 2, session: 2))
        second.event(.outputCreated(Self.creation(7, label: "name")))
        second.event(.outputCreated(Self.creation(8, label: "age")))
        file.replace(second.bytes)
        follower.poll(now: 0.05)

        #expect(follower.run == 2)
        #expect(follower.status == .following)
        #expect(follower.snapshot().outputs.map(\.id) == [7, 8])
        #expect(follower.events == 2)
        #expect(follower.totalEvents == 3)
    }

    @Test("a flight recording's next segment takes the path: followed on, named as its segment, not as a new run")
    func flightRecordingSegments() throws {
        let file = try GrowingFile()
        defer { file.cleanUp() }
        // Given the first segment of a flight recording, finished when the recorder rotated it
        var first = TraceWriter(minor: 4)
        first.record(.writer(process: 1, group: 1, session: 1))
        first.event(.outputCreated(Self.creation(1, label: "counter")))
        first.end()
        file.append(first.bytes)
        let follower = TraceFollower(path: file.path, follows: true)
        follower.poll(now: 0)
        #expect(follower.segment == nil)

        // When the second segment takes the path: its window record, the counter announced again
        var second = TraceWriter(minor: 4)
        second.record(.writer(process: 1, group: 1, session: 1))
        second.record(.window(eventsBefore: 1, inPrevious: 1, windowStart: 0, segment: 2))
        var counter = Self.creation(1, label: "counter")
        counter.preexisting = true
        second.event(.outputCreated(counter))
        second.event(.updated(output: 1, cause: nil, preview: nil))
        file.replace(second.bytes)
        follower.poll(now: 0.05)

        // Then it is followed on and says which segment it reads, and what came before it
        #expect(follower.status == .following)
        #expect(follower.segment == 2)
        #expect(follower.sentence.contains("segment 2 of a flight recording (BIND_TRACE_LIMIT)"))
        #expect(follower.snapshot().outputs.map(\.id) == [1])
        let message = LiveMessage.state(of: follower, index: 0, name: "app.trace")
        #expect(message.contains("\"segment\":2"), "\(message)")
    }

    @Test("the newest events are a bounded window, however long the trace")
    func newestEventsAreBounded() throws {
        let file = try GrowingFile()
        defer { file.cleanUp() }
        var trace = TraceWriter()
        trace.event(.outputCreated(Self.creation(1, label: "count")))
        for _ in 0..<5_000 { trace.event(.updated(output: 1, cause: nil, preview: nil)) }
        file.append(trace.bytes)
        var limits = LiveLimits()
        limits.recentEvents = 10
        let follower = TraceFollower(path: file.path, follows: true, limits: limits)

        follower.poll(now: 0)

        #expect(follower.recent.lines.map(\.sequence) == Array(4_992...5_001))
        #expect(follower.recent.lines.last?.text == "update 'count' (Int)")
    }

    static func creation(_ id: UInt64, label: String) -> TraceEvent.OutputCreation {
        TraceEvent.OutputCreation(
            output: id, kind: .output, valueType: "Int", site: SourceSite(file: "App/Model.swift", line: 3),
            label: label, scope: 0, cause: nil)
    }
}

/// A trace file in a fresh directory that a test appends to, as a recorder does.
struct GrowingFile {
    let path: String

    init() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        path = directory.appendingPathComponent("app.trace").path
        _ = FileManager.default.createFile(atPath: path, contents: nil)
    }

    func append(_ bytes: [UInt8]) {
        guard let handle = FileHandle(forWritingAtPath: path) else { return }
        handle.seekToEndOfFile()
        handle.write(Data(bytes))
        try? handle.close()
    }

    /// Empties the file in place and writes `bytes`, as a recorder starting another run does.
    func replace(_ bytes: [UInt8]) {
        guard let handle = FileHandle(forWritingAtPath: path) else { return }
        handle.truncateFile(atOffset: 0)
        handle.write(Data(bytes))
        try? handle.close()
    }

    func cleanUp() { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
}
