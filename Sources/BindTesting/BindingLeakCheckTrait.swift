import Bind
import BindAnalysis
import Testing

/// Runs a test while recording its bindings, and records an issue for every leak it left behind.
///
/// Each issue points at the line that bound the leaked subscription or created the leaked
/// Output, so the failure shows on the offending line in an IDE. Use it on a test or a suite:
///
/// ```swift
/// @Test(.bindingLeakCheck) func cellUnbindsOnReuse() { … }
///
/// @Suite(.bindingLeakCheck(accepting: [.init(kind: .leakedSubscription, site: "App/Cell.swift:42")]))
/// struct CellTests { … }
/// ```
///
/// What counts: whatever the test body binds or creates that is still bound (to a live Output) or
/// alive when the body returns. Only a build with the `Tracing` trait can see bindings: in any
/// other build the check says it checked nothing — a failure in CI, a warning elsewhere, by default
/// (see ``UntracedBuildPolicy``).
/// A test that throws (a failing `try #require`) still has its leaks reported, before its error.
public struct BindingLeakCheckTrait: TestTrait, SuiteTrait, TestScoping {
    /// Findings that are known and not reported.
    public var accepted: [AcceptedFinding]
    /// What to do in a build that cannot record.
    public var untraced: UntracedBuildPolicy

    /// Creates the check; `.bindingLeakCheck(accepting:untraced:)` is the usual spelling.
    ///
    /// - Parameters:
    ///   - accepted: known findings, by kind and site, that are not reported.
    ///   - untraced: what to do in a build without the `Tracing` trait (`.automatic` by default: fail in CI, warn elsewhere).
    public init(accepting accepted: [AcceptedFinding] = [], untraced: UntracedBuildPolicy = .automatic) {
        self.accepted = accepted
        self.untraced = untraced
    }

    /// Applied to every test in a suite it is attached to.
    public var isRecursive: Bool { true }

    /// The comment a test runner shows for a test under this trait: "Checked for leaked bindings".
    public var comments: [Comment] { ["Checked for leaked bindings"] }

    /// Scopes each test case (each run of a test function), never a suite as a whole.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> BindingLeakCheckTrait? {
        testCase == nil ? nil : self
    }

    /// Runs one test case in a recorded scope, then records an issue for every finding it left behind
    /// (or, in a build that cannot record, the warning or failure of ``untraced``). The test's error,
    /// if it throws, is rethrown after the findings are reported.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // The body's error is rethrown only after judging: a test failing on `try #require` keeps its leaks.
        var thrown: (any Error)?
        let location = test.sourceLocation
        let name = "test \(test.name)"
        let run = await LeakCheck.run(name, fileID: location.fileID, line: location.line, isolation: nil) {
            do { try await function() } catch { thrown = error }
        }
        report(LeakCheck.outcome(of: run, accepting: accepted), anchor: location)
        if let thrown { throw thrown }
    }

    /// Records one issue per finding, at its site; `anchor` (the test) for what has no site.
    func report(_ outcome: LeakCheckOutcome, anchor: SourceLocation) {
        guard outcome.checked else {
            let decision = untraced.decision
            Issue.record(
                Comment(rawValue: decision.message), severity: decision.fails ? .error : .warning,
                sourceLocation: anchor)
            return
        }
        if let error = outcome.readError {
            Issue.record("Binding leak check could not read its own trace: \(error)", sourceLocation: anchor)
        }
        for finding in outcome.findings {
            Issue.record(
                Comment(rawValue: LeakCheck.describe(finding)), sourceLocation: location(of: finding, near: anchor))
        }
    }

    /// The finding's site as a `SourceLocation`, or the test's own when the trace had none.
    func location(of finding: Finding, near anchor: SourceLocation) -> SourceLocation {
        guard let site = finding.site else { return anchor }
        let path =
            site.file == anchor.fileID
            ? anchor.filePath : SourcePaths.filePath(for: site.file, near: anchor.filePath)
        return SourceLocation(fileID: site.file, filePath: path, line: Int(clamping: max(1, site.line)), column: 1)
    }
}

extension Trait where Self == BindingLeakCheckTrait {
    /// Checks the test (or every test of the suite) for leaked bindings; see ``BindingLeakCheckTrait``.
    public static var bindingLeakCheck: Self { BindingLeakCheckTrait() }

    /// Checks for leaked bindings, not reporting the findings in `accepted`.
    ///
    /// - Parameters:
    ///   - accepted: known findings, by kind and site (`"App/Cell.swift:42"`).
    ///   - untraced: what to do in a build without the `Tracing` trait (by default: fail in CI, warn elsewhere).
    public static func bindingLeakCheck(
        accepting accepted: [AcceptedFinding] = [], untraced: UntracedBuildPolicy = .automatic
    ) -> Self {
        BindingLeakCheckTrait(accepting: accepted, untraced: untraced)
    }
}

