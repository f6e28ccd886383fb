@_spi(Harness) import BindTraceModel
import BindTraceTestSupport
import Foundation
import Testing

/// A search screen as the recorder writes it with values: 'query' (1) → map 'results' (2) → a
/// closure that reloads a list (it sets 'rows', 3). The app writes the query on every keystroke
/// event, also when the text did not change (`sameText`: the planted waste); the clean twin only
/// when it changed.
private func searchTrace(sameText: Bool) -> [UInt8] {
    var writer = TraceWriter()
    writer.thread(1, name: "main")
    let file = "App/Search.swift"
    func output(_ id: UInt64, _ kind: OutputKind, line: UInt, label: String) {
        writer.event(
            .outputCreated(
                TraceEvent.OutputCreation(
                    output: id, kind: kind, valueType: "String", site: SourceSite(file: file, line: line),
                    label: label)))
    }
    output(1, .output, line: 3, label: "query")
    output(2, .map, line: 4, label: "results")
    output(3, .output, line: 5, label: "rows")
    writer.event(.edge(source: 1, derived: 2, operation: .map))
    writer.event(
        .bound(TraceEvent.Binding(subscription: 1, output: 1, site: SourceSite(file: file, line: 4), isInternal: true)))
    writer.event(.bound(TraceEvent.Binding(subscription: 2, output: 2, site: SourceSite(file: file, line: 9))))
    writer.event(.bound(TraceEvent.Binding(subscription: 3, output: 3, site: SourceSite(file: file, line: 12))))
    let texts = sameText ? ["sw", "swi", "swi", "swi"] : ["sw", "swi", "swif", "swift"]
    for text in texts {
        let root = writer.event(.updated(output: 1, cause: nil, preview: text))
        let results = writer.event(
            .updated(output: 2, cause: TraceCause(subscription: 1, event: root), preview: "[\(text)]"))
        writer.event(
            .updated(output: 3, cause: TraceCause(subscription: 2, event: results), preview: "\(text.count) rows"))
    }
    writer.end()
    return writer.bytes
}

@Suite("redundant-update: updates that delivered the value the Output already had")
struct RedundantUpdateTests {
    private func run(_ bytes: [UInt8], _ arguments: String...) throws -> Tool.Run {
        let file = try TemporaryTrace(bytes)
        defer { file.cleanUp() }
        return try Tool.run(arguments + [file.path])
    }

    @Test("a query written again with the same text is a note at its creation line, ranked with its downstream work")
    func repeatedValue() throws {
        // Given a query updated with "swi" three times in a row
        let trace = searchTrace(sameText: true)

        // When the trace is checked
        let run = try self.run(trace, "check")

        // Then a note (not a failure: exit 0) counts the two repeats of each stage and what they set off
        #expect(run.status == 0, "notes do not fail a run: \(run.standardOutput)")
        let lines = run.standardOutput.split(separator: "\n").map(String.init)
        let query = try #require(lines.first { $0.hasPrefix("App/Search.swift:3: note: redundant-update: ") })
        #expect(query.contains("'query' (String) was updated 2 times with a value that looks equal"))
        #expect(query.contains("setting off 4 downstream updates for nothing"))
        #expect(lines.first?.hasPrefix("App/Search.swift:3: note:") == true, "most redundant first")
        #expect(lines.contains { $0.hasPrefix("App/Search.swift:4: note: redundant-update: 'results' (String)") })
    }

    @Test("--fail-on note makes the notes fail the run")
    func failOnNote() throws {
        let run = try self.run(searchTrace(sameText: true), "check", "--fail-on", "note")
        #expect(run.status == 1)
    }

    @Test("summary ranks the wasted updates by count and downstream work")
    func summaryTable() throws {
        let run = try self.run(searchTrace(sameText: true), "summary")
        let lines = run.standardOutput.split(separator: "\n").map(String.init)
        let header = try #require(lines.firstIndex { $0.hasPrefix("wasted updates") })
        #expect(lines[header + 1].hasPrefix("  App/Search.swift:3: 'query' (String): 2 redundant, 4 downstream"))
        #expect(lines[header + 2].hasPrefix("  App/Search.swift:4: 'results' (String): 2 redundant, 2 downstream"))
    }

    @Test("the clean twin, which writes the query only when it changed, has none")
    func cleanTwin() throws {
        let check = try self.run(searchTrace(sameText: false), "check")
        #expect(!check.standardOutput.contains("redundant-update"))
        let summary = try self.run(searchTrace(sameText: false), "summary")
        #expect(!summary.standardOutput.contains("wasted updates"))
    }
}
