import BindTraceTestSupport
import Foundation
import Testing

/// `why` on SignInSample as the instrumented build records it, against what `dump` shows.
@Suite(
    "bind-trace why on a recorded SignInSample trace",
    .enabled(if: RecordedSample.isRecordable, "the sample records only in the instrumented build (--traits Tracing)")
)
struct WhyRecordedSampleTests {
    private func event(_ run: Tool.Run) throws -> Int {
        let object = try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any]
        return try #require(object?["event"] as? Int, "\(run.standardOutput)\(run.standardError)")
    }

    @Test("--label counts the updates made before .labeled(): every update dump shows, first to last")
    func updatesBeforeTheLabel() throws {
        // Given 'status', a merge(…).ignoringDuplicates() labelled after it delivered its first value
        let sample = try RecordedSample()
        defer { sample.cleanUp() }
        let events = try sample.events()
        let status = RecordedSample.outputs(labelled: "status", in: events)
        try #require(status.count == 1, "one Output is labelled 'status': \(status)")
        let updates = RecordedSample.updates(of: status, in: events)
        let labelled = try #require(
            events.first { $0["event"] as? String == "labeled" && $0["label"] as? String == "status" }?["seq"] as? Int)
        try #require(updates.count >= 2 && updates[0] < labelled, "an update before the label: \(updates), \(labelled)")

        // When why is asked for its first, last and one-past-last update
        let first = try Tool.run("why", sample.path, "--label", "status", "--nth", "1", "--format", "json")
        let last = try Tool.run("why", sample.path, "--label", "status", "--format", "json")
        let past = try Tool.run("why", sample.path, "--label", "status", "--nth", String(updates.count + 1))

        // Then they are dump's first and last, and the count is dump's
        #expect(try event(first) == updates[0])
        #expect(try event(last) == updates[updates.count - 1])
        #expect(past.status == 2)
        #expect(
            past.standardError.contains(
                "'status' was updated \(updates.count) times; there is no update \(updates.count + 1)"),
            "\(past.standardError)")
    }

    @Test("a label several Outputs share: the one updated last, and a note naming the others and --output-id")
    func sharedLabel() throws {
        // Given a label that several Outputs carry (the inbox's cells)
        let sample = try RecordedSample()
        defer { sample.cleanUp() }
        let events = try sample.events()
        let labels = Set(events.compactMap { $0["label"] as? String })
        let shared = try #require(
            labels.sorted().first { label in
                let outputs = RecordedSample.outputs(labelled: label, in: events)
                return outputs.count > 1 && !RecordedSample.updates(of: outputs, in: events).isEmpty
            }, "a label shared by several updated Outputs")
        let outputs = RecordedSample.outputs(labelled: shared, in: events)
        let updates = RecordedSample.updates(of: outputs, in: events)
        let chosen = try #require(
            events.first { $0["seq"] as? Int == updates.last }?["output"] as? Int, "the Output updated last")

        // When why is asked about it
        let run = try Tool.run("why", sample.path, "--label", shared, "--format", "json")

        // Then it explains the last update of any of them, and one line says which and how to pick another
        #expect(run.status == 0, "\(run.standardError)")
        #expect(try event(run) == updates.last)
        let note = run.standardError.split(separator: "\n").map(String.init)
        #expect(note.count == 1, "\(run.standardError)")
        let line = note.first ?? ""
        #expect(
            line.contains(
                "note: \(outputs.count) Outputs are labelled '\(shared)'; explaining Output #\(chosen) made at "))
        for other in outputs.subtracting([chosen]).sorted().prefix(5) {
            #expect(line.contains("#\(other) made at "), "\(other) in \(line)")
        }
        #expect(line.hasSuffix("pick one with --output-id ID"), "\(line)")

        // And --output-id picks another
        let other = try #require(outputs.subtracting([chosen]).sorted().first)
        let picked = try Tool.run("why", sample.path, "--output-id", String(other), "--format", "json")
        #expect(picked.status == 0 || picked.standardError.contains("was never updated"), "\(picked.standardError)")
        #expect(!picked.standardError.contains("Outputs are labelled"))
    }
}

extension WhyRecordedSampleTests {
    @Test("a bind's delivery shows the value the trace holds, or says it is the value the Output was made with")
    func bindDeliveries() throws {
        // Given the recorded sample's binds: some to Outputs updated before (the trace holds their
        // value), some to Outputs never updated (their value at creation, which no record carries)
        let sample = try RecordedSample()
        defer { sample.cleanUp() }
        let events = try sample.events()
        var lastValue: [Int: String] = [:]
        var withValue: [(event: Int, value: String)] = []
        var withoutValue: [Int] = []
        for event in events {
            guard let output = event["output"] as? Int, let seq = event["seq"] as? Int else { continue }
            switch event["event"] as? String {
            case "updated", "fired": if let value = event["value"] as? String { lastValue[output] = value }
            case "bound":
                if let value = lastValue[output] { withValue.append((seq, value)) } else { withoutValue.append(seq) }
            default: break
            }
        }
        try #require(!withValue.isEmpty && !withoutValue.isEmpty)

        // When why explains a few of each
        for (event, value) in withValue.prefix(3) {
            let run = try Tool.run("why", sample.path, "--event", String(event))
            // Then the value is shown
            #expect(run.standardOutput.contains("delivering its current value \"\(value)\""), "\(run.standardOutput)")
            #expect(!run.standardOutput.contains("(value not recorded)"))
        }
        for event in withoutValue.prefix(3) {
            let run = try Tool.run("why", sample.path, "--event", String(event))
            // Then it says which value it was, and why the trace does not hold it
            #expect(run.standardOutput.contains("delivering the value it was created with (not in the trace"))
            #expect(!run.standardOutput.contains("(value not recorded)"), "\(run.standardOutput)")
        }
    }
}
