import Testing

#if canImport(XCTest)
import XCTest
#endif

extension LeakCheck {
    /// Reports for `withBindingLeakCheck` called where no Swift Testing test runs (an XCTest test),
    /// where an `Issue` would be dropped and the test would pass silently.
    ///
    /// `XCTFail` takes only a literal file, so every failure is at the caller's line and names the
    /// finding's own site in its message.
    static func reportOutsideSwiftTesting(
        _ outcome: LeakCheckOutcome, untraced: UntracedBuildPolicy, file: StaticString, line: UInt
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
        for finding in outcome.findings {
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
