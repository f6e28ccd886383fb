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
    /// In a build without the `Tracing` trait nothing can be checked: by default it prints a
    /// `warning:` line saying so (``UntracedBuildPolicy/warn``); ``UntracedBuildPolicy/fail`` or
    /// `BIND_LEAK_CHECK_REQUIRE_TRACING=1` make it fail instead.
    ///
    /// - Parameters:
    ///   - accepted: known findings, by kind and site, that are not reported.
    ///   - untraced: what to do in a build that cannot record.
    ///   - body: the code to check; its errors are rethrown.
    public func assertNoBindingLeaks(
        accepting accepted: [AcceptedFinding] = [], untraced: UntracedBuildPolicy = .warn,
        file: StaticString = #filePath, line: UInt = #line, fileID: StaticString = #fileID,
        _ body: () throws -> Void
    ) rethrows {
        // The capture's scope begins at the caller's line: "scope begins here" names the user's test.
        let recording = try BindTrace.capture("assertNoBindingLeaks", file: fileID, line: line, body)
        let outcome = LeakCheck.outcome(of: recording, accepting: accepted)
        let callerPath = "\(file)"
        guard outcome.checked else {
            if untraced.effective == .fail {
                XCTFail(LeakCheck.untracedMessage, file: file, line: line)
            } else {
                print("\(callerPath):\(line): warning: \(LeakCheck.untracedMessage)")
            }
            return
        }
        if let error = outcome.readError {
            XCTFail("Binding leak check could not read its own trace: \(error)", file: file, line: line)
        }
        for finding in outcome.findings {
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
