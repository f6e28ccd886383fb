@_spi(Harness) import BindTraceModel
import BindTraceTestSupport
import Foundation
import Testing

#if Tracing
import Bind
#endif

/// A screen whose Label was released while its Binder stayed bound, as the recorder writes it:
/// 'unread' (1) → map 'unread text' (2, App/Screen.swift:12) → a Binder to App.Label
/// (App/Screen.swift:17, subscription 2) and a closure (App/Screen.swift:18, subscription 3) that
/// sets 'badge' (3). One root update of 'unread' at App/Inbox.swift:40 reaches the map; the map's
/// update delivers to the closure (which updates 'badge'), then to the Binder, whose Label is gone.
private struct DanglingTrace {
    var writer = TraceWriter()
    var root: UInt64 = 0
    var map: UInt64 = 0
    var badge: UInt64 = 0
    var dangling: UInt64 = 0

    init() {
        writer.thread(1, name: "main")
        let screen = "App/Screen.swift"
        output(1, .output, "Int", SourceSite(file: screen, line: 5), label: "unread")
        output(2, .map, "String", SourceSite(file: screen, line: 12), label: "unread text")
        output(3, .output, "String", SourceSite(file: screen, line: 6), label: "badge")
        writer.event(.edge(source: 1, derived: 2, operation: .map))
        bind(1, to: 1, SourceSite(file: screen, line: 12), isInternal: true)
        bind(2, to: 2, SourceSite(file: screen, line: 17), target: BinderTarget(type: "App.Label", identity: 0x10))
        bind(3, to: 2, SourceSite(file: screen, line: 18))
        root = writer.event(.updated(output: 1, cause: nil, preview: "3"))
        writer.event(.calledAt(event: root, site: SourceSite(file: "App/Inbox.swift", line: 40)))
        map = writer.event(.updated(output: 2, cause: TraceCause(subscription: 1, event: root), preview: "3 unread"))
        badge = writer.event(.updated(output: 3, cause: TraceCause(subscription: 3, event: map), preview: "3"))
        dangling = writer.event(.dangling(subscription: 2))
        writer.end()
    }

    private mutating func output(_ id: UInt64, _ kind: OutputKind, _ type: String, _ site: SourceSite, label: String) {
        writer.event(
            .outputCreated(TraceEvent.OutputCreation(output: id, kind: kind, valueType: type, site: site, label: label))
        )
    }

    private mutating func bind(
        _ subscription: UInt64, to output: UInt64, _ site: SourceSite, isInternal: Bool = false,
        target: BinderTarget? = nil
    ) {
        writer.event(
            .bound(
                TraceEvent.Binding(
                    subscription: subscription, output: output, site: site, isInternal: isInternal, target: target)))
    }
}

@Suite("bind-trace why on a dangling event: the Binder, the update that delivered, the gone target")
struct WhyDanglingTests {
    private func run(_ bytes: [UInt8], _ arguments: String...) throws -> Tool.Run {
        let file = try TemporaryTrace(bytes)
        defer { file.cleanUp() }
        return try Tool.run(arguments.map { $0 == "TRACE" ? file.path : $0 })
    }

