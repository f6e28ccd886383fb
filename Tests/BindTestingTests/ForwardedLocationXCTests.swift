import Bind
import BindTesting
import Testing
import XCTest

/// A test helper that forwards Swift Testing's `sourceLocation` to `withBindingLeakCheck`, used from
/// an XCTest test: the failure goes where the helper says, in the user's own files.
final class ForwardedLocationXCTests: FailureCapturingTestCase {
    /// A helper as a user writes one: Swift Testing's location, and XCTest's literal file and line.
    private func checked(
        sourceLocation: SourceLocation = #_sourceLocation, file: StaticString = #filePath, line: UInt = #line,
        _ body: () -> Void
    ) async throws {
        try await withBindingLeakCheck(sourceLocation: sourceLocation, file: file, line: line) { body() }
    }

    func testForwardedLocationFailsAtTheHelpersCaller() async throws {
        try XCTSkipUnless(BindTrace.isEnabled, "needs the Tracing trait")
        let callLine = #line + 1
        let found = await failures(ofAsync: { try? await checked { bindAndForget(to: NameLabel()) } })
        XCTAssertEqual(found.map(\.line), [callLine], "\(found)")
        XCTAssertTrue(found.first?.path.hasSuffix("ForwardedLocationXCTests.swift") == true, "\(found)")
        let site = "BindTestingTests/Fixtures.swift:\(plantedLeakLine): leaked-subscription:"
        XCTAssertTrue(found.first?.description.contains(site) == true, "\(found)")
    }
}
