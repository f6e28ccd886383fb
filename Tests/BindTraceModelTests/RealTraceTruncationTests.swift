import Bind
@_spi(Harness) import BindTraceModel
import BindTraceTestSupport
import Foundation
import Testing

/// A trace cut at any byte — the file of a process killed mid-write — reads as exactly the whole
/// events before the cut, followed by a warning (or, inside the header, an error): never a crash,
/// never an event that was not recorded.
@Suite("Truncation sweep over real traces")
struct RealTraceTruncationTests {
    @Test("the committed real traces cut at every byte keep exactly their whole events")
    func committedRealTraces() throws {
        let directory = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz/corpus/traces")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("real-") }
        #expect(!names.isEmpty)
        for name in names.sorted() {
            let bytes = try [UInt8](Data(contentsOf: directory.appendingPathComponent(name)))  // never empty
            try TruncationSweep(bytes, name: name).run(cuts: Array(0...bytes.count))
        }
    }

    #if Tracing
    @Test("a captured sign-in workload cut at every byte (or a dense sample) keeps exactly its whole events")
    func capturedWorkload() throws {
        let recording = try #require(BindTrace.capture("truncation workload") { SignInWorkload.run() })
        let sweep = try TruncationSweep(recording.bytes, name: "capture")
        // The workload's own events are in the capture (other tests may add theirs).
        let own = try ownEvents(of: recording)
        #expect(own.contains { if case .innerSwitch = $0.kind { true } else { false } })
        #expect(own.contains { if case .edge(_, _, .combine) = $0.kind { true } else { false } })
        #expect(own.contains { if case .fired = $0.kind { true } else { false } })
        #expect(own.contains { if case .unbound(_, .container, _) = $0.kind { true } else { false } })
        #expect(own.contains { $0.kind == .mark(name: "signed in", scope: recording.scope) })
        try sweep.run(cuts: sweep.denseCuts(budget: 48 << 20))
    }

    @Test("a trace recorded to a file and cut keeps its whole events, read from the file")
    func fileCuts() throws {
        let recording = try #require(BindTrace.capture("truncation file") { SignInWorkload.run() })
        let sweep = try TruncationSweep(recording.bytes, name: "capture file")
        // Reading from a file costs a 1 MiB buffer each: a few cuts, inside records and on boundaries.
        let boundary = sweep.recordEnds[sweep.recordEnds.count / 2]
        for cut in [16, 17, boundary - 1, boundary, boundary + 1, recording.bytes.count - 1] {
            let path = temporaryTracePath()
            defer { try? FileManager.default.removeItem(atPath: path) }
            try Data(recording.bytes.prefix(cut)).write(to: URL(fileURLWithPath: path))
            try sweep.check(cut: cut, reader: TraceReader(path: path))
        }
    }
    #endif
}

/// Reads every cut of one trace and compares it with the uncut read.
struct TruncationSweep {
    let bytes: [UInt8]
    let name: String
    /// Events of the uncut trace.
    let whole: [TraceEvent]
    /// Where each record ends, by where it starts (framing parsed independently of the reader).
    let recordEnd: [Int: Int]
    /// Every record end, in order (the cuts that leave only whole records).
    let recordEnds: [Int]
    private let boundaries: Set<Int>

    init(_ bytes: [UInt8], name: String) throws {
        self.bytes = bytes
        self.name = name
        let reader = try TraceReader(bytes: bytes)
        whole = try reader.readAll()
        var ends: [Int: Int] = [:]
        var order: [Int] = []
        var position = 16
        // tag · varint length · payload: enough framing to know where records end.
        while position < bytes.count {
            var cursor = position + 1
            var length = 0
            var shift = 0
            while cursor < bytes.count {
                let byte = bytes[cursor]
                cursor += 1
                length |= Int(byte & 0x7F) << shift
                shift += 7
                if byte & 0x80 == 0 { break }
            }
            let end = cursor + length
            guard end <= bytes.count else { break }
            ends[position] = end
            order.append(end)
            position = end
        }
        recordEnd = ends
        recordEnds = order
        boundaries = Set(order + [16])
    }

