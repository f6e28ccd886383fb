#if Tracing
import Bind
import Foundation
import Testing

/// A capture records every thread of the process, so tests running beside these may add their own
/// sites to a recording: the checks look only at this file's sites, and the suite runs its two
/// tests one after the other.
@Suite("bind-trace diff on runs recorded by the instrumented build", .serialized)
struct DiffRecordedTests {
    final class Screen: BindableCompatible {
        var title = ""
    }

    /// One program: a form whose title is mapped and shown, typed into, with a leaked closure.
    private static func program(keystrokes: Int) {
        let name = Output<String>(value: "").labeled("name")
        let title = name.map { "Hello, \($0)" }.labeled("title")
        let screen = Screen()
        let bag = SubscriptionContainer()
        title.bind(to: screen.binding[\.title]).add(to: bag)
        BindTrace.scope("cell") { _ = name.bind { _ in } }
        for count in 0..<keystrokes { name.update(withValue: String(repeating: "a", count: count + 1)) }
        bag.unsubscribe()
    }

    private func record(keystrokes: Int) throws -> TemporaryTrace {
        // Not inside `#require(…)`: a macro's argument reads every `#line` as the macro's own.
        let captured = BindTrace.capture("diff test") { Self.program(keystrokes: keystrokes) }
        return try TemporaryTrace(try #require(captured).bytes)
    }

    @Test("two runs of one program: other ids, other addresses, the same sites — nothing changed")
    func twoRuns() throws {
        // Given the same program recorded twice (every Output, subscription and Screen is new the second time)
        let first = try record(keystrokes: 3)
        let second = try record(keystrokes: 3)
        defer {
            first.cleanUp()
            second.cleanUp()
        }
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: first.path))
                != Data(contentsOf: URL(fileURLWithPath: second.path)))

        // When they are compared
        let run = try Tool.run("diff", first.path, second.path, "--format", "json")

        // Then nothing of this program changed: no site or edge added, removed or changed, the
        // leak one unchanged finding
        #expect(run.status == 0, "\(run.standardError)")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        for group in ["sites", "edges", "findings"] {
            let lists = try #require(document[group] as? [String: [[String: Any]]])
            for (which, items) in lists where which != "unchanged" {
                let ours = items.filter { "\($0)".contains(Self.file) }
                #expect(ours.isEmpty, "\(group).\(which): \(ours)")
            }
        }
        let unchanged = try #require((document["findings"] as? [String: [[String: Any]]])?["unchanged"])
        #expect(unchanged.filter { "\($0)".contains(Self.file) }.count == 1)
    }

    static let file = "BindTraceToolTests/DiffRecordedTests.swift"

    @Test("the same program typed into 200 times more: its sites grew")
    func storm() throws {
        let base = try record(keystrokes: 3)
        let head = try record(keystrokes: 203)
        defer {
            base.cleanUp()
            head.cleanUp()
        }
        let run = try Tool.run("diff", base.path, head.path, "--fail-on", "growth")
        #expect(run.status == 1)
        #expect(
            run.standardOutput.contains("output 'name' (String): updates 3 → 203 (×67.7, grown)"),
            "\(run.standardOutput)")
    }
}
#endif
