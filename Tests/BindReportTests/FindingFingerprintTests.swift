@_spi(Harness) import BindAnalysis
@_spi(Harness) import BindTraceModel
import Testing

@_spi(Harness) @testable import BindReport

@Suite("finding fingerprints: the same problem, the same fingerprint, in every run")
struct FindingFingerprintTests {
    private func leak(
        message: String = "closure bound to Output #3 (String) in scope 'cell' is still bound after the scope ended",
        line: UInt = 12, outputs: [UInt64] = [3], event: UInt64 = 40
    ) -> Finding {
        Finding(
            kind: .leakedSubscription, message: message, site: SourceSite(file: "App/Cell.swift", line: line),
            related: [.init(site: SourceSite(file: "App/Model.swift", line: 3), note: "created here")],
            outputs: outputs, subscriptions: [7], event: event)
    }

    @Test("ids and event numbers do not change it")
    func stable() {
        let other = leak(
            message: "closure bound to Output #41 (String) in scope 'cell' is still bound after the scope ended",
            outputs: [41], event: 9_000)
        #expect(FindingFingerprint.of(leak()) == FindingFingerprint.of(other))
        #expect(FindingFingerprint.of(leak()).count == 32)
    }

    @Test("the kind, the site and what it is about do")
    func distinct() {
        let base = FindingFingerprint.of(leak())
        #expect(FindingFingerprint.of(leak(line: 13)) != base)
        #expect(FindingFingerprint.of(leak(message: "closure bound to 'title' (String) in scope 'row' …")) != base)
        var other = leak()
        other.kind = .duplicateBinding
        #expect(FindingFingerprint.of(other) != base)
    }
}
