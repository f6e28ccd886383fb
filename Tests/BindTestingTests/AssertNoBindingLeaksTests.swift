import Bind
import BindTesting
import XCTest

/// `assertNoBindingLeaks` under XCTest. Failures it records are caught by overriding
/// `recordFailure`, so the planted leak is checked without failing this test.
final class AssertNoBindingLeaksTests: XCTestCase {
    private var captured: [(description: String, path: String, line: Int)] = []
    private var capturing = false

    override func recordFailure(
        withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
    ) {
        if capturing {
            captured.append((description, filePath, lineNumber))
        } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }

    private func failures(of body: () -> Void) -> [(description: String, path: String, line: Int)] {
        _ = sharedProfile
        captured = []
        capturing = true
        body()
        capturing = false
        return captured
    }

    func testPlantedLeakFailsAtItsBindLine() throws {
        try XCTSkipUnless(BindTrace.isEnabled, "needs the Tracing trait")
        let found = failures { assertNoBindingLeaks { bindAndForget(to: NameLabel()) } }
        XCTAssertEqual(found.count, 1, "\(found)")
        XCTAssertEqual(found.first?.line, Int(plantedLeakLine))
        XCTAssertTrue(found.first?.path.hasSuffix("Tests/BindTestingTests/Fixtures.swift") == true, "\(found)")
        XCTAssertTrue(found.first?.description.hasPrefix("leaked-subscription:") == true)
    }

    func testFixedTwinPasses() throws {
        try XCTSkipUnless(BindTrace.isEnabled, "needs the Tracing trait")
        let found = failures { assertNoBindingLeaks { bindAndUnsubscribe(to: NameLabel()) } }
        XCTAssertTrue(found.isEmpty, "\(found)")
    }

    func testAcceptedFindingIsNotReported() throws {
        try XCTSkipUnless(BindTrace.isEnabled, "needs the Tracing trait")
        let accepted = AcceptedFinding(
            kind: .leakedSubscription, file: "BindTestingTests/Fixtures.swift", line: plantedLeakLine)
        let found = failures { assertNoBindingLeaks(accepting: [accepted]) { bindAndForget(to: NameLabel()) } }
        XCTAssertTrue(found.isEmpty, "\(found)")
    }

    func testUntracedBuildFailsWhenAsked() throws {
        try XCTSkipIf(BindTrace.isEnabled, "only a build without the Tracing trait checks nothing")
        let found = failures { assertNoBindingLeaks(untraced: .fail) {} }
        XCTAssertEqual(found.count, 1)
        XCTAssertTrue(found.first?.description.contains("checked nothing") == true)
        // By default it only warns (on standard output), and does not fail.
        XCTAssertTrue(failures { assertNoBindingLeaks {} }.isEmpty)
    }
}
