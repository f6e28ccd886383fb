import Bind
import BindAnalysis
import BindTraceModel
import Foundation

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

/// What a checked body left behind: its recording, and what the checks nested in it already judged.
struct CheckedRun: Sendable {
    /// `nil` in a build without the `Tracing` trait.
    var recording: BindTrace.Recording?
    /// Findings that checks nested in this one judged (reported or accepted) while it ran.
    var judgedInside: JudgedFindings
}

/// The findings the checks nested in one check have judged, so that the enclosing check does not report
/// them a second time. Nested checks may run in child tasks, hence the lock.
final class JudgedFindings: @unchecked Sendable {
    /// What makes two analyses' findings the same problem: trace ids are unique in a process, while
    /// messages name the scope that judged them.
    struct Identity: Hashable {
        var kind: Finding.Kind
        var site: SourceSite?
        var outputs: [UInt64]
        var subscriptions: [UInt64]

        init(_ finding: Finding) {
            kind = finding.kind
            site = finding.site
            outputs = finding.outputs
            subscriptions = finding.subscriptions
        }
    }

    private let lock = NSLock()
    private var identities: Set<Identity> = []

    func insert(_ findings: [Finding]) { lock.withLock { identities.formUnion(findings.map(Identity.init)) } }
    func contains(_ finding: Finding) -> Bool { lock.withLock { identities.contains(Identity(finding)) } }
}

/// The shared core of ``BindingLeakCheckTrait``, `withBindingLeakCheck` and `assertNoBindingLeaks`.
enum LeakCheck {
    /// The findings list of the check the current task runs in (`nil` outside any check).
    @TaskLocal static var enclosingCheck: JudgedFindings?

    /// Which form of `assertNoBindingLeaks` runs, for a test of the overload the compiler chooses.
    enum Form: Sendable { case synchronous, asynchronous }
    /// Told the form of each `assertNoBindingLeaks` run in its task (tests only; `nil` otherwise).
    @TaskLocal static var formObserver: (@Sendable (Form) -> Void)?

    /// Records `body` in a scope named `name` that begins at the user's `fileID`:`line`.
    ///
    /// `body` does not throw: a front end catches its body's error, judges the recording, and
    /// rethrows, so a test that fails on `try #require` still reports its leaks.
    static func run(
        _ name: String, fileID: String, line: Int, isolation: isolated (any Actor)?, _ body: () async -> Void
    ) async -> CheckedRun {
        let inside = JudgedFindings()
        let recording = await $enclosingCheck.withValue(
            inside,
            operation: {
                await BindTrace.capture(name, fileID: fileID, line: line, isolation: isolation, body)
            }, isolation: isolation)
        return CheckedRun(recording: recording, judgedInside: inside)
    }

    /// ``run(_:fileID:line:isolation:_:)`` for a synchronous body.
    static func run(_ name: String, fileID: StaticString, line: UInt, _ body: () -> Void) -> CheckedRun {
        let inside = JudgedFindings()
        let recording = $enclosingCheck.withValue(inside) { BindTrace.capture(name, file: fileID, line: line, body) }
        return CheckedRun(recording: recording, judgedInside: inside)
    }

    /// The message both front ends give when the build cannot record.
    static let untracedMessage =
        "Binding leak check checked nothing: this build has no `Tracing` trait, so no bindings were recorded. "
        + "In your package, declare a trait that enables Bind's: `traits: [.trait(name: \"BindTracing\")]` and, "
        + "on the dependency, `.package(url: …, from: …, traits: [.trait(name: \"Tracing\", "
        + "condition: .when(traits: [\"BindTracing\"]))])`; then run `swift test --traits BindTracing`. "
        + "(In Bind's own package: `swift test --traits Tracing`.)"

    /// Judges a run and splits its findings into reported and accepted, leaving out what a nested
    /// check already judged; then tells the enclosing check (if any) what this one judged.
    static func outcome(of run: CheckedRun, accepting accepted: [AcceptedFinding]) -> LeakCheckOutcome {
        guard let recording = run.recording else { return .unchecked }
        let result: AnalysisResult
        do {
            result = try analysis(of: recording)
        } catch {
            return LeakCheckOutcome(checked: true, findings: [], accepted: [], readError: error)
        }
        // Notes (binds on threads with no scope) are left out: tests running in parallel bind on
        // threads of their own, which a test's capture records too.
        var outcome = LeakCheckOutcome(checked: true, findings: [], accepted: [], readError: nil)
        for finding in result.findings where !run.judgedInside.contains(finding) {
            if accepted.contains(where: { $0.accepts(finding) }) {
                outcome.accepted.append(finding)
            } else {
                outcome.findings.append(finding)
            }
        }
        enclosingCheck?.insert(outcome.findings + outcome.accepted)
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
