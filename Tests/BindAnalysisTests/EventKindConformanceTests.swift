@_spi(Harness) import BindAnalysis
import BindTraceFormat
@_spi(Harness) import BindTraceModel
import BindTraceTestSupport
import Foundation
import Testing

/// Every record tag of the format (`TraceFormat.Tag`, the one table of them) is known to every
/// reader of events: a new kind that one of them misses fails here, not in a user's trace.
/// docs/architecture.md, "Adding a new event kind", lists the files these tests stand for.
@Suite("every event kind is read, written, dumped, told, counted and seeded")
struct EventKindConformanceTests {
    static let site = SourceSite(file: "App/Screen.swift", line: 12)

    /// One event of each event tag. The switch has no default: a new tag does not compile here
    /// until it has a sample, and then every test below checks it.
    static func sample(_ tag: TraceFormat.Tag) -> TraceEvent.Kind? {
        switch tag {
        case .clock, .string, .thread, .end, .lost, .site, .chunk, .continues, .writer, .signal, .window: nil
        case .outputCreated:
            .outputCreated(.init(output: 1, kind: .relay, valueType: "Int", site: site, label: "count", scope: 1))
        case .edge: .edge(source: 1, derived: 2, operation: .map)
        case .innerSwitch: .innerSwitch(flatMap: 3, inner: 2)
        case .bound:
            .bound(.init(subscription: 1, output: 2, site: site, target: BinderTarget(type: "Label", identity: 7)))
        case .update: .updated(output: 1, cause: nil, preview: "5")
        case .fire: .fired(output: 1, cause: nil, preview: nil)
        case .unbound: .unbound(subscription: 1, reason: .container, cause: nil)
        case .dangling: .dangling(subscription: 1)
        case .released: .released(output: 2)
        case .scopeBegin: .scopeBegan(id: 1, parent: 0, name: "screen", site: site)
        case .scopeEnd: .scopeEnded(id: 1)
        case .mark: .mark(name: "tap", scope: 1)
        case .label: .labeled(output: 1, label: "count")
        case .contained: .subscriptionContained(subscription: 1, container: 9)
        case .handleReleased: .handleReleased(subscription: 1)
        case .calledAt: .calledAt(event: 1, site: site)
        case .stopped: .stopped(derived: 2, source: 1)
        case .captured:
            .captured(
                subscription: 1,
                captures: [
                    .init(
                        strength: .strong, type: "Screen", identity: 0x1000,
                        holds: [.init(path: ".model.count", output: 1)]),
                    .init(strength: .weak, type: "Logger"),
                ])
        case .resumed: .resumed(delivery: TraceCause(subscription: 1, event: 1), cause: nil)
        }
    }

    /// What must come before a sample in a trace of its own: a `calledAt` names the update it
    /// happened at (event 1), a `resumed` the update whose delivery it resumes, so that update comes first.
    static func prelude(_ tag: TraceFormat.Tag) -> [TraceEvent.Kind] {
        tag == .calledAt || tag == .resumed ? [.updated(output: 1, cause: nil, preview: "5")] : []
    }

    static var eventTags: [TraceFormat.Tag] { TraceFormat.Tag.allCases.filter(\.isEvent) }

