import BindAnalysis
import Testing

#if canImport(XCTest)
import XCTest
#endif

extension LeakCheck {
    /// Reports an outcome to XCTest (or, with no XCTest, to the console): the untraced build's warning
    /// or failure and a trace that could not be read at `file`:`line`, then each finding through
    /// `leak`. `assertNoBindingLeaks` and `withBindingLeakCheck` outside a Swift Testing test (where an
    /// `Issue` would be dropped and the test would pass silently) record each finding at its own site.
    static func reportToXCTest(
        _ outcome: LeakCheckOutcome, untraced: UntracedBuildPolicy, file: StaticString, line: UInt,
        leak: (Finding) -> Void
    ) {
        guard outcome.checked else {
            let decision = untraced.decision
            if decision.fails {
                fail(decision.message, file: file, line: line)
            } else {
                print("\(file):\(line): warning: \(decision.message)")
            }
            return
        }
        if let error = outcome.readError {
            fail("Binding leak check could not read its own trace: \(error)", file: file, line: line)
        }
        for finding in outcome.findings { leak(finding) }
    }

    /// `withBindingLeakCheck` in an XCTest test: each finding fails the running test at its own site,
    /// the file found below the package that holds `file` (the caller's `#filePath`); a finding with no
    /// site fails at the caller's line.
    static func reportOutsideSwiftTesting(
        _ outcome: LeakCheckOutcome, untraced: UntracedBuildPolicy, file: StaticString, line: UInt
    ) {
        let callerPath = "\(file)"
        reportToXCTest(outcome, untraced: untraced, file: file, line: line) { finding in
            guard let site = finding.site else { return fail(describe(finding), file: file, line: line) }
            let path = SourcePaths.filePath(for: site.file, near: callerPath)
            // `XCTFail` takes the file as a `StaticString`: one made at run time for the site's path.
            if let sitePath = StaticString.madeAtRunTime(path) {
                fail(describe(finding), file: sitePath, line: UInt(clamping: site.line))
            } else {
                fail("\(site.file):\(site.line): " + describe(finding), file: file, line: line)
            }
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
