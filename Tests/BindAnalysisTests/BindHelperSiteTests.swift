import Bind
import BindAnalysis
import BindTraceTestSupport
import Testing

/// An app's own bind helpers, written against the public API as an app would (README, "Your own bind
/// helpers"): `bind` records its direct caller's line, so a helper forwards its own caller's.
extension Output where Value == Int {
    /// Forwards `file:`/`line:`: findings name the line that called the helper.
    @discardableResult
    fileprivate func bindCount(
        to label: Label, suffix: String, file: StaticString = #fileID, line: UInt = #line
    ) -> Subscription {
        bind({ [weak label] in label?.text = "\($0) \(suffix)" }, file: file, line: line)
    }

    /// Does not forward them: every caller's finding names this helper's line.
    @discardableResult
    fileprivate func bindCountAtHelper(to label: Label, suffix: String) -> Subscription {
        bind { [weak label] in label?.text = "\($0) \(suffix)" }
    }
}

@Suite("an app's own bind helper: findings name the helper's caller when it forwards file: and line:", .requiresTracing)
struct BindHelperSiteTests {
    @Test("a helper forwarding file: and line: gets each caller's leak reported at the caller's line")
    func forwardingHelper() throws {
        // Given two screens that drop the Subscription a forwarding helper returns
        let unread = Output<Int>(value: 3)
        let label = Label()
        var ordersLine: UInt = 0
        var inboxLine: UInt = 0

        // When each binds through the helper in its scope
        let recording = BindTrace.capture {
            BindTrace.scope("orders screen") {
                ordersLine = #line; unread.bindCount(to: label, suffix: "orders")
            }
            BindTrace.scope("inbox screen") {
                inboxLine = #line; unread.bindCount(to: label, suffix: "messages")
            }
        }

        // Then there are two leaks, each at its caller's line in this file
        let result = try analyze(recording)
        #expect(
            kindsAndLines(result).sorted()
                == ["leaked-subscription@\(ordersLine)", "leaked-subscription@\(inboxLine)"].sorted())
        #expect(result.findings.allSatisfy { $0.site?.file == "BindAnalysisTests/BindHelperSiteTests.swift" })
    }

    @Test("a helper that does not forward them gets every caller's leak merged at the helper's own line")
    func nonForwardingHelper() throws {
        // Given the same two screens using a helper that calls bind without forwarding
        let unread = Output<Int>(value: 3)
        let label = Label()
        var ordersLine: UInt = 0
        var inboxLine: UInt = 0

        // When each binds through it
        let recording = BindTrace.capture {
            BindTrace.scope("orders screen") {
                ordersLine = #line; unread.bindCountAtHelper(to: label, suffix: "orders")
            }
            BindTrace.scope("inbox screen") {
                inboxLine = #line; unread.bindCountAtHelper(to: label, suffix: "messages")
            }
        }

        // Then one finding covers both, at a line that is neither caller's (the helper's bind)
        let result = try analyze(recording)
        let finding = try #require(result.findings.first)
        #expect(result.findings.count == 1)
        #expect(finding.kind == .leakedSubscription)
        #expect(finding.site.map { [ordersLine, inboxLine].contains($0.line) } == false)
        #expect(finding.message.contains("2 times"))
    }
}
