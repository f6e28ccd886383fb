import BindTraceTestSupport
import Foundation
import Testing

@testable import BindTraceFormat
@_spi(Harness) @testable import BindTraceModel

/// A trace with every kind of event, on two threads, with a few thousand events: enough for many
/// batches, and detailed events (strings, previews) mixed with compact ones.
func mixedTrace(cells: Int = 300) -> TraceWriter {
    var trace = TraceWriter()
    for cell in 0..<UInt64(cells) {
        trace.thread(1 + cell % 2)
        let scope = 1000 + cell
        let output = 10 * cell + 1
        let mapped = output + 1
        let subscription = 10 * cell + 5
        trace.event(.scopeBegan(id: scope, parent: 0, name: "cell", site: SourceSite(file: "App/Cell.swift", line: 3)))
        trace.event(
            .outputCreated(
                TraceEvent.OutputCreation(
                    output: output, kind: .output, valueType: "Int", site: SourceSite(file: "App/Cell.swift", line: 4),
                    label: cell % 7 == 0 ? "item \(cell)" : nil, scope: scope)))
        trace.event(
            .outputCreated(
                TraceEvent.OutputCreation(
                    output: mapped, kind: .map, valueType: "String", site: SourceSite(file: "App/Cell.swift", line: 5),
                    scope: scope)))
        trace.event(.edge(source: output, derived: mapped, operation: .map))
        let bind = trace.event(
            .bound(
                TraceEvent.Binding(
                    subscription: subscription, output: mapped, site: SourceSite(file: "App/Cell.swift", line: 6),
                    target: cell % 3 == 0 ? BinderTarget(type: "Label", identity: 0xA000 + cell) : nil, scope: scope)))
        trace.event(.subscriptionContained(subscription: subscription, container: 77))
        for step in 0..<UInt64(5) {
            let update = trace.event(
                .updated(output: output, cause: nil, preview: step == 2 ? "value \(cell)" : nil), delta: 300 + step)
            trace.event(.updated(output: mapped, cause: TraceCause(subscription: 0, event: update), preview: nil))
            if step == 4 {
                trace.event(
                    .fired(output: mapped, cause: TraceCause(subscription: subscription, event: bind), preview: nil))
            }
        }
        if cell % 11 == 0 { trace.event(.dangling(subscription: subscription)) }
        if cell % 13 == 0 { trace.event(.mark(name: "checkpoint", scope: scope)) }
        if cell % 17 == 0 { trace.event(.labeled(output: output, label: "relabelled")) }
        trace.event(.handleReleased(subscription: subscription))
        trace.event(.unbound(subscription: subscription, reason: .container, cause: nil))
        trace.event(.innerSwitch(flatMap: mapped, inner: output))
        trace.event(.released(output: mapped))
        trace.event(.released(output: output))
        trace.event(.scopeEnded(id: scope), delta: 1_000_000)
    }
    return trace
}

/// Every event of `bytes` read one by one, and the error that stopped the reading, if any.
func sequentialRead(_ bytes: [UInt8]) throws -> (events: [TraceEvent], failure: TraceReadError?) {
    let reader = try TraceReader(bytes: bytes)
    var events: [TraceEvent] = []
    do {
        while let event = try reader.next() { events.append(event) }
    } catch {
        return (events, error)
    }
    return (events, nil)
}

/// Every event of `bytes` read ahead on a second thread in batches of `batchSize`, and the error.
func readAheadRead(_ bytes: [UInt8], batches: Int = 3, batchSize: Int) throws -> (
    events: [TraceEvent], failure: TraceReadError?, reader: TraceReader
) {
    let reader = try TraceReader(bytes: bytes)
    let readAhead = TraceReadAhead(reader, batches: batches, batchSize: batchSize)
    var events: [TraceEvent] = []
    var failure: TraceReadError?
    var strings = DefinedStrings()
    while let batch = readAhead.next() {
        #expect(batch.count <= batchSize)
        strings.take(batch)
        for index in 0..<batch.count { events.append(strings.event(in: batch, at: index)) }
        if let error = batch.failure { failure = error }
        readAhead.recycle(batch)
    }
    return (events, failure, reader)
}

