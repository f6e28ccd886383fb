import Bind
import BindTesting
import Testing
import XCTest

/// A test helper that forwards Swift Testing's `sourceLocation` to `withBindingLeakCheck`, used from
/// an XCTest test: the failure goes to the leak's own line, found in the package of the forwarded file.
final class ForwardedLocationXCTests: FailureCapturingTestCase {
    /// A helper as a user writes one: Swift Testing's location, and XCTest's literal file and line.
    private func checked(
        sourceLocation: SourceLocation = #_sourceLocation, file: StaticString = #filePath, line: UInt = #line,
        _ body: () -> Void
    ) async throws {
        try await withBindingLeakCheck(sourceLocation: sourceLocation, file: file, line: line) { body() }
    }

    func testForwardedLocationFindsTheLeaksOwnFile() async throws {
        try XCTSkipUnless(BindTrace.isEnabled, "needs the Tracing trait")
        let found = await failures(ofAsync: { try? await checked { bindAndForget(to: NameLabel()) } })
        // The forwarded #filePath says which package to look in; the failure is at the leak's own line.
        XCTAssertEqual(found.map(\.line), [Int(plantedLeakLine)], "\(found)")
        XCTAssertTrue(found.first?.path.hasSuffix("Tests/BindTestingTests/Fixtures.swift") == true, "\(found)")
        // XCTFail's own "failed - " comes first.
        XCTAssertTrue(found.first?.description.contains("leaked-subscription:") == true, "\(found)")
    }
}
