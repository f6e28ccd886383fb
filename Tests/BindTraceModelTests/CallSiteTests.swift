import Bind
import BindTraceFormat
@_spi(Harness) import BindTraceModel
import BindTraceTestSupport
import Foundation
import Testing

@Suite("Root updates record where the app called them", .requiresTracing)
struct CallSiteTests {
    /// Every record of a trace, decoded with the format's own decoder.
    private func records(of bytes: [UInt8]) throws -> [TraceRecord] {
        var result: [TraceRecord] = []
        try bytes.withUnsafeBytes { raw in
            var offset = TraceFormat.headerSize
            while offset < raw.count {
                let tag = raw[offset]
                var length = 0
                var shift = 0
                offset += 1
                while true {
                    let byte = raw[offset]
                    offset += 1
                    length |= Int(byte & 0x7F) << shift
                    shift += 7
                    if byte & 0x80 == 0 { break }
                }
                if let known = TraceFormat.Tag(rawValue: tag) {
                    var payload = PayloadDecoder(bytes: raw, start: offset, end: offset + length)
                    result.append(try TraceRecord.decode(known, &payload))
                }
                offset += length
            }
        }
        return result
    }

    /// The call site recorded for each update or fire of `events`, by sequence number.
    private func callSites(in events: [TraceEvent]) -> [UInt64: SourceSite] {
        var sites: [UInt64: SourceSite] = [:]
        for event in events {
            if case .calledAt(let root, let site) = event.kind { sites[root] = site }
        }
        return sites
    }

    private func updates(of label: String, in events: [TraceEvent]) -> [UInt64] {
        var ids: Set<UInt64> = []
        var found: [UInt64] = []
        for event in events {
            switch event.kind {
            case .outputCreated(let creation) where creation.label == label: ids.insert(creation.output)
            case .labeled(let output, label): ids.insert(output)
            case .updated(let output, _, _), .fired(let output, _, _):
                if ids.contains(output) { found.append(event.sequence) }
            default: break
            }
        }
        return found
    }

