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

    // `sample(_:)` and `prelude(_:)`, one event of each kind and what must come before it, are
    // generated from the table's `sample` (Generated/EventKindSamples.swift): a new kind has one.

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

    @Test("the reader's inlined tag lookup is the tag's own (every byte)")
    func decodedTagIsRawValue() {
        for byte in UInt8.min...UInt8.max {
            #expect(TraceFormat.Tag.decoded(byte) == TraceFormat.Tag(rawValue: byte), "\(byte)")
        }
    }

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
        "every generated form is what the format's table gives (Scripts/generate-event-kinds.py --check)",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")))
    func generatedFormsAreCurrent() throws {
        // When the generator compares what it would write with the files
        let script = Self.packageRoot.appendingPathComponent("Scripts/generate-event-kinds.py").path
        let run = try ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/python3"), [script, "--check", Self.packageRoot.path])

        // Then none differs: no reader, writer, narrator, sample, fuzz opcode or doc table is stale
        #expect(run.status == 0, "\(run.standardError)")
    }

    @Test(
        "a generated form that falls behind the table fails the check, which names it",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")))
    func staleFormFailsTheCheck() throws {
        // Given a copy of the table, its docs and generated files, with one kind's narration changed
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("event-kinds-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: copy) }
        let generated = [
            "Sources/BindTraceFormat/EventKinds.toml", "docs/trace-format.md", ".swift-format",
            "Sources/BindAnalysis/Generated/EventNarrator+Kinds.swift",
        ]
        for path in generated {
            let target = copy.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: Self.packageRoot.appendingPathComponent(path), to: target)
        }
        let table = copy.appendingPathComponent("Sources/BindTraceFormat/EventKinds.toml")
        let text = try String(contentsOf: table, encoding: .utf8)
        try text.replacingOccurrences(of: "narration = \"release {output}\"", with: "narration = \"free {output}\"")
            .write(to: table, atomically: true, encoding: .utf8)

        // When the generator checks the copy
        let script = Self.packageRoot.appendingPathComponent("Scripts/generate-event-kinds.py").path
        let run = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/python3"), [script, "--check", copy.path])

        // Then it fails and names the narrator's file (the others the copy lacks are named too)
        #expect(run.status == 1)
        #expect(run.standardError.contains("Sources/BindAnalysis/Generated/EventNarrator+Kinds.swift"))
        #expect(run.standardError.contains("free"), "the difference is shown: \(run.standardError)")
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