    /// The samples, each with its tag.
    static func samples() throws -> [(tag: TraceFormat.Tag, kind: TraceEvent.Kind)] {
        try eventTags.map { tag in (tag, try #require(sample(tag), "event tag \(tag) has a sample")) }
    }

    /// A trace holding only `kind` (after the header and the clock).
    static func trace(_ kinds: [TraceEvent.Kind]) -> [UInt8] {
        var writer = TraceWriter()
        for kind in kinds { writer.event(kind) }
        writer.end()
        return writer.bytes
    }

    /// The tags of the records in `bytes`, up to the first that is cut or malformed.
    static func recordTags(_ bytes: [UInt8]) -> Set<UInt8> {
        var tags: Set<UInt8> = []
        var position = TraceFormat.header.count
        while position < bytes.count {
            let tag = bytes[position]
            position += 1
            var length = 0
            var shift = 0
            while position < bytes.count, shift < 35 {
                let byte = bytes[position]
                position += 1
                length |= Int(byte & 0x7F) << shift
                shift += 7
                if byte < 0x80 { break }
            }
            guard shift < 35, position + length <= bytes.count else { break }
            tags.insert(tag)
            position += length
        }
        return tags
    }

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test("the test TraceWriter writes each event kind with its own tag")
    func writerUsesTheTag() throws {
        for (tag, kind) in try Self.samples() {
            // Given a trace of the sample alone, when its records are walked
            let tags = Self.recordTags(Self.trace(Self.prelude(tag) + [kind]))
            // Then the sample's record carries the tag
            #expect(tags.contains(tag.rawValue), "\(tag)")
        }
    }

    @Test("TraceReader reads each kind back as written, one by one and in batches (CompactEvent)")
    func readerRoundTrips() throws {
        for (tag, kind) in try Self.samples() {
            let written = Self.prelude(tag) + [kind]
            let bytes = Self.trace(written)
            let events = try TraceReader(bytes: bytes).readAll()
            #expect(events.map(\.kind) == written, "\(tag)")

            let reader = try TraceReader(bytes: bytes)
            var batch = EventBatch()
            reader.read(into: &batch)
            var strings = DefinedStrings()
            strings.take(batch)
            #expect(batch.count == written.count, "\(tag)")
            if batch.count == written.count {
                #expect(strings.event(in: batch, at: written.count - 1).kind == kind, "\(tag)")
            }
            if let last = events.last, let compact = CompactEvent(last) {
                #expect(batch.events.last?.kind == compact.kind, "\(tag): the compact form is the reader's")
            }
        }
    }

    @Test("each kind has its own name, and dump writes it as one JSON object naming it")
    func jsonLines() throws {
        let samples = try Self.samples()
        #expect(Set(samples.map(\.kind.name)).count == samples.count, "names are distinct")
        for (tag, kind) in samples {
            let event = TraceEvent(sequence: 1, time: 2, thread: 1, offset: 16, kind: kind)
            let line = JSONLines.line(for: event)
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object?["event"] as? String == kind.name, "\(tag)")
            #expect((object?.count ?? 0) > 5, "\(tag): the line holds the event's own fields")
        }
    }

    @Test("EventNarrator tells each kind in words of its own")
    func narration() throws {
        var told: [String: TraceFormat.Tag] = [:]
        for (tag, kind) in try Self.samples() {
            var narrator = EventNarrator()
            let line = narrator.tell(TraceEvent(sequence: 1, time: 1, thread: 1, offset: 0, kind: kind))
            #expect(!line.text.isEmpty, "\(tag)")
            #expect(told[line.text] == nil, "\(tag) is told as \(told[line.text].map { "\($0)" } ?? "")")
            told[line.text] = tag
        }
    }

    @Test("TraceStatistics has a counter for each kind, and the summary counts each under its name")
    func statistics() throws {
        // Given a trace with one event of every kind
        let samples = try Self.samples()
        #expect(TraceStatistics().eventsByKind.map(\.tag) == TraceFormat.Tag.events)
        #expect(TraceFormat.Tag.allCases.allSatisfy { Int($0.rawValue) < TraceStatistics.countedTagLimit })
        #expect(Set(TraceFormat.Tag.events.map(\.name)) == Set(samples.map(\.kind.name)))
        #expect(TraceFormat.Tag.events.count == samples.count)

        // When it is analysed
        let result = try TraceAnalyzer.analyze(reader: TraceReader(bytes: Self.trace(samples.map(\.kind))))

        // Then every kind is counted once, under its name
        let counted = Dictionary(uniqueKeysWithValues: result.summary.eventsByKind.map { ($0.kind, $0.count) })
        for (tag, kind) in samples {
            #expect(counted[kind.name] == 1, "\(tag)")
        }
    }

    @Test("the fuzz seeds hold a record of every tag")
    func fuzzSeeds() throws {
        let directory = Self.packageRoot.appendingPathComponent("Fuzz/corpus/traces")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("hand-") }
        var seen: Set<UInt8> = []
        for name in names {
            let bytes = try [UInt8](Data(contentsOf: directory.appendingPathComponent(name)))
            guard bytes.starts(with: TraceFormat.magic) else { continue }
            seen.formUnion(Self.recordTags(bytes))
        }
        for tag in TraceFormat.Tag.allCases {
            #expect(seen.contains(tag.rawValue), "no hand-made seed holds a \(tag) record (run Fuzz/make-seeds.py)")
        }
    }

    @Test(
        "Fuzz/make-seeds.py reads the tags from the format's one table",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")))
    func seedGeneratorReadsTheTable() throws {
        // When the generator prints the table it read
        let script = Self.packageRoot.appendingPathComponent("Fuzz/make-seeds.py").path
        let run = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/python3"), [script, "--tags"])

        // Then it is TraceFormat.Tag, name for name and number for number
        #expect(run.status == 0, "\(run.standardError)")
        let table = run.standardOutput.split(separator: "\n").map(String.init)
        #expect(table == TraceFormat.Tag.allCases.map { "\($0)=\($0.rawValue)" })
    }
}