    @Test("update(withValue:), fire() and initial(_:) called by the app carry their #fileID and #line")
    func rootUpdates() throws {
        // Given an Output, a Relay and an empty Output, each bound
        var lines: [UInt] = []
        // Not inside `#require(…)`: a macro's argument reads `#line` as the macro's own line.
        let captured = BindTrace.capture("root updates") {
            let name = Output<String>(value: "").labeled("call site name")
            let tapped = Relay<Void>()
            tapped.labeled("call site tapped")
            let count = Output<Int>().labeled("call site count")
            name.bind { _ in }
            tapped.bind { _ in }
            count.bind { _ in }
            // When each is updated by the app
            name.update(withValue: "Ada"); lines.append(#line)
            tapped.fire(); lines.append(#line)
            count.initial(3); lines.append(#line)
        }
        let recording = try #require(captured)
        let events = try ownEvents(of: recording)
        let sites = callSites(in: events)

        // Then each root update names this file and the line of its call
        let roots = [
            updates(of: "call site name", in: events), updates(of: "call site tapped", in: events),
            updates(of: "call site count", in: events),
        ].map(\.last)
        for (root, line) in zip(roots, lines) {
            let site = try #require(root.flatMap { sites[$0] })
            #expect(site == SourceSite(file: "BindTraceModelTests/CallSiteTests.swift", line: line))
        }
    }

    @Test("an update made inside a subscription's closure is explained by its cause: no call site")
    func causedUpdatesCarryNone() throws {
        let captured = BindTrace.capture("caused updates") {
            let source = Output<Int>(value: 0).labeled("call site source")
            let copy = Output<Int>(value: 0).labeled("call site copy")
            let doubled = source.map { $0 * 2 }.labeled("call site doubled")
            source.bind { copy.update(withValue: $0) }
            doubled.bind { _ in }
            source.update(withValue: 4)
        }
        let recording = try #require(captured)
        let events = try ownEvents(of: recording)
        let sites = callSites(in: events)
        let caused = updates(of: "call site copy", in: events) + updates(of: "call site doubled", in: events)
        #expect(!caused.isEmpty)
        for update in caused { #expect(sites[update] == nil) }
        let root = try #require(updates(of: "call site source", in: events).last)
        #expect(sites[root]?.file == "BindTraceModelTests/CallSiteTests.swift")
    }

    @Test(
        "a root update repeated from one line is recorded once (readers carry it forward); another line is recorded again"
    )
    func definedOnce() throws {
        var loopLine: UInt = 0
        var otherLine: UInt = 0
        let captured = BindTrace.capture("one site") {
            let counter = Output<Int>(value: 0).labeled("call site counter")
            counter.bind { _ in }
            for value in 1...50 { counter.update(withValue: value) }; loopLine = #line
            counter.update(withValue: 0); otherLine = #line
        }
        let recording = try #require(captured)
        // Other tests record at the same time: count the definitions of this file's loop line only.
        var strings: [UInt64: String] = [:]
        var definitions = 0
        for record in try records(of: recording.bytes) {
            switch record {
            case .string(let id, let utf8): strings[id] = String(decoding: utf8, as: UTF8.self)
            case .site(_, let file, let line) where line == UInt64(loopLine):
                if strings[file] == "BindTraceModelTests/CallSiteTests.swift" { definitions += 1 }
            default: break
            }
        }
        // Every event, not only the scope's own: a recording another test starts meanwhile announces
        // the counter again as preexisting, and the label alone is enough to find it.
        let events = try recording.events()
        let sites = callSites(in: events)
        let updates = updates(of: "call site counter", in: events)
        try #require(updates.count == 51)
        let file = "BindTraceModelTests/CallSiteTests.swift"
        #expect(sites[updates[0]] == SourceSite(file: file, line: loopLine))
        // The same line again is carried forward, unless a recording another test started meanwhile
        // made the recorder announce the counter again: a new recording has seen no call site yet.
        var announcedAgain = false
        var carriedForward = true
        for event in events {
            switch event.kind {
            case .outputCreated(let creation) where creation.label == "call site counter" && creation.preexisting:
                announcedAgain = true
            case .labeled(_, "call site counter"): announcedAgain = true
            case .updated where updates[1..<50].contains(event.sequence):
                if sites[event.sequence] != nil && !announcedAgain { carriedForward = false }
                announcedAgain = false
            default: break
            }
        }
        #expect(carriedForward, "the same line again: carried forward")
        #expect(sites[updates[50]] == SourceSite(file: file, line: otherLine))
        #expect(loopLine != otherLine)
        #expect(definitions == 1, "one definition, referred to by id")
    }

    @Test("updates from 300 lines in turn: each update's line is its own, and each line is defined once")
    func manySitesInTurn() throws {
        let file = "BindTraceModelTests/CallSiteTests.swift"
        let lines = (0..<300).map { UInt(100_000 + $0 * 7) }
        let captured = BindTrace.capture("many sites") {
            let counter = Output<Int>(value: 0).labeled("many sites counter")
            counter.bind { _ in }
            // Two rounds, so every line's second use finds its site (in the cache or the table).
            for round in 0..<2 {
                for (index, line) in lines.enumerated() {
                    counter.update(withValue: round * 1000 + index, file: #fileID, line: line)
                }
            }
        }
        let recording = try #require(captured)
        var strings: [UInt64: String] = [:]
        var definitions: [UInt64: Int] = [:]
        for record in try records(of: recording.bytes) {
            switch record {
            case .string(let id, let utf8): strings[id] = String(decoding: utf8, as: UTF8.self)
            case .site(_, let fileID, let line) where line >= 100_000:
                if strings[fileID] == file { definitions[line, default: 0] += 1 }
            default: break
            }
        }
        let events = try recording.events()
        let sites = callSites(in: events)
        let updates = updates(of: "many sites counter", in: events)
        try #require(updates.count == 600)
        let expected = lines + lines
        for (update, line) in zip(updates, expected) {
            #expect(sites[update] == SourceSite(file: file, line: line), "update \(update)")
        }
        #expect(definitions.count == 300 && definitions.values.allSatisfy { $0 == 1 }, "one definition each")
    }
}