@Suite("Reading ahead on a second thread")
struct ReadAheadTests {
    @Test("read ahead in batches of any size, a trace gives exactly the events of a plain sequential read")
    func sameEvents() throws {
        var trace = mixedTrace()
        trace.end()
        let sequential = try sequentialRead(trace.bytes)
        #expect(sequential.failure == nil)
        #expect(sequential.events.count == Int(trace.sequence))
        for batchSize in [1, 7, 64, EventBatch.defaultCapacity] {
            let ahead = try readAheadRead(trace.bytes, batchSize: batchSize)
            #expect(ahead.failure == nil)
            #expect(ahead.events == sequential.events, "batches of \(batchSize)")
            #expect(ahead.reader.isComplete)
            #expect(ahead.reader.warnings.isEmpty)
        }
    }

    @Test("an error in the middle ends the last batch with the same error, after the same events")
    func errorInTheMiddle() throws {
        var trace = mixedTrace(cells: 40)
        let offset = trace.bytes.count
        // An unbind: tick delta, subscription, an unknown reason, no cause.
        trace.raw(tag: TraceFormat.Tag.unbound.rawValue, fields: [1, 1, 200, 0])
        trace.bytes += mixedTrace(cells: 5).bytes.dropFirst(TraceFormat.headerSize)
        let sequential = try sequentialRead(trace.bytes)
        let expected = TraceReadError.malformedRecord(
            offset: offset, tag: TraceFormat.Tag.unbound.rawValue, reason: "unknown unbind reason 200")
        #expect(sequential.failure == expected)
        for batchSize in [1, 5, 1000] {
            let ahead = try readAheadRead(trace.bytes, batchSize: batchSize)
            #expect(ahead.failure == expected)
            #expect(ahead.events == sequential.events)
            // The error is final: the reader gives it again.
            #expect(throws: expected) { try ahead.reader.next() }
        }
    }

    @Test("a trace cut short gives the same events and the same warning read ahead")
    func cutShort() throws {
        let bytes = Array(mixedTrace(cells: 50).bytes.dropLast(3))
        let sequentialReader = try TraceReader(bytes: bytes)
        let events = try sequentialReader.readAll()
        let ahead = try readAheadRead(bytes, batchSize: 16)
        #expect(ahead.failure == nil)
        #expect(ahead.events == events)
        #expect(ahead.reader.warnings == sequentialReader.warnings)
        #expect(ahead.reader.ignoredBytes == sequentialReader.ignoredBytes)
    }

    @Test("a consumer that stops early lets the decoding thread go (stress)", .timeLimit(.minutes(1)))
    func stopEarly() throws {
        var trace = mixedTrace(cells: 60)
        trace.end()
        let bytes = trace.bytes
        let expected = try sequentialRead(bytes).events
        let rounds = Rounds()
        // On a thread of its own: a read-ahead whose decoder never stops would block its deinit (the
        // join) for good, and the test must fail, not hang.
        Thread {
            for round in 0..<200 {
                guard let reader = try? TraceReader(bytes: bytes) else { return }
                let readAhead = TraceReadAhead(reader, batches: 1 + round % 3, batchSize: 1 + round % 5)
                // Take a few batches, keep none of them: the decoder is waiting for an empty batch, or
                // still decoding, when the read-ahead goes away.
                var events: [TraceEvent] = []
                var strings = DefinedStrings()
                for _ in 0..<(round % 4) {
                    guard let batch = readAhead.next() else { break }
                    strings.take(batch)
                    for index in 0..<batch.count { events.append(strings.event(in: batch, at: index)) }
                    readAhead.recycle(batch)
                }
                rounds.finish(round, gotPrefix: events == Array(expected.prefix(events.count)))
            }
        }.start()
        #expect(rounds.done.wait(timeout: .now() + 50) == .success, "a read-ahead stopped early never let go")
        #expect(rounds.finished == 200)
        #expect(rounds.wrongBatches.isEmpty, "rounds whose batches were not the trace's first events")
    }

    @Test("batches read on one thread are those read ahead")
    func sequentialBatches() throws {
        var trace = mixedTrace(cells: 30)
        trace.end()
        let reader = try TraceReader(bytes: trace.bytes)
        var batch = EventBatch()
        var events: [TraceEvent] = []
        var strings = DefinedStrings()
        repeat {
            reader.read(into: &batch, maximumEvents: 10)
            strings.take(batch)
            for index in 0..<batch.count { events.append(strings.event(in: batch, at: index)) }
            #expect(batch.bytesRead == reader.bytesRead)
        } while !batch.isLast
        #expect(events == (try sequentialRead(trace.bytes).events))
        // After the end: empty last batches.
        reader.read(into: &batch)
        #expect(batch.count == 0 && batch.isLast && batch.failure == nil)
    }
}

