import Bind
import BindAnalysis
import BindTraceModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// What one leak check saw: the findings to report, and whether anything was checked at all.
struct LeakCheckOutcome: Sendable {
    /// `false` in a build without the `Tracing` trait: nothing was recorded, nothing judged.
    var checked: Bool
    /// Findings not accepted by the check's options, in trace order.
    var findings: [Finding]
    /// Findings the options accepted.
    var accepted: [Finding]
    /// A trace that could not be read (a bug in Bind's recorder, reported rather than hidden).
    var readError: TraceReadError?

    static let unchecked = LeakCheckOutcome(checked: false, findings: [], accepted: [], readError: nil)
}

/// The shared core of ``BindingLeakCheckTrait`` and `assertNoBindingLeaks`.
enum LeakCheck {
    /// The message both front ends give when the build cannot record.
    static let untracedMessage =
        "Binding leak check checked nothing: this build has no `Tracing` trait, so no bindings were recorded. "
        + "In your package, declare a trait that enables Bind's: `traits: [.trait(name: \"BindTracing\")]` and, "
        + "on the dependency, `.package(url: …, from: …, traits: [.trait(name: \"Tracing\", "
        + "condition: .when(traits: [\"BindTracing\"]))])`; then run `swift test --traits BindTracing`. "
        + "(In Bind's own package: `swift test --traits Tracing`.)"

    static var environmentRequiresTracing: Bool {
        guard let raw = getenv("BIND_LEAK_CHECK_REQUIRE_TRACING") else { return false }
        let value = String(cString: raw).lowercased()
        return value == "1" || value == "true" || value == "yes"
    }

    /// Judges a recording and splits its findings into reported and accepted.
    static func outcome(of recording: BindTrace.Recording?, accepting accepted: [AcceptedFinding]) -> LeakCheckOutcome {
        guard let recording else { return .unchecked }
        let result: AnalysisResult
        do {
            result = try analysis(of: recording)
        } catch {
            return LeakCheckOutcome(checked: true, findings: [], accepted: [], readError: error)
        }
        // Notes (binds on threads with no scope) are left out: tests running in parallel bind on
        // threads of their own, which a test's capture records too.
        var outcome = LeakCheckOutcome(checked: true, findings: [], accepted: [], readError: nil)
        for finding in result.findings {
            if accepted.contains(where: { $0.accepts(finding) }) {
                outcome.accepted.append(finding)
            } else {
                outcome.findings.append(finding)
            }
        }
        return outcome
    }

    /// The one place that asks the analysis for findings: those of the capture's own scope, warnings
    /// and errors only. A glitch is a propagation's shape, not a leak, and notes (a redundant update,
    /// a combine that stopped) are for `bind-trace check`, not a reason to fail a test.
    static func analysis(of recording: BindTrace.Recording) throws(TraceReadError) -> AnalysisResult {
        var result = try TraceAnalyzer.analyze(recording, options: AnalysisOptions(focusScope: recording.scope))
        result.findings.removeAll { $0.kind == .glitch || $0.severity < .warning }
        return result
    }

    /// The line a finding is reported at, with its related sites and explanation.
    static func describe(_ finding: Finding) -> String {
        var text = "\(finding.kind.rawValue): \(finding.message)"
        // Nothing inside BindTesting is a line the user can act on (its scopes begin at the user's test).
        for related in finding.related where related.site.module != "BindTesting" {
            text += "\n  \(related.site): \(related.note)"
        }
        text += "\n  \(finding.kind.explanation)"
        return text
    }
}