    /// Every cut up to 4 KiB, every record boundary and the bytes on either side of it, the last
    /// bytes, then evenly spaced cuts — until reading the prefixes would cost more than `budget` bytes.
    func denseCuts(budget: Int) -> [Int] {
        guard bytes.count > 4096 else { return Array(0...bytes.count) }
        var cuts = Set(0..<4096)
        cuts.formUnion([bytes.count - 2, bytes.count - 1, bytes.count])
        var spent = 4096 * 4096 / 2 + 3 * bytes.count
        for end in recordEnds where spent < budget / 2 {
            for cut in [end - 1, end, end + 1] where cut <= bytes.count && cuts.insert(cut).inserted { spent += cut }
        }
        let remaining = max(budget - spent, 0)
        let count = min(bytes.count, max(200, remaining / max(bytes.count / 2, 1)))
        for index in 0..<count { cuts.insert(bytes.count * index / count) }
        return cuts.sorted()
    }

    func run(cuts: [Int]) throws {
        for cut in cuts {
            do {
                let reader = try TraceReader(bytes: Array(bytes.prefix(cut)))
                try check(cut: cut, reader: reader)
            } catch let error as TraceReadError {
                // Only a cut inside the 16-byte header is an error.
                #expect(cut < 16, "\(name): cut at \(cut) threw \(error)")
                if cut < 16 { #expect(error == .truncatedHeader(length: cut), "\(name): cut at \(cut)") }
            }
        }
    }

    /// The events of the reader over the first `cut` bytes are the uncut events whose records end
    /// by `cut`, and the reader warns what was lost.
    func check(cut: Int, reader: TraceReader) throws {
        let events = try reader.readAll()
        let expected = whole.filter { (recordEnd[$0.offset] ?? .max) <= cut }
        #expect(events.count == expected.count, "\(name): cut at \(cut)")
        #expect(events == expected, "\(name): cut at \(cut): the same events, nothing made up")
        guard cut < bytes.count else { return }
        if boundaries.contains(cut) {
            #expect(
                reader.warnings.contains { $0.message.contains("no end record") }, "\(name): cut at \(cut)")
        } else {
            // The record the cut falls in starts at the last boundary before it.
            let start = lastBoundary(before: cut)
            #expect(
                reader.warnings.contains { $0.offset == start && $0.message.contains("cut short") },
                "\(name): cut at \(cut) inside the record at \(start): \(reader.warnings)")
        }
        #expect(!reader.isComplete, "\(name): a cut trace is not complete")
    }

    private func lastBoundary(before cut: Int) -> Int {
        var low = 0
        var high = recordEnds.count
        while low < high {
            let middle = (low + high) / 2
            if recordEnds[middle] < cut { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? 16 : recordEnds[low - 1]
    }
}

#if Tracing
/// A small sign-in screen's bindings: combine, map, flatMap, a Relay, a Binder, labels, scopes and a
/// SubscriptionContainer, as an app would use them.
enum SignInWorkload {
    final class Form: BindableCompatible {
        var status = ""
    }

    static func run() {
        let bag = SubscriptionContainer()
        let form = Form()
        let email = Output<String>(value: "").labeled("email")
        let password = Output<String>(value: "").labeled("password \"secret\" <b>&</b> \\N")
        let isValid = Output.combine(email, password).map { !$0.0.isEmpty && $0.1.count >= 8 }.labeled("is valid")
        let tapped = Relay<Void>()
        _ = tapped.labeled("sign-in tapped")
        let session = Output<Int>(value: 0).labeled("session")
        let user = session.flatMap { id in Output<String>(value: id == 0 ? "nobody" : "user \(id)") }
        isValid.map { $0 ? "ready" : "incomplete" }.bind(to: form.binding[\.status])
        isValid.bind { _ in }.add(to: bag)
        user.bind { _ in }.add(to: bag)
        tapped.bind { session.update(withValue: (session.value ?? 0) + 1) }.add(to: bag)
        BindTrace.scope("typing") {
            for attempt in 0..<12 {
                email.update(withValue: "ada\(attempt)@example.com")
                password.update(withValue: String(repeating: "x", count: attempt))
                if attempt % 3 == 2 { tapped.fire() }
            }
        }
        BindTrace.mark("signed in")
        bag.unsubscribe()
    }
}
#endif