@Suite("Compact events")
struct CompactEventTests {
    @Test("a frequent event without strings has a compact form holding the same event; any other is detailed")
    func roundTrip() throws {
        var trace = mixedTrace(cells: 20)
        trace.end()
        let events = try sequentialRead(trace.bytes).events
        var compactCount = 0
        for event in events {
            if let compact = CompactEvent(event) {
                compactCount += 1
                #expect(TraceEvent(compact, in: EventBatch(), strings: [""]) == event)
            } else {
                switch event.kind {
                case .outputCreated, .bound, .scopeBegan, .mark, .labeled: break
                // Rare kinds are detailed: a new kind needs no compact form (docs/architecture.md).
                case .dangling, .stopped, .resumed: break
                case .updated(_, _, let preview), .fired(_, _, let preview): #expect(preview != nil)
                default: Issue.record("\(event.kind.name) has no compact form")
                }
                let detailed = CompactEvent(
                    sequence: event.sequence, time: event.time, thread: event.thread, offset: event.offset,
                    tag: event.kind.tag, kind: .detailed(1))
                var batch = EventBatch()
                batch.details = [.mark(name: "other", scope: 0), event.kind]
                #expect(TraceEvent(detailed, in: batch, strings: [""]) == event)
            }
        }
        #expect(compactCount > events.count / 2)
    }

    @Test("binds and creations in a batch keep their strings as ids, which the batches' strings resolve")
    func bindsAndCreationsByStringID() throws {
        var trace = mixedTrace(cells: 40)
        trace.end()
        let reader = try TraceReader(bytes: trace.bytes)
        var batch = EventBatch()
        var strings = DefinedStrings()
        var binds = 0
        var creations = 0
        repeat {
            reader.read(into: &batch, maximumEvents: 16)
            strings.take(batch)
            strings.take(batch)  // taken again: nothing added twice
            for event in batch.events {
                if case .bound(let index) = event.kind {
                    binds += 1
                    #expect(batch.bindings[index].file < UInt64(strings.texts.count))
                }
                if case .outputCreated = event.kind { creations += 1 }
            }
        } while !batch.isLast
        #expect(binds == 40 && creations == 80)
        #expect(strings.texts.contains("App/Cell.swift") && strings.texts.contains("Label"))
        #expect(Set(strings.texts).count == strings.texts.count)
    }

    @Test("a bind or creation naming a string never defined fails at its record, read ahead or not")
    func undefinedStringInCompactEvents() throws {
        let records: [EventRecord] = [
            .bound(
                subscription: 5, output: 1, file: 1, line: 3, flags: TraceFormat.BindFlag.binder,
                target: EventRecord.BoundTarget(type: 900, identity: 0xA), scope: 0, cause: .none),
            .outputCreated(
                output: 2, kind: .map, valueType: 1, file: 1, line: 4, label: 800, scope: 0, preexisting: false,
                cause: .none),
        ]
        for record in records {
            var trace = mixedTrace(cells: 3)
            let offset = trace.bytes.count
            trace.record(.event(delta: 1, record))
            trace.end()
            let sequential = try sequentialRead(trace.bytes)
            let expected = TraceReadError.unknownString(offset: offset, id: record.tag == .bound ? 900 : 800)
            #expect(sequential.failure == expected)
            for batchSize in [1, 5, EventBatch.defaultCapacity] {
                let ahead = try readAheadRead(trace.bytes, batchSize: batchSize)
                #expect(ahead.failure == expected)
                #expect(ahead.events == sequential.events)
            }
        }
    }

    @Test("a tag byte decodes to the tag its raw value names, and to none otherwise")
    func tagBytes() {
        for byte in UInt8.min...UInt8.max {
            #expect(TraceFormat.Tag.decoded(byte) == TraceFormat.Tag(rawValue: byte))
        }
    }

