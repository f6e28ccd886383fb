@_spi(Harness) import BindTraceModel
import BindTraceTestSupport
import Foundation
import Testing

@Suite("bind-trace why: the chain of one event, root first")
struct WhyCommandTests {
    private func why(_ trace: DiamondTrace, _ arguments: String...) throws -> Tool.Run {
        let file = try TemporaryTrace(trace.bytes)
        defer { file.cleanUp() }
        return try Tool.run(["why", file.path] + arguments)
    }

    private func json(_ run: Tool.Run) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8))
        return try #require(object as? [String: Any])
    }

    private func chainEvents(_ document: [String: Any]) throws -> [Int] {
        let chain = try #require(document["chain"] as? [[String: Any]])
        return chain.compactMap { $0["event"] as? Int }
    }

    @Test("--label LABEL explains its last update: the root call, each hop, values before and after")
    func byLabel() throws {
        // Given a diamond whose 'status' was last set through the second map and the combine
        let trace = DiamondTrace()

        // When why is asked about 'status'
        let run = try why(trace, "--label", "status")

        // Then the chain starts at the app's call and ends at the last update of 'status'
        #expect(run.status == 0, "\(run.standardError)")
        let lines = run.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first == "why event \(trace.secondStatus): update of 'status' (String), 3 steps from the root")
        #expect(
            lines.contains("root #\(trace.root) on thread 1 (main): update(withValue:) called at App/Form.swift:40"))
        #expect(lines.contains("     'email' (String): \"ada@example.com\""))
        #expect(lines.contains { $0.hasPrefix("  ↳ #\(trace.secondMap) on thread 1 (main) via map at Form.swift:6") })
        #expect(lines.contains("     input 'long enough' (Bool) changed; only contributed: 'valid' (Bool) = \"true\""))
        #expect(lines.contains { $0.contains("via the closure bound at Form.swift:20 (subscription 5)") })
        #expect(lines.contains("     'status' (String): \"invalid\" → \"ok\""))
    }

    @Test("--output-id ID --nth K explains the K-th update")
    func byIDAndNth() throws {
        let trace = DiamondTrace()

        let run = try why(trace, "--output-id", "5", "--nth", "1", "--format", "json")

        #expect(run.status == 0, "\(run.standardError)")
        let document = try json(run)
        #expect(document["event"] as? Int == Int(trace.firstStatus))
        #expect(
            try chainEvents(document)
                == [trace.root, trace.firstMap, trace.firstCombine, trace.firstStatus].map(Int.init))
    }

    @Test("--label LABEL --last is the default's update")
    func last() throws {
        let trace = DiamondTrace()

        let run = try why(trace, "--label", "can submit", "--last", "--format", "json")

        #expect(run.status == 0, "\(run.standardError)")
        #expect(try chainEvents(try json(run)) == [trace.root, trace.secondMap, trace.secondCombine].map(Int.init))
    }

    @Test("--event N explains that event")
    func byEvent() throws {
        let trace = DiamondTrace()

        let run = try why(trace, "--event", String(trace.firstCombine), "--format", "json")

        #expect(run.status == 0, "\(run.standardError)")
        let document = try json(run)
        #expect(try chainEvents(document) == [trace.root, trace.firstMap, trace.firstCombine].map(Int.init))
        let chain = try #require(document["chain"] as? [[String: Any]])
        let combineHop = try #require(chain.last?["via"] as? [String: Any])
        #expect(combineHop["operator"] as? String == "combine")
        let contributors = try #require(combineHop["contributors"] as? [[String: Any]])
        let contributor = try #require(contributors.first)
        #expect((contributor["output"] as? [String: Any])?["label"] as? String == "long enough")
        #expect(contributor["value"] is NSNull, "the other map had not delivered yet")
    }

    @Test("--closure FILE:LINE explains the last value delivered to the subscription bound there")
    func byClosure() throws {
        let trace = DiamondTrace()

        let run = try why(trace, "--closure", "View.swift:30", "--format", "json")

        #expect(run.status == 0, "\(run.standardError)")
        let document = try json(run)
        #expect(document["event"] as? Int == Int(trace.secondStatus))
        let delivered = try #require(document["deliveredTo"] as? [String: Any])
        #expect(delivered["id"] as? Int == 6)
        #expect(delivered["boundAt"] as? String == "App/View.swift:30")
        #expect(delivered["target"] as? String == "App.StatusLabel")
    }

    @Test(
        "--format json matches docs/schemas/why.schema.json under a standard validator",
        .enabled(if: PythonChecks.hasJSONSchema, "python3 with jsonschema is not installed: make setup installs it"))
    func schema() throws {
        let trace = DiamondTrace()
        var documents: [String] = []
        for arguments in [["--label", "status"], ["--closure", "App/View.swift:30"], ["--event", "1"]] {
            let file = try TemporaryTrace(trace.bytes)
            defer { file.cleanUp() }
            let run = try Tool.run(["why", file.path, "--format", "json"] + arguments)
            #expect(run.status == 0, "\(run.standardError)")
            documents.append(run.standardOutput)
        }
        let problems = try PythonChecks.jsonSchemaProblems(schema: Schemas.path("why"), documents: documents)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test("a root update from the line its Output was last updated from carries that call site forward")
    func callSiteCarriedForward() throws {
        // Given an Output updated from App/Form.swift:40, then again from the same line (no new
        // calledAt: the recorder writes one only when the line changes), and a second Output never
        // given a call site (a 1.1 trace's)
        var writer = TraceWriter()
        writer.thread(1, name: "main")
        let site = SourceSite(file: "App/Form.swift", line: 3)
        writer.event(
            .outputCreated(
                TraceEvent.OutputCreation(output: 1, kind: .output, valueType: "Int", site: site, label: "count")))
        writer.event(
            .outputCreated(
                TraceEvent.OutputCreation(output: 2, kind: .output, valueType: "Int", site: site, label: "other")))
        let first = writer.event(.updated(output: 1, cause: nil, preview: "1"))
        writer.event(.calledAt(event: first, site: SourceSite(file: "App/Form.swift", line: 40)))
        let second = writer.event(.updated(output: 1, cause: nil, preview: "2"))
        let unknown = writer.event(.updated(output: 2, cause: nil, preview: "7"))
        writer.end()
        let file = try TemporaryTrace(writer.bytes)
        defer { file.cleanUp() }

        // When why explains the second update, and the other Output's
        let carried = try Tool.run(["why", file.path, "--event", String(second)])
        let none = try Tool.run(["why", file.path, "--event", String(unknown)])

        // Then the first names the line carried forward, the second says it was not recorded
        #expect(
            carried.standardOutput.contains(
                "root #\(second) on thread 1 (main): update(withValue:) called at App/Form.swift:40"))
        #expect(carried.standardOutput.contains("'count' (Int): \"1\" → \"2\""))
        #expect(
            none.standardOutput.contains(
                "root #\(unknown) on thread 1 (main): update(withValue:) (call site not recorded)"))
    }

    // MARK: - Hostile traces

    @Test("a chain deeper than the frames kept per thread is shown from where it is kept, marked incomplete")
    func deepChain() throws {
        // Given 120,000 updates, each caused by the one before (only a hostile trace nests so deep)
        var writer = TraceWriter()
        writer.thread(1)
        var previous = writer.event(.updated(output: 1, cause: nil, preview: nil))
        for _ in 1..<120_000 {
            previous = writer.event(
                .updated(output: 1, cause: TraceCause(subscription: 1, event: previous), preview: nil))
        }
        writer.end()
        let file = try TemporaryTrace(writer.bytes)
        defer { file.cleanUp() }

        // When the last one is explained
        let run = try Tool.run(["why", file.path, "--event", String(previous), "--format", "json"])

        // Then it answers, from the frames it kept, and says the chain is incomplete
        #expect(run.status == 0, "\(run.standardError)")
        let document = try json(run)
        #expect(document["complete"] as? Bool == false)
        let steps = try chainEvents(document)
        #expect(steps.last == Int(previous))
        #expect(steps.count < 120_000 && steps.count >= 50_000)
    }

    @Test("an update whose cause came before the trace began is not called a root: the chain is incomplete")
    func causeBeforeStart() throws {
        // Given a trace (a capture, or a flight recording's segment) that begins mid-delivery: its
        // first update names a cause older than the trace, then a root update of its own
        var writer = TraceWriter()
        writer.thread(1)
        let inherited = writer.event(
            .updated(output: 1, cause: TraceCause(subscription: 1, event: 0), preview: nil))
        let root = writer.event(.updated(output: 1, cause: nil, preview: nil))
        writer.end()
        let file = try TemporaryTrace(writer.bytes)
        defer { file.cleanUp() }

        // When each is explained
        let cut = try Tool.run(["why", file.path, "--event", String(inherited)])
        let whole = try Tool.run(["why", file.path, "--event", String(root), "--format", "json"])

        // Then the first says its earlier steps are not in the trace; the real root is still a root
        #expect(cut.status == 0, "\(cut.standardError)")
        #expect(cut.standardOutput.contains("the oldest step the trace keeps"), "\(cut.standardOutput)")
        #expect(!cut.standardOutput.contains("the root itself"))
        #expect(try json(whole)["complete"] as? Bool == true)
    }

    @Test("a call site that names an undefined site is corruption: exit 2, one line naming the file")
    func undefinedSite() throws {
        var writer = TraceWriter()
        let root = writer.event(.updated(output: 1, cause: nil, preview: nil))
        writer.raw(tag: 31, fields: [1, writer.sequence + 1 - root, 7])
        writer.end()
        let file = try TemporaryTrace(writer.bytes)
        defer { file.cleanUp() }
        let run = try Tool.run(["why", file.path, "--event", "1"])
        expectOneLineError(run, containing: ["undefined call site 7"])
    }

    // MARK: - Selections that match nothing

    private func expectOneLineError(
        _ run: Tool.Run, containing texts: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(run.status == 2, sourceLocation: sourceLocation)
        #expect(run.standardOutput.isEmpty, sourceLocation: sourceLocation)
        let lines = run.standardError.split(separator: "\n")
        #expect(lines.count == 1, "\(run.standardError)", sourceLocation: sourceLocation)
        #expect(run.standardError.hasPrefix("bind-trace: "), sourceLocation: sourceLocation)
        #expect(run.standardError.contains("app.trace: "), sourceLocation: sourceLocation)
        for text in texts {
            #expect(run.standardError.contains(text), "\(run.standardError)", sourceLocation: sourceLocation)
        }
    }

    @Test("an unknown label: exit 2, naming the nearest labels and the event count")
    func unknownLabel() throws {
        let trace = DiamondTrace()
        let run = try why(trace, "--label", "stat")
        expectOneLineError(run, containing: ["no Output is labelled 'stat'", "'status'", "\(trace.events) events"])
    }

    @Test("an event past the end: exit 2, saying how many there are")
    func eventPastEnd() throws {
        let trace = DiamondTrace()
        let run = try why(trace, "--event", "999")
        expectOneLineError(run, containing: ["there is no event 999 (the trace has \(trace.events))"])
    }

    @Test("an update past the last: exit 2, saying how many there were")
    func nthPastLast() throws {
        let run = try why(DiamondTrace(), "--label", "status", "--nth", "3")
        expectOneLineError(run, containing: ["'status' was updated 2 times; there is no update 3"])
    }

    @Test("an Output never updated: exit 2")
    func neverUpdated() throws {
        let run = try why(DiamondTrace(), "--output-id", "42")
        expectOneLineError(run, containing: ["Output #42 was never updated"])
    }

    @Test("a line where nothing was bound: exit 2, naming the lines of that file that were")
    func unknownClosure() throws {
        let run = try why(DiamondTrace(), "--closure", "View.swift:31")
        expectOneLineError(run, containing: ["nothing was bound at View.swift:31", "line 30"])
    }

    @Test("no selection, or two: a usage error with exit 2")
    func usage() throws {
        let trace = try TemporaryTrace(DiamondTrace().bytes)
        defer { trace.cleanUp() }
        #expect(try Tool.run(["why", trace.path]).status == 2)
        #expect(try Tool.run(["why", trace.path, "--event", "1", "--label", "status"]).status == 2)
        #expect(try Tool.run(["why", trace.path, "--closure", "nowhere"]).status == 2)
    }

    // MARK: - Wording

    @Test("--event with a negative or non-numeric value: one line naming the problem, exit 2")
    func badEventNumber() throws {
        let trace = try TemporaryTrace(DiamondTrace().bytes)
        defer { trace.cleanUp() }
        for value in ["-3", "x"] {
            let run = try Tool.run(["why", trace.path, "--event", value])
            #expect(run.status == 2)
            #expect(run.standardOutput.isEmpty)
            #expect(run.standardError.split(separator: "\n").count == 1, "\(run.standardError)")
            #expect(
                run.standardError.hasPrefix("bind-trace why: --event takes an event's sequence number"),
                "\(run.standardError)")
            #expect(run.standardError.contains("not '\(value)'"))
            #expect(!run.standardError.contains("Missing value"))
        }
    }

    @Test("a root event is the root itself; one hop is 1 step, not 1 steps")
    func distanceWording() throws {
        let trace = DiamondTrace()

        let root = try why(trace, "--event", String(trace.root))
        let firstMap = try why(trace, "--event", String(trace.firstMap))

        #expect(root.status == 0 && firstMap.status == 0, "\(root.standardError)\(firstMap.standardError)")
        let rootTitle = root.standardOutput.split(separator: "\n").first.map(String.init)
        #expect(
            rootTitle
                == "why event \(trace.root): update of 'email' (String), the root itself (no subscription caused it)")
        let mapTitle = firstMap.standardOutput.split(separator: "\n").first.map(String.init) ?? ""
        #expect(mapTitle.hasSuffix(", 1 step from the root"), "\(mapTitle)")
    }

    @Test("the deprecated --output LABEL|ID still selects, with one warning line naming the new options")
    func deprecatedOutput() throws {
        let trace = DiamondTrace()

        let byLabel = try why(trace, "--output", "status", "--format", "json")
        let byID = try why(trace, "--output", "5", "--nth", "1", "--format", "json")

        #expect(byLabel.status == 0 && byID.status == 0)
        #expect(try json(byLabel)["event"] as? Int == Int(trace.secondStatus))
        #expect(try json(byID)["event"] as? Int == Int(trace.firstStatus))
        #expect(
            byLabel.standardError
                == "bind-trace: warning: why --output is deprecated (--output names the file to write elsewhere); "
                + "use --label LABEL\n")
        #expect(byID.standardError.hasSuffix("use --output-id ID\n"))
    }
}
