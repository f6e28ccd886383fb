@_spi(Harness) import BindTraceModel
import BindTraceTestSupport
import Testing

/// What a reader makes of a trace that admits a loss, repeats a chunk, skips numbers or continues a
/// lost file: nothing counted twice, nothing missing in silence (docs/trace-format.md, "Crash
/// safety and loss").
@Suite("Loss accounting: repeated chunks, lost records, continued files")
struct LossAccountingTests {
    @Test("a chunk written twice is read once, and the reader says so")
    func repeatedChunk() throws {
        // Given a file whose second chunk was written again after it (a writer that wrote it twice)
        var trace = TraceWriter()
        trace.chunk(1) { $0.event(.released(output: 1)) }
        let second = trace.chunk(2) { chunk in
            for output in UInt64(2)...4 { chunk.event(.released(output: output)) }
        }
        trace.bytes += second
        trace.chunk(3) { $0.event(.released(output: 5)) }
        trace.end()

        // When it is read
        let reader = try TraceReader(bytes: trace.bytes)
        let events = try reader.readAll()

        // Then each event is there once, in order, and the repeat is told
        #expect(events.map(\.sequence) == [1, 2, 3, 4, 5])
        #expect(reader.repeatedChunks == 1)
        #expect(reader.warnings.count == 1)
        #expect(reader.warnings.first?.message.contains("chunk 2 is written again") == true, "\(reader.warnings)")
        #expect(reader.gaps.isEmpty, "nothing is missing")
    }

    @Test("lost records skip their events' numbers, so later causes still point at the right event")
    func lostNumbersAreSkipped() throws {
        // Given 3 events lost between a bind's update and an event it caused
        var trace = TraceWriter()
        let update = trace.event(.updated(output: 1, cause: nil, preview: nil))
        trace.lost(3)
        trace.event(.updated(output: 2, cause: TraceCause(subscription: 9, event: update), preview: nil))
        trace.end()

        // When it is read
        let reader = try TraceReader(bytes: trace.bytes)
        let events = try reader.readAll()

        // Then the second update is event 5, caused by event 1
        #expect(events.map(\.sequence) == [1, 5])
        #expect(events.last?.kind.cause == TraceCause(subscription: 9, event: 1))
        #expect(reader.skippedSequenceNumbers == 3)
        #expect(reader.lostEvents == 3)
    }

    @Test("many lost records make one warning that sums them, not one line each")
    func lostRecordsSummed() throws {
        var trace = TraceWriter()
        for output in UInt64(1)...300 {
            trace.event(.released(output: output))
            trace.lost(10_921)
        }
        trace.end()

        let reader = try TraceReader(bytes: trace.bytes)
        _ = try reader.readAll()

        #expect(reader.lostEvents == 300 * 10_921)
        #expect(reader.warnings.map(\.message) == ["the recorder lost 3276300 events in 300 places (the first here)"])
    }

    @Test("a chunk that starts past the next number, with no lost record, counts the missing events")
    func silentGapCounted() throws {
        // Given chunk 2 starts at event 7 although 2 events came before it and nothing says why
        var trace = TraceWriter()
        trace.chunk(1) { chunk in
            chunk.event(.released(output: 1))
            chunk.event(.released(output: 2))
        }
        trace.record(.chunk(number: 2, firstEvent: 7, bytes: 0))
        trace.end()

        let reader = try TraceReader(bytes: trace.bytes)
        _ = try reader.readAll()

        #expect(reader.lostEvents == 4)
        #expect(reader.gaps == [.lostEvents(4)])
        #expect(reader.warnings.contains { $0.message.contains("4 events are missing before chunk 2") })
    }

    @Test("a trace that continues a deleted file names it and counts what is not in it")
    func continuedFile() throws {
        var trace = TraceWriter()
        trace.record(.writer(process: 4242, group: 4200, session: 4000))
        trace.record(
            .continues(
                reason: TraceFormat.FileLoss.deleted.rawValue, writtenEvents: 100, lostEvents: 7,
                path: Array("/tmp/run.trace".utf8)))
        trace.event(.released(output: 1))
        trace.end()

        let reader = try TraceReader(bytes: trace.bytes)
        _ = try reader.readAll()

        #expect(reader.continuedFrom?.path == "/tmp/run.trace")
        #expect(reader.continuedFrom?.how == "deleted")
        #expect(reader.lostEvents == 107)
        #expect(reader.writer?.process == 4242)
        #expect(reader.warnings.first?.message.contains("continues /tmp/run.trace, which was deleted") == true)
    }

    @Test("a lost count larger than any trace numbers is corruption at its offset, not an overflow")
    func hostileLostCount() throws {
        var trace = TraceWriter()
        trace.event(.released(output: 1))
        let offset = trace.bytes.count
        trace.record(.lost(count: .max))
        trace.event(.released(output: 2))

        let reader = try TraceReader(bytes: trace.bytes)
        #expect(throws: TraceReadError.self) { _ = try reader.readAll() }
        do {
            _ = try TraceReader(bytes: trace.bytes).readAll()
        } catch {
            #expect(error.offset == offset)
        }
    }

    @Test("a repeated chunk whose claimed length ends inside a record is corruption")
    func repeatedChunkBadLength() throws {
        var trace = TraceWriter()
        trace.chunk(1) { $0.event(.released(output: 1)) }
        trace.record(.chunk(number: 1, firstEvent: 1, bytes: 1))
        trace.event(.released(output: 2))
        trace.end()

        #expect(throws: TraceReadError.self) { _ = try TraceReader(bytes: trace.bytes).readAll() }
    }
}