    @Test("binds, unbinds, creations, releases, edges, scope ends: read in one pass, errors as the general path's")
    func structuralEvents() throws {
        let site = SourceSite(file: "App/Cell.swift", line: 12)
        let kinds: [TraceEvent.Kind] = [
            .bound(.init(subscription: 7, output: 3, site: site, isInternal: true)),
            .bound(
                .init(
                    subscription: 1 << 30, output: 200_000, site: site,
                    target: BinderTarget(type: "UILabel", identity: 0xDEAD_BEEF_0000), scope: 4, preexisting: true,
                    cause: TraceCause(subscription: 7, event: 1))),
            .unbound(subscription: 7, reason: .container, cause: TraceCause(subscription: 7, event: 2)),
            .unbound(subscription: 1 << 40, reason: .outputReleased, cause: nil),
            .outputCreated(.init(output: 3, kind: .map, valueType: "Int", site: site)),
            .outputCreated(
                .init(
                    output: 1 << 40, kind: .relay, valueType: "String", site: site, label: "title", scope: 9,
                    preexisting: true, cause: TraceCause(subscription: 7, event: 2))),
            .released(output: 3),
            .scopeEnded(id: 70_000),
            .edge(source: 1, derived: 3, operation: .flatMap),
        ]
        var trace = TraceWriter()
        for kind in kinds { trace.event(kind) }
        trace.end()
        let events = try TraceReader(bytes: trace.bytes).readAll()
        #expect(events.map(\.kind) == kinds)

        // Every record of these kinds cut short inside its fields (its length says so): the error
        // the general decoder gives for the same payload, at the record's offset.
        for kind in kinds {
            var whole = TraceWriter()
            whole.event(kind)
            let start = lastRecordStart(whole.bytes)
            let tag = whole.bytes[start]
            try #require(whole.bytes[start + 1] < 0x80, "a one-byte length")
            let payload = Array(whole.bytes[(start + 2)...])
            for cut in 0..<payload.count {
                var damaged = TraceWriter()
                for text in ["App/Cell.swift", "UILabel", "Int", "String", "title"] { _ = damaged.string(text) }
                let offset = damaged.bytes.count
                damaged.bytes += [tag, UInt8(cut)] + payload[..<cut]
                damaged.end()
                let raw = UnsafeMutableRawBufferPointer.allocate(byteCount: max(cut, 1), alignment: 1)
                defer { raw.deallocate() }
                raw.copyBytes(from: payload[..<cut])
                var general = PayloadDecoder(bytes: UnsafeRawBufferPointer(raw), start: 0, end: cut)
                let tagValue = try #require(TraceFormat.Tag(rawValue: tag))
                var expected: RecordDecodingError?
                do { _ = try TraceRecord.decode(tagValue, &general) } catch { expected = error }
                let reason = try #require(expected, "a payload cut at \(cut) of \(payload.count) is malformed").reason
                #expect(throws: TraceReadError.malformedRecord(offset: offset, tag: tag, reason: reason)) {
                    try TraceReader(bytes: damaged.bytes).readAll()
                }
            }
        }

