@_spi(Harness) import BindTraceModel
import BindTraceTestSupport
import Foundation
import Testing

/// Inputs the fuzz targets (Fuzz/run.sh) and the hardening review found, kept as specifications.
///
/// Every file in Fuzz/regressions and every seed in Fuzz/corpus/traces is read here on each
/// `swift test`, so a reader change that brings back a crash, a hang or a made-up event fails the
/// ordinary test run, not only a fuzzing session.
@Suite("Fuzz regressions: the reader on hostile input")
struct FuzzRegressionTests {
    /// Fuzz/ beside Tests/ in this checkout.
    private static let fuzzDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz")

    private static func inputs(in folder: String) -> [URL] {
        let directory = fuzzDirectory.appendingPathComponent(folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.sorted().map { directory.appendingPathComponent($0) }
    }

    private static func input(_ name: String) throws -> [UInt8] {
        try contents(of: fuzzDirectory.appendingPathComponent("regressions/reader/" + name))
    }

    /// The bytes of a file. An empty file is not read: Foundation's `Data(contentsOf:)` leaks a
    /// 4 KiB buffer on one (seen under AddressSanitizer), which would fail `make sanitize`.
    private static func contents(of file: URL) throws -> [UInt8] {
        let size = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int ?? 0
        return size == 0 ? [] : try [UInt8](Data(contentsOf: file))
    }

    /// Reads `bytes` to the end or the first error, checking what the fuzz target checks.
    private func readChecked(_ bytes: [UInt8], name: String) -> (events: [TraceEvent], error: TraceReadError?) {
        let reader: TraceReader
        do {
            reader = try TraceReader(bytes: bytes)
        } catch {
            #expect(error.offset == 0, "\(name): header errors are at offset 0")
            return ([], error)
        }
        var events: [TraceEvent] = []
        do {
            while let event = try reader.next() {
                #expect(
                    event.sequence == UInt64(events.count + 1) &+ reader.skippedSequenceNumbers,
                    "\(name): sequence numbers go 1, 2, 3, …, skipping only the events the trace says it lost")
                #expect(event.offset >= 16 && event.offset < bytes.count, "\(name): offset inside the input")
                #expect(event.offset > (events.last?.offset ?? 0), "\(name): offsets increase")
                if let cause = event.kind.cause { #expect(cause.event < event.sequence, "\(name): causes come first") }
                events.append(event)
            }
            #expect(try reader.next() == nil, "\(name): the end is final")
        } catch {
            #expect(error.offset >= 16 && error.offset < bytes.count, "\(name): error offset inside the input")
            return (events, error)
        }
        return (events, nil)
    }

    @Test("every committed regression input and seed is read to an end or an error, never a crash")
    func everyInput() throws {
        let files = Self.inputs(in: "regressions/reader") + Self.inputs(in: "corpus/traces")
        #expect(files.count >= 20, "the corpus is found next to the tests")
        for file in files {
            let bytes = try Self.contents(of: file)
            let memory = readChecked(bytes, name: file.lastPathComponent)
            // The file reader (buffered, refilled) says exactly the same.
            var fromFile: [TraceEvent] = []
            var fileError: TraceReadError?
            do {
                let reader = try TraceReader(path: file.path)
                while let event = try reader.next() { fromFile.append(event) }
            } catch {
                fileError = error
            }
            #expect(fromFile == memory.events, "\(file.lastPathComponent): file and memory readers agree")
            #expect(fileError == memory.error, "\(file.lastPathComponent): file and memory readers agree")
        }
    }

    @Test(
        "an error is final: next() after a thrown error returns no event",
        .bug(id: "harden-to-lead-1")
    )
    func errorIsFinal() throws {
        // Header · clock · a thread record whose number does not fit 32 bits (offset 21) · an update.
        let bytes = try Self.input("error-then-event.bin")
        let reader = try TraceReader(bytes: bytes)
        #expect(throws: TraceReadError.malformedRecord(offset: 21, tag: 3, reason: "thread number too large")) {
            try reader.next()
        }
        var after: TraceEvent?
        var again: TraceReadError?
        do { after = try reader.next() } catch { again = error }
        #expect(after == nil, "no event from beyond the corrupt record")
        #expect(again?.offset == 21, "the same error again")
    }

    @Test("a record length that overflows 64 bits is corruption, not length 0", .bug(id: "harden-to-lead-2"))
    func overflowingLength() throws {
        // Header · end record whose 10-byte length varint is 2^64 (wraps to 0 if the overflow is ignored).
        let bytes = try Self.input("length-overflows-64-bits.bin")
        let reader = try TraceReader(bytes: bytes)
        #expect(throws: TraceReadError.self) { try reader.readAll() }
        #expect(!reader.isComplete, "the corrupt record is not taken for the end record")
    }

    @Test("the file reader refills across its 1 MiB chunks without losing or inventing a record")
    func fileReaderAcrossChunks() throws {
        // Records of many sizes (long strings, previews up to 1 KiB) so that record headers and
        // payloads straddle each refill boundary; then a cut in the middle of the last record.
        var trace = TraceBytes()
        trace.clock()
        var expectedEvents = 0
        var size: UInt64 = 0
        while trace.bytes.count < 3 << 20 {
            size = (size &* 2_654_435_761 &+ 97) % 1500
            let preview = [UInt8](repeating: UInt8(ascii: "a") + UInt8(size % 26), count: Int(size))
            trace.record(14, [1, size % 7, 0, 1], trailing: preview)
            expectedEvents += 1
        }
        let whole = trace.bytes
        trace.update(9)
        let cut = Array(trace.bytes.dropLast(2))
        for (bytes, events) in [(whole, expectedEvents), (cut, expectedEvents)] {
            let path = temporaryTracePath()
            defer { try? FileManager.default.removeItem(atPath: path) }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let fromMemory = try TraceReader(bytes: bytes)
            let memoryEvents = try fromMemory.readAll()
            let fromFile = try TraceReader(path: path)
            let fileEvents = try fromFile.readAll()
            #expect(memoryEvents.count == events)
            #expect(fileEvents == memoryEvents)
            #expect(fromFile.warnings == fromMemory.warnings)
            #expect(fromFile.bytesRead == fromMemory.bytesRead)
        }
    }
}
