import Bind
@_spi(Harness) import BindAnalysis
import BindTesting
@_spi(Harness) import BindTraceModel
import Foundation
import Testing

/// Subscriptions the tests keep for the rest of the process, as a leaked screen would.
private final class KeptForever: @unchecked Sendable {
    static let shared = KeptForever()
    private let lock = NSLock()
    private var kept: [Subscription] = []
    func keep(_ subscription: Subscription) { lock.withLock { kept.append(subscription) } }
}

@Suite("sites of findings in long traces", .enabled(if: BindTrace.isEnabled))
struct LongTraceSiteTests {
    @Test("a finding made after thousands of events without a bind or a creation still names its file")
    func siteAfterManyScopes() throws {
        // Given a recording whose first thousands of events are scopes only (this file's string is
        // defined by the first of them), then a screen whose closure keeps its Output alive
        // (captured outside #require: inside a macro's argument, #line is the macro's)
        let captured = BindTrace.capture {
            for _ in 0..<2_500 { BindTrace.scope("idle") {} }
            BindTrace.scope("screen") {
                let count = Output<Int>(value: 1)
                KeptForever.shared.keep(count.bind { _ in _ = count })
            }
        }
        let bindLine: UInt = #line - 3
        let recording = try #require(captured)

        // When it is judged
        let findings = try TraceAnalyzer.findings(in: recording)

        // Then the finding is at the bind, in this file
        let finding = try #require(findings.first { $0.kind == .retainCycle }, "\(findings.map(\.message))")
        #expect(finding.site == SourceSite(file: "BindAnalysisTests/LongTraceSiteTests.swift", line: bindLine))
        #expect(finding.message.contains("Output<Int> at LongTraceSiteTests.swift:"))
    }
}