        // A string id the trace never defined: the general path's error, for a bind and a creation.
        let undefinedFile: [(tag: UInt8, fields: [UInt64])] = [
            (13, [1, 1, 2, 99, 5, 0, 0, 0]),  // a bind: delta, subscription, output, file 99…
            (10, [1, 3, 1, 99, 2, 5, 0, 0, 0, 0]),  // a creation: delta, output, kind, value type 99…
        ]
        for (tag, fields) in undefinedFile {
            var unknown = TraceWriter()
            _ = unknown.string("Int")
            let offset = unknown.bytes.count
            unknown.raw(tag: tag, fields: fields)
            #expect(throws: TraceReadError.unknownString(offset: offset, id: 99)) {
                try TraceReader(bytes: unknown.bytes).readAll()
            }
        }
    }

    @Test(
        "runs of updates across the reader's refills give a sequential read's events and causes before the start"
    )
    func updateRunsAcrossRefills() throws {
        // Given a trace file longer than the reader's read size, mostly runs of updates and fires (a
        // few with previews, a fifth caused from before the trace's first event) between other events,
        var trace = TraceWriter()
        trace.thread(1)
        trace.event(
            .outputCreated(
                TraceEvent.OutputCreation(
                    output: 1, kind: .output, valueType: "Int", site: SourceSite(file: "App/Model.swift", line: 2),
                    scope: 0)))
        var previous: UInt64 = 1
        for index in 0..<UInt64(200_000) {
            let cause: TraceCause? =
                switch index % 5 {
                case 0: nil
                case 1: TraceCause(subscription: 4, event: 0)
                default: TraceCause(subscription: 3, event: previous)
                }
            let preview = index % 997 == 0 ? "value \(index)" : nil
            previous = trace.event(
                index % 3 == 0
                    ? .fired(output: 1, cause: cause, preview: preview)
                    : .updated(output: 1, cause: cause, preview: preview), delta: 1 + index % 300)
            if index % 5_000 == 0 { trace.event(.mark(name: "checkpoint", scope: 0)) }
        }
        trace.end()
        let path = temporaryTracePath()
        defer { unlink(path) }
        try Data(trace.bytes).write(to: URL(fileURLWithPath: path))
        #expect(trace.bytes.count > TraceReader.chunkSize)
        let sequentialReader = try TraceReader(path: path)
        var sequential: [TraceEvent] = []
        while let event = try sequentialReader.next() { sequential.append(event) }
        // when it is read in batches,
        let batchReader = try TraceReader(path: path)
        var batch = EventBatch()
        var strings = DefinedStrings()
        var batched: [TraceEvent] = []
        repeat {
            batchReader.read(into: &batch, maximumEvents: 1000)
            #expect(batch.failure == nil)
            strings.take(batch)
            for index in 0..<batch.count { batched.append(strings.event(in: batch, at: index)) }
        } while !batch.isLast
        // then it gives the same events and counts the same causes from before its start.
        #expect(batched.count == Int(trace.sequence))
        #expect(batched == sequential)
        #expect(batchReader.causesBeforeStart == 40_000)
        #expect(batchReader.causesBeforeStart == sequentialReader.causesBeforeStart)
        #expect(batchReader.isComplete)
    }

    @Test("the one-pass update decoder reads what the general decoder reads, with the same errors")
    func decodeUpdate() throws {
        let records: [EventRecord] = [
            .update(output: 3, cause: .none, preview: nil),
            .fire(output: 1 << 40, cause: CauseField(back: 70_000, subscription: 1 << 20), preview: nil),
            .update(output: 200_000, cause: CauseField(back: 1, subscription: 9), preview: Array("v".utf8)),
        ]
        for event in records {
            var bytes: [UInt8] = []
            TraceRecord.event(delta: 123_456, event).encode(into: &bytes)
            let raw = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
            defer { raw.deallocate() }
            raw.copyBytes(from: bytes)
            var general = PayloadDecoder(bytes: UnsafeRawBufferPointer(raw), start: 2, end: raw.count)
            var fast = general
            let decoded = try TraceRecord.decode(try #require(TraceFormat.Tag(rawValue: bytes[0])), &general)
            if let fields = try TraceRecord.decodeUpdate(&fast) {
                let expected: EventRecord =
                    bytes[0] == TraceFormat.Tag.update.rawValue
                    ? .update(output: fields.output, cause: fields.cause, preview: nil)
                    : .fire(output: fields.output, cause: fields.cause, preview: nil)
                #expect(decoded == .event(delta: fields.delta, expected))
            } else {
                // A preview: left for the general decoder.
                #expect(fast.cursor == 2)
                #expect(decoded == .event(delta: 123_456, event))
            }
        }
        // Cut inside a field: the same error either way.
        let cut = UnsafeMutableRawBufferPointer.allocate(byteCount: 3, alignment: 1)
        defer { cut.deallocate() }
        cut.copyBytes(from: [0x80, 0x01, 0x85] as [UInt8])
        var general = PayloadDecoder(bytes: UnsafeRawBufferPointer(cut), start: 0, end: cut.count)
        var fast = general
        #expect(throws: RecordDecodingError("record ends inside a field")) { try TraceRecord.decode(.update, &general) }
        #expect(throws: RecordDecodingError("record ends inside a field")) { try TraceRecord.decodeUpdate(&fast) }
    }
}

/// Where the last record of `bytes` (a header, then whole records) starts.
private func lastRecordStart(_ bytes: [UInt8]) -> Int {
    var position = TraceFormat.headerSize
    var last = position
    while position < bytes.count {
        last = position
        var length = 0
        var shift = 0
        var cursor = position + 1
        while true {
            let byte = bytes[cursor]
            cursor += 1
            length |= Int(byte & 0x7F) << shift
            if byte & 0x80 == 0 { break }
            shift += 7
        }
        position = cursor + length
    }
    return last
}

/// What `stopEarly`'s rounds did, from their thread.
private final class Rounds: @unchecked Sendable {
    let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var count = 0
    private var wrong: [Int] = []

    func finish(_ round: Int, gotPrefix: Bool) {
        lock.withLock {
            count += 1
            if !gotPrefix { wrong.append(round) }
            if count == 200 { done.signal() }
        }
    }
    var finished: Int { lock.withLock { count } }
    var wrongBatches: [Int] { lock.withLock { wrong } }
}
