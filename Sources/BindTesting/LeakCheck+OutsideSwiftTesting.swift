import BindAnalysis
import Testing

#if canImport(XCTest)
import XCTest
#endif

extension LeakCheck {
    /// Reports an outcome to XCTest (or, with no XCTest, to the console): the untraced build's warning
    /// or failure and a trace that could not be read at `file`:`line`, then each finding through
    /// `leak`. `assertNoBindingLeaks` records a finding at its own site; `withBindingLeakCheck`
    /// outside a Swift Testing test, where an `Issue` would be dropped and the test would pass
    /// silently, fails at `file`:`line` with the site in the message (``reportOutsideSwiftTesting``).
    static func reportToXCTest(
        _ outcome: LeakCheckOutcome, untraced: UntracedBuildPolicy, file: StaticString, line: UInt,
        leak: (Finding) -> Void
    ) {
        guard outcome.checked else {
            if untraced.effective == .fail {
                fail(untracedMessage, file: file, line: line)
            } else {
                print("\(file):\(line): warning: \(untracedMessage)")
            }
            return
        }
        if let error = outcome.readError {
            fail("Binding leak check could not read its own trace: \(error)", file: file, line: line)
        }
        for finding in outcome.findings { leak(finding) }
    }

    /// `XCTFail` takes only a literal file, so every failure is at the caller's line and names the
    /// finding's own site in its message.
    static func reportOutsideSwiftTesting(
        _ outcome: LeakCheckOutcome, untraced: UntracedBuildPolicy, file: StaticString, line: UInt
    ) {
        reportToXCTest(outcome, untraced: untraced, file: file, line: line) { finding in
            let site = finding.site.map { "\($0.file):\($0.line): " } ?? ""
            fail(site + describe(finding), file: file, line: line)
        }
    }

    private static func fail(_ message: String, file: StaticString, line: UInt) {
        #if canImport(XCTest)
        XCTFail(message, file: file, line: line)
        #else
        // No test framework to tell: the message is the failure.
        Issue.record(Comment(rawValue: message))
        print("\(file):\(line): error: \(message)")
        #endif
    }
}