    @Test("--event N on a dangling event chains it to the delivering update's own chain and names the Binder")
    func text() throws {
        // Given a Binder to a released Label that the map's update still delivered to
        let trace = DanglingTrace()

        // When why explains the dangling event
        let run = try run(trace.writer.bytes, "why", "TRACE", "--event", String(trace.dangling))

        // Then the chain is the app's update, the map's, then the Binder's delivery to the gone Label
        // (the closure's update of 'badge', open on the same thread, is not part of it)
        #expect(run.status == 0, "\(run.standardError)")
        let lines = run.standardOutput.split(separator: "\n").map(String.init)
        #expect(
            lines.first
                == "why event \(trace.dangling): dangling: 'unread text' (String) delivered to a Binder whose "
                + "Label is gone, 2 steps from the root")
        #expect(
            lines.contains("root #\(trace.root) on thread 1 (main): update(withValue:) called at App/Inbox.swift:40"))
        #expect(lines.contains { $0.hasPrefix("  ↳ #\(trace.map) on thread 1 (main) via map at Screen.swift:12") })
        #expect(!lines.contains { $0.contains("#\(trace.badge) ") })
        #expect(
            lines.contains(
                "  ↳ #\(trace.dangling) on thread 1 (main) via the Binder to Label bound at Screen.swift:17 "
                    + "(subscription 2)"))
        #expect(
            lines.contains(
                "     dangling: the Binder to Label bound at Screen.swift:17 received \"3 unread\", but its Label "
                    + "was already released: the value went nowhere, and the Binder is still bound"))
    }

    @Test("--format json on a dangling event: its Output, value, and hop through the Binder with the target type")
    func json() throws {
        // Given the same trace
        let trace = DanglingTrace()

        // When why explains the dangling event as JSON
        let run = try run(trace.writer.bytes, "why", "TRACE", "--event", String(trace.dangling), "--format", "json")

        // Then the last step is the dangling event, with the Binder's Output, value and hop
        #expect(run.status == 0, "\(run.standardError)")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        #expect(document["complete"] as? Bool == true)
        let chain = try #require(document["chain"] as? [[String: Any]])
        #expect(chain.compactMap { $0["event"] as? Int } == [trace.root, trace.map, trace.dangling].map(Int.init))
        let last = try #require(chain.last)
        #expect(last["kind"] as? String == "dangling")
        #expect(last["value"] as? String == "3 unread")
        #expect((last["output"] as? [String: Any])?["label"] as? String == "unread text")
        let hop = try #require(last["via"] as? [String: Any])
        #expect(hop["subscription"] as? Int == 2)
        #expect(hop["boundAt"] as? String == "App/Screen.swift:17")
        #expect(hop["target"] as? String == "App.Label")
        if PythonChecks.hasJSONSchema {
            let problems = try PythonChecks.jsonSchemaProblems(
                schema: Schemas.path("why"), documents: [run.standardOutput])
            #expect(problems.isEmpty, "\(problems)")
        }
    }

    @Test("the command a dangling-binder finding suggests explains it through the Binder and the update")
    func suggestedCommand() throws {
        // Given the trace, checked
        let trace = DanglingTrace()
        let file = try TemporaryTrace(trace.writer.bytes)
        defer { file.cleanUp() }
        let check = try Tool.run(["check", file.path])
        let note = try #require(
            check.standardOutput.split(separator: "\n").first { $0.contains("note: explain it: bind-trace why") })

        // When the suggested why runs
        let fingerprint = try #require(note.split(separator: " ").last.map(String.init))
        let run = try Tool.run(["why", file.path, "--finding", fingerprint])

        // Then it tells the finding and explains the dangling event, naming the Binder, the target and
        // the root call
        #expect(check.standardOutput.contains("dangling-binder"))
        #expect(run.standardOutput.contains("how event \(trace.dangling) came about:"), "\(run.standardOutput)")
        #expect(run.standardOutput.contains("via the Binder to Label bound at Screen.swift:17"))
        #expect(run.standardOutput.contains("called at App/Inbox.swift:40"))
    }

    @Test("a dangling event with no delivering update open still names its Binder, marked incomplete")
    func noDeliveringUpdate() throws {
        // Given a dangling record with no update of the Binder's Output open on its thread (a trace
        // that began mid-delivery, or a hostile one), and one for a subscription never bound
        var writer = TraceWriter()
        writer.thread(1, name: "main")
        writer.event(
            .outputCreated(
                TraceEvent.OutputCreation(
                    output: 1, kind: .output, valueType: "Int", site: SourceSite(file: "App/A.swift", line: 1))))
        writer.event(
            .bound(
                TraceEvent.Binding(
                    subscription: 4, output: 1, site: SourceSite(file: "App/A.swift", line: 9),
                    target: BinderTarget(type: "App.Label", identity: 1))))
        let orphan = writer.event(.dangling(subscription: 4))
        let unknown = writer.event(.dangling(subscription: 99))
        writer.end()

        // When why explains each
        let first = try run(writer.bytes, "why", "TRACE", "--event", String(orphan), "--format", "json")
        let second = try run(writer.bytes, "why", "TRACE", "--event", String(unknown))

        // Then the first is one step through the Binder, incomplete; the second says the bind is missing
        #expect(first.status == 0, "\(first.standardError)")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(first.standardOutput.utf8)) as? [String: Any])
        #expect(document["complete"] as? Bool == false)
        let chain = try #require(document["chain"] as? [[String: Any]])
        #expect(chain.count == 1)
        #expect((chain.first?["via"] as? [String: Any])?["boundAt"] as? String == "App/A.swift:9")
        #expect(second.status == 0, "\(second.standardError)")
        #expect(second.standardOutput.contains("subscription 99 (its bind is not in the trace)"))
    }
}

#if Tracing
extension WhyDanglingTests {
    @Test("on a recorded trace, the dangling finding's why names the Binder's line and the update's call")
    func recorded() throws {
        // Given a Binder through a map to a Label that is released, then an update
        let count = Output<Int>(value: 1)
        var bindLine: UInt = 0
        var updateLine: UInt = 0
        // (Not inside `#require(…)`: a macro's argument gets the macro's line for `#line` defaults.)
        let captured = BindTrace.capture("why dangling") {
            var label: Label? = Label()
            let text = count.map { "\($0) unread" }
            bindLine = #line; _ = text.bind(to: label!.binding[\.text])
            label = nil
            updateLine = #line; count.update(withValue: 2)
        }
        let recording = try #require(captured)
        let trace = try TemporaryTrace(recording.bytes)
        defer { trace.cleanUp() }
        let file = "BindTraceToolTests/WhyDanglingTests.swift"

        // When the finding's suggested why runs
        let check = try Tool.run("check", "--scope", String(recording.scope), trace.path)
        let output = check.standardOutput.split(separator: "\n")
        let finding = try #require(output.firstIndex { $0.contains("warning: dangling-binder: ") })
        let note = try #require(output[finding...].first { $0.contains("note: explain it: bind-trace why") })
        let fingerprint = try #require(note.split(separator: " ").last.map(String.init))
        #expect(note.contains("--finding \(fingerprint)"))
        let run = try Tool.run("why", trace.path, "--finding", fingerprint)

        // Then it goes from the app's update, through the map, to the Binder and its gone Label
        #expect(check.standardOutput.contains("\(file):\(bindLine): warning: dangling-binder: "))
        #expect(run.status == 0, "\(run.standardError)")
        let lines = run.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first?.contains("warning: dangling-binder: ") == true)
        #expect(lines.contains { $0.contains("delivered to a Binder whose Label is gone, 2 steps from the root") })
        #expect(lines.contains { $0.contains("update(withValue:) called at \(file):\(updateLine)") })
        #expect(lines.contains { $0.contains("via map at WhyDanglingTests.swift:\(bindLine - 1)") })
        #expect(lines.contains { $0.contains("via the Binder to Label bound at WhyDanglingTests.swift:\(bindLine)") })
        #expect(lines.contains { $0.contains("but its Label was already released") })
    }
}
#endif