/// Runs `body` under the same check as ``BindingLeakCheckTrait``, for part of a test.
///
/// Issues are recorded exactly as the trait records them; one with no site is recorded at the
/// caller's line. The body runs where it is called and may capture anything, `Sendable` or not
/// (a test's view models). Handy to check one step of a longer test, or to expect a known leak:
///
/// ```swift
/// await withKnownIssue("TitleCell leaks until #123 is fixed") {
///     try await withBindingLeakCheck { reuseCellWithoutUnbinding() }
/// }
/// ```
/// When `body` throws, what it recorded up to then is still judged and reported, and then its error
/// is rethrown. A check nested in another reports its findings once: the enclosing check leaves
/// out what the nested one judged.
///
/// Outside a Swift Testing test (in an XCTest test, where Swift Testing issues would be dropped) each
/// finding fails the running XCTest test at the finding's own line (its file found below the package
/// that holds `filePath`), as `XCTestCase.assertNoBindingLeaks` does; a finding with no site fails at
/// the caller's line.
///
/// - Parameters:
///   - accepted: known findings, by kind and site, that are not reported.
///   - untraced: what to do in a build that cannot record.
///   - fileID: the caller's `#fileID`, where the check's scope begins and a finding with no site is
///     reported. This and the three below are plain literals, so a file that imports only XCTest
///     can call this.
///   - filePath: the caller's `#filePath`.
///   - line: the caller's line.
///   - column: the caller's column.
///   - isolation: the actor the body runs on: the caller's, by default.
///   - body: the code to check; its errors are rethrown after the check has reported.
public func withBindingLeakCheck(
    accepting accepted: [AcceptedFinding] = [], untraced: UntracedBuildPolicy = .automatic,
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
    isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Void
) async throws {
    let anchor = SourceLocation(
        fileID: fileID, filePath: "\(filePath)", line: Int(clamping: line), column: Int(clamping: column))
    try await LeakCheck.check(
        accepting: accepted, untraced: untraced, anchor: anchor, xcTestFile: filePath, xcTestLine: line,
        isolation: isolation, body)
}

extension LeakCheck {
    /// The check of both `withBindingLeakCheck`s: `anchor` for Swift Testing's issues, the literal
    /// `xcTestFile`/`xcTestLine` for `XCTFail` outside a Swift Testing test.
    static func check(
        accepting accepted: [AcceptedFinding], untraced: UntracedBuildPolicy, anchor: SourceLocation,
        xcTestFile: StaticString, xcTestLine: UInt, isolation: isolated (any Actor)?,
        _ body: () async throws -> Void
    ) async throws {
        var thrown: (any Error)?
        let run = await LeakCheck.run(
            "withBindingLeakCheck", fileID: anchor.fileID, line: anchor.line, isolation: isolation
        ) {
            do { try await body() } catch { thrown = error }
        }
        let outcome = LeakCheck.outcome(of: run, accepting: accepted)
        if Test.current == nil {
            LeakCheck.reportOutsideSwiftTesting(outcome, untraced: untraced, file: xcTestFile, line: xcTestLine)
        } else {
            BindingLeakCheckTrait(accepting: accepted, untraced: untraced).report(outcome, anchor: anchor)
        }
        if let thrown { throw thrown }
    }
}

/// ``withBindingLeakCheck(accepting:untraced:fileID:filePath:line:column:isolation:_:)`` with the
/// caller's location as Swift Testing passes it along: for a test helper that takes a
/// `sourceLocation: SourceLocation = #_sourceLocation` of its own and forwards it.
///
/// - Parameters:
///   - accepted: known findings, by kind and site, that are not reported.
///   - untraced: what to do in a build that cannot record.
///   - sourceLocation: where the check's scope begins and a finding with no site is reported.
///   - file: the `#filePath` where an XCTest failure goes outside a Swift Testing test (`XCTFail`
///     takes only a literal path): the helper's call, unless it forwards its own `#filePath`.
///   - line: the line of that failure: the helper's call, unless it forwards its own `#line`.
///   - isolation: the actor the body runs on: the caller's, by default.
///   - body: the code to check; its errors are rethrown after the check has reported.
public func withBindingLeakCheck(
    accepting accepted: [AcceptedFinding] = [], untraced: UntracedBuildPolicy = .automatic,
    sourceLocation: SourceLocation, file: StaticString = #filePath, line: UInt = #line,
    isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Void
) async throws {
    try await LeakCheck.check(
        accepting: accepted, untraced: untraced, anchor: sourceLocation, xcTestFile: file, xcTestLine: line,
        isolation: isolation, body)
}
