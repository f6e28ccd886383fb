#if Tracing
import Bind
import Foundation
import Testing

@Suite("bind-trace diff on runs recorded by the instrumented build")
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
        #expect(try Data(contentsOf: URL(fileURLWithPath: first.path)) != Data(contentsOf: URL(fileURLWithPath: second.path)))

        // When they are compared
        let run = try Tool.run("diff", first.path, second.path, "--fail-on", "new-findings", "--fail-on", "growth")

        // Then nothing changed, the leak is one unchanged finding, and the gates pass
        #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
        #expect(
            run.standardOutput.contains(
                "bind-trace: diff: 0 new findings, 0 fixed, 1 unchanged; 0 sites grown; 0 sites added, 0 removed; "
                    + "0 edges added, 0 removed"), "\(run.standardOutput)")
    }

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
        #expect(run.standardOutput.contains("output 'name' (String): updates 3 → 203 (×67.6, grown)"), "\(run.standardOutput)")
    }
}
#endif
