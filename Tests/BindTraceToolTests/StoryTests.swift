import Foundation
import Testing

/// Output 1 ('name') updates Output 2 through subscription 1 (line 7), which updates nothing further.
private func nestedTrace() -> [UInt8] {
    var trace = TraceFileWriter()
    trace.thread(1)
    trace.output(1, line: 3, label: "name")
    trace.output(2, kind: .map, line: 5)
    trace.edge(1, 2)
    trace.bind(1, to: 1, line: 5, isInternal: true)
    let update = trace.update(1)
    trace.update(2, cause: (1, update))
    trace.update(1)
    trace.end()
    return trace.bytes
}

@Suite("bind-trace dump, replay and summary")
struct StoryTests {
    @Test("dump prints one JSON object per event")
    func dump() throws {
        let trace = try TemporaryTrace(nestedTrace())
        defer { trace.cleanUp() }

        let run = try Tool.run("dump", trace.path)

        #expect(run.status == 0)
        let lines = run.standardOutput.split(separator: "\n")
        #expect(lines.count == 7)
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object?["event"] is String)
        }
        #expect(lines[5].contains("\"cause_event\":5"))
    }

    @Test("replay indents an update under the subscription whose closure caused it")
    func nesting() throws {
        let trace = try TemporaryTrace(nestedTrace())
        defer { trace.cleanUp() }

        let run = try Tool.run("replay", trace.path)

        #expect(run.status == 0)
        let lines = run.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 7)
        #expect(lines[4].contains("t1  update 'name' (Int)"))
        #expect(
            lines[5].contains(
                "t1    update map → Int at Screen.swift:5   ← via subscription 1 bound at App/Screen.swift:5"))
        #expect(lines[6].contains("t1  update 'name' (Int)"))
    }

    @Test("replay filters by Output id, label and site")
    func filters() throws {
        let trace = try TemporaryTrace(nestedTrace())
        defer { trace.cleanUp() }

        let byID = try Tool.run("replay", "--output", "2", trace.path).standardOutput.split(separator: "\n")
        #expect(byID.count == 3)  // created, edge, update
        let byLabel = try Tool.run("replay", "--label", "nam", trace.path).standardOutput.split(separator: "\n")
        #expect(byLabel.count == 5)  // created, edge, bind, two updates
        let bySite = try Tool.run("replay", "--site", "Screen.swift:3", trace.path).standardOutput.split(
            separator: "\n")
        #expect(bySite.count == 3)  // created, two updates
    }

    @Test("replay --at shows the graph at one moment")
    func stateAt() throws {
        let trace = try TemporaryTrace(nestedTrace())
        defer { trace.cleanUp() }

        let run = try Tool.run("replay", "--at", "3", trace.path)

        #expect(run.status == 0)
        #expect(run.standardOutput.contains("state after event #3:"))
        #expect(run.standardOutput.contains("Outputs (2):"))
        // Named as every message names them: the label, else kind, value type and site.
        #expect(run.standardOutput.contains("  #1 'name' (Int), output at App/Screen.swift:3, 0 updates\n"))
        #expect(run.standardOutput.contains("  #2 map → Int at Screen.swift:5, 0 updates\n"))
        #expect(run.standardOutput.contains("#1 → #2 (map)"))
        #expect(run.standardOutput.contains("subscriptions (0):"))
        let beyond = try Tool.run("replay", "--at", "99", trace.path)
        #expect(beyond.status == 2)
        #expect(beyond.standardError.contains("there is no event 99"))
    }

    @Test("summary counts events and Outputs by kind and names the busiest sites")
    func summary() throws {
        let trace = try TemporaryTrace(nestedTrace())
        defer { trace.cleanUp() }

        let run = try Tool.run("summary", trace.path)

        #expect(run.status == 0)
        #expect(run.standardOutput.contains("7 events"))
        #expect(run.standardOutput.contains("updated        3"))
        #expect(run.standardOutput.contains("map                1"))
        #expect(run.standardOutput.contains("App/Screen.swift:3: 2 updates (1 Output)"))
        let json = try Tool.run("summary", "--format", "json", trace.path)
        let object = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]
        #expect((object?["trace"] as? [String: Any])?["events"] as? Int == 7)
    }
}
