@_spi(Harness) import BindTraceModel
import BindTraceTestSupport
import Testing

@Suite("The reader on bad input")
struct TraceReaderErrorTests {
    private func read(_ bytes: [UInt8]) throws(TraceReadError) -> (events: [TraceEvent], warnings: [TraceWarning]) {
        let reader = try TraceReader(bytes: bytes)
        let events = try reader.readAll()
        return (events, reader.warnings)
    }

    @Test("a file that is not a trace is rejected by its magic")
    func wrongMagic() {
        #expect(throws: TraceReadError.notATrace) { try read(Array("hello, this is not a trace".utf8)) }
    }

    @Test("an empty file and a cut header are reported as a truncated header")
    func truncatedHeader() {
        #expect(throws: TraceReadError.truncatedHeader(length: 0)) { try read([]) }
        let header = TraceBytes().bytes
        #expect(throws: TraceReadError.truncatedHeader(length: 10)) { try read(Array(header.prefix(10))) }
        #expect(TraceReadError.truncatedHeader(length: 0).description.hasPrefix("empty file"))
        #expect(TraceReadError.truncatedHeader(length: 10).description == "truncated header: 10 of 16 bytes")
    }

    @Test("a future major version is refused, naming the version")
    func futureVersion() {
        #expect(throws: TraceReadError.unsupportedVersion(major: 2, minor: 0)) { try read(TraceBytes(major: 2).bytes) }
    }

    @Test("a newer minor version with unknown records is read, skipping them with a warning")
    func unknownRecordKind() throws {
        var trace = TraceBytes(minor: 7)
        trace.clock()
        trace.record(9, [1, 2, 3])
        trace.update(1)
        let (events, warnings) = try read(trace.bytes)
        #expect(events.count == 1)
        #expect(warnings.contains { $0.message.contains("unknown kind 9") })
    }

    @Test("a record claiming 4 GB is corruption at its offset, not an allocation")
    func hugeLength() {
        var trace = TraceBytes()
        trace.clock()
        let offset = trace.bytes.count
        trace.bytes += [14] + TraceBytes.varint(4 << 30) + [0, 0, 0]
        #expect(throws: TraceReadError.recordTooLong(offset: offset, length: 4 << 30)) { try read(trace.bytes) }
    }

    @Test("a length whose varint never ends is corruption, not an endless loop")
    func endlessVarint() {
        var trace = TraceBytes()
        let offset = trace.bytes.count
        trace.bytes += [14] + [UInt8](repeating: 0xFF, count: 12)
        #expect(throws: TraceReadError.self) { try read(trace.bytes) }
        do {
            _ = try read(trace.bytes)
        } catch {
            #expect(error.offset == offset)
        }
    }

    @Test("a reference to an undefined string names the record's offset")
    func undefinedString() {
        var trace = TraceBytes()
        trace.clock()
        let offset = trace.bytes.count
        trace.record(21, [1, 99, 0])  // mark named by string 99
        #expect(throws: TraceReadError.unknownString(offset: offset, id: 99)) { try read(trace.bytes) }
    }

    @Test("a string table entry defined twice is reported")
    func stringDefinedTwice() {
        var trace = TraceBytes()
        trace.string(1, "a")
        let offset = trace.bytes.count
        trace.string(1, "b")
        #expect(throws: TraceReadError.stringDefinedTwice(offset: offset, id: 1)) { try read(trace.bytes) }
    }

    @Test("garbage strings decode to text with replacement characters, never a crash")
    func invalidUTF8() throws {
        var trace = TraceBytes()
        trace.clock()
        trace.record(2, [1], trailing: [0xFF, 0xFE, 0x41, 0xC3])
        trace.record(21, [1, 1, 0])
        let (events, _) = try read(trace.bytes)
        guard case .mark(let name, _) = events.first?.kind else {
            Issue.record("expected a mark")
            return
        }
        #expect(name.contains("A"))
        #expect(name.contains("\u{FFFD}"))
    }

    @Test("a field running past its record's end is malformed, at the record's offset")
    func fieldPastEnd() {
        var trace = TraceBytes()
        trace.clock()
        let offset = trace.bytes.count
        trace.record(14, [1])  // an update with no output field
        #expect(throws: TraceReadError.malformedRecord(offset: offset, tag: 14, reason: "record ends inside a field")) {
            try read(trace.bytes)
        }
    }

    @Test("an unknown unbind reason or output kind is malformed")
    func unknownEnumValues() {
        var trace = TraceBytes()
        trace.clock()
        trace.record(16, [1, 5, 200, 0])
        #expect(throws: TraceReadError.self) { try read(trace.bytes) }
    }

    @Test("every whole record before a cut is returned, then a warning says what was ignored")
    func truncationSweep() throws {
        var trace = TraceBytes()
        trace.clock()
        trace.string(1, "App/View.swift")
        trace.string(2, "Int")
        trace.record(10, [1, 1, 0, 2, 1, 7, 0, 0, 0, 0])
        var boundaries: [Int] = [trace.bytes.count]
        for output in 0..<20 {
            trace.update(UInt64(output % 2))
            boundaries.append(trace.bytes.count)
        }
        trace.record(4, [])
        let whole = try read(trace.bytes)
        #expect(whole.events.count == 21)
        #expect(whole.warnings.isEmpty)
        for cut in 16..<trace.bytes.count {
            let (events, warnings) = try read(Array(trace.bytes.prefix(cut)))
            let expected = (boundaries.lastIndex { $0 <= cut }).map { $0 + 1 } ?? 0
            #expect(events.count == expected, "cut at \(cut)")
            #expect(events.map(\.kind) == whole.events.prefix(expected).map(\.kind), "cut at \(cut)")
            #expect(!warnings.isEmpty, "cut at \(cut) must be reported")
        }
    }

    @Test("a missing file gives a clear error")
    func missingFile() {
        #expect(throws: TraceReadError.cannotOpen(reason: "No such file or directory")) {
            try TraceReader(path: "/nonexistent/dir/x.trace")
        }
    }
}
