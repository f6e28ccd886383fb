#if canImport(XCTest)
import BindAnalysis
import Bind
import XCTest

extension XCTestCase {
    /// Runs `body` while recording its bindings and fails at the line of every leak it left behind.
    ///
    /// The failure is recorded at the line that bound the leaked subscription or created the
    /// leaked Output (found below the package that holds the calling file), so Xcode shows it
    /// there.
    ///
    /// ```swift
    /// func testCellUnbindsOnReuse() {
    ///     assertNoBindingLeaks {
    ///         let cell = TitleCell()
    ///         cell.configure(with: model)
    ///         cell.prepareForReuse()
    ///     }
    /// }
    /// ```
    /// In a build without the `Tracing` trait nothing can be checked: by default it fails saying so
    /// in CI (the environment variable `CI` set) and prints a `warning:` line elsewhere
    /// (``UntracedBuildPolicy/automatic``).
    ///
    /// In an `async` test, `await assertNoBindingLeaks { … }` runs the `async` form even when the body
    /// never awaits: this synchronous form is for synchronous tests.
    ///
    /// - Parameters:
    ///   - accepted: known findings, by kind and site, that are not reported.
    ///   - untraced: what to do in a build that cannot record.
    ///   - file: the `#filePath` of the call, where a failure with no site of its own is recorded.
    ///   - line: the line of the call.
    ///   - fileID: the `#fileID` of the call, where the check's scope begins.
    ///   - body: the code to check; its errors are rethrown after the check has reported, so a
    ///     test that fails on a thrown error still shows its leaks.
    // Disfavoured: in an async context a body that never awaits fits both forms, and the async one
    // must win there (a synchronous context cannot call it, so it still gets this one).
    @_disfavoredOverload
    public func assertNoBindingLeaks<Failure: Error>(
        accepting accepted: [AcceptedFinding] = [], untraced: UntracedBuildPolicy = .automatic,
        file: StaticString = #filePath, line: UInt = #line, fileID: StaticString = #fileID,
        _ body: () throws(Failure) -> Void
    ) throws(Failure) {
        LeakCheck.formObserver?(.synchronous)
        // The body's error is rethrown only after judging, so a failing test still shows its leaks.
        var thrown: Failure?
        // The capture's scope begins at the caller's line: "scope begins here" names the user's test.
        let run = LeakCheck.run("assertNoBindingLeaks", fileID: fileID, line: line) {
            do throws(Failure) { try body() } catch { thrown = error }
        }
        reportLeaks(of: run, accepting: accepted, untraced: untraced, file: file, line: line)
        if let thrown { throw thrown }
    }

    /// Runs the asynchronous `body` while recording its bindings and fails at the line of every leak
    /// it left behind: ``assertNoBindingLeaks(accepting:untraced:file:line:fileID:_:)`` for `async`
    /// tests (a `@MainActor` view model's). `await assertNoBindingLeaks { … }` chooses this form
    /// whether or not the body awaits.
    ///
    /// ```swift
    /// @MainActor func testProfileScreenUnbindsOnClose() async {
    ///     await assertNoBindingLeaks {
    ///         let screen = ProfileScreen(store: store)
    ///         await screen.load()
    ///         screen.close()
    ///     }
    /// }
    /// ```
    /// Child tasks the body starts are judged with it; a `Task.detached` or a `DispatchQueue`
    /// closure only when it carries the scope (`BindTrace.withScope`, `BindTrace.inheritingScope`).
    ///
    /// - Parameters:
    ///   - accepted: known findings, by kind and site, that are not reported.
    ///   - untraced: what to do in a build that cannot record.
    ///   - file: the `#filePath` of the call, where a failure with no site of its own is recorded.
    ///   - line: the line of the call.
    ///   - fileID: the `#fileID` of the call, where the check's scope begins.
    ///   - isolation: the actor the body runs on: the caller's, by default.
    ///   - body: the code to check; its errors are rethrown after the check has reported.
    public func assertNoBindingLeaks<Failure: Error>(
        accepting accepted: [AcceptedFinding] = [], untraced: UntracedBuildPolicy = .automatic,
        file: StaticString = #filePath, line: UInt = #line, fileID: StaticString = #fileID,
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws(Failure) -> Void
    ) async throws(Failure) {
        LeakCheck.formObserver?(.asynchronous)
        var thrown: Failure?
        let run = await LeakCheck.run(
            "assertNoBindingLeaks", fileID: "\(fileID)", line: Int(clamping: line), isolation: isolation
        ) {
            do throws(Failure) { try await body() } catch { thrown = error }
        }
        reportLeaks(of: run, accepting: accepted, untraced: untraced, file: file, line: line)
        if let thrown { throw thrown }
    }

    /// Fails the test at each finding's own line; the warning or failure of a build that cannot record.
    private func reportLeaks(
        of run: CheckedRun, accepting accepted: [AcceptedFinding], untraced: UntracedBuildPolicy,
        file: StaticString, line: UInt
    ) {
        let outcome = LeakCheck.outcome(of: run, accepting: accepted)
        let callerPath = "\(file)"
        LeakCheck.reportToXCTest(outcome, untraced: untraced, file: file, line: line) { finding in
            let path = finding.site.map { SourcePaths.filePath(for: $0.file, near: callerPath) } ?? callerPath
            let findingLine = finding.site.map { Int(clamping: $0.line) } ?? Int(line)
            recordLeak(LeakCheck.describe(finding), path: path, line: findingLine)
        }
    }

    private func recordLeak(_ description: String, path: String, line: Int) {
        #if canImport(Darwin)
        let location = XCTSourceCodeLocation(filePath: path, lineNumber: line)
        record(
            XCTIssue(
                type: .assertionFailure, compactDescription: description,
                sourceCodeContext: XCTSourceCodeContext(location: location)))
        #else
        recordFailure(withDescription: description, inFile: path, atLine: line, expected: true)
        #endif
    }
}
#endif
