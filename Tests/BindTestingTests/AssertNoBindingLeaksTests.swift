import Bind
import XCTest

@testable import BindTesting

/// `assertNoBindingLeaks` and `withBindingLeakCheck` under XCTest. This file imports XCTest and not
/// Testing on purpose: `withBindingLeakCheck` must be callable from such a file. Failures it records are caught by overriding
/// `recordFailure`, so the planted leak is checked without failing this test.
final class AssertNoBindingLeaksTests: FailureCapturingTestCase {
    private struct Expected: Error {}

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
        // `.warn` only warns (on standard output), and does not fail.
        XCTAssertTrue(failures { assertNoBindingLeaks(untraced: .warn) {} }.isEmpty)
    }

    func testUntracedBuildFailsInCIByDefault() throws {
        try XCTSkipIf(BindTrace.isEnabled, "only a build without the Tracing trait checks nothing")
        // The default is `.automatic`: it fails where this process's environment says CI, warns elsewhere.
        let found = failures { assertNoBindingLeaks {} }
        let fails = UntracedBuildPolicy.automatic.decision.fails
        XCTAssertEqual(found.count, fails ? 1 : 0, "\(found)")
        if fails { XCTAssertTrue(found.first?.description.contains("BIND_LEAK_CHECK_REQUIRE_TRACING") == true) }
    }

    func testThrowingBodyStillFailsAtTheLeakAndRethrows() throws {
        try XCTSkipUnless(BindTrace.isEnabled, "needs the Tracing trait")
        var thrown: (any Error)?
        let found = failures {
            do {
                try assertNoBindingLeaks {
                    bindAndForget(to: NameLabel())
                    throw Expected()
                }
            } catch {
                thrown = error
            }
        }
        XCTAssertEqual(found.map(\.line), [Int(plantedLeakLine)], "\(found)")
        XCTAssertTrue(thrown is Expected)
    }

    func testAsyncPlantedLeakFailsAtItsBindLine() async throws {
        try XCTSkipUnless(BindTrace.isEnabled, "needs the Tracing trait")
        let found = await failures(ofAsync: {
            await assertNoBindingLeaks {
                await Task.yield()
                bindAndForget(to: NameLabel())
            }
        })
        XCTAssertEqual(found.map(\.line), [Int(plantedLeakLine)], "\(found)")
        XCTAssertTrue(found.first?.path.hasSuffix("Tests/BindTestingTests/Fixtures.swift") == true, "\(found)")
        XCTAssertTrue(found.first?.description.hasPrefix("leaked-subscription:") == true)
    }

    func testAsyncLeakInAChildTaskFails() async throws {
        try XCTSkipUnless(BindTrace.isEnabled, "needs the Tracing trait")
        let found = await failures(ofAsync: {
            await assertNoBindingLeaks {
                await Task { bindAndForget(to: NameLabel()) }.value
            }
        })
        XCTAssertEqual(found.map(\.line), [Int(plantedLeakLine)], "\(found)")
    }

    func testAsyncFixedTwinPasses() async throws {
        try XCTSkipUnless(BindTrace.isEnabled, "needs the Tracing trait")
        let found = await failures(ofAsync: {
            await assertNoBindingLeaks {
                await Task.yield()
                bindAndUnsubscribe(to: NameLabel())
            }
        })
        XCTAssertTrue(found.isEmpty, "\(found)")
    }

    func testAsyncThrowingBodyStillFailsAtTheLeakAndRethrows() async throws {
        try XCTSkipUnless(BindTrace.isEnabled, "needs the Tracing trait")
        var thrown: (any Error)?
        let found = await failures(ofAsync: {
            do {
                try await assertNoBindingLeaks {
                    await Task.yield()
                    bindAndForget(to: NameLabel())
                    throw Expected()
                }
            } catch {
                thrown = error
            }
        })
        XCTAssertEqual(found.map(\.line), [Int(plantedLeakLine)], "\(found)")
        XCTAssertTrue(thrown is Expected)
    }

    func testWithBindingLeakCheckFailsAnXCTestTestAtTheLeaksOwnLine() async throws {
        try XCTSkipUnless(BindTrace.isEnabled, "needs the Tracing trait")
        let found = await failures(ofAsync: {
            try? await withBindingLeakCheck { bindAndForget(to: NameLabel()) }
        })
        XCTAssertEqual(found.map(\.line), [Int(plantedLeakLine)], "\(found)")
        XCTAssertTrue(found.first?.path.hasSuffix("Tests/BindTestingTests/Fixtures.swift") == true, "\(found)")
        // XCTFail's own "failed - " comes first.
        XCTAssertTrue(found.first?.description.contains("leaked-subscription:") == true, "\(found)")
    }

    func testWithBindingLeakCheckFixedTwinPassesInXCTest() async throws {
        try XCTSkipUnless(BindTrace.isEnabled, "needs the Tracing trait")
        let found = await failures(ofAsync: {
            try? await withBindingLeakCheck { bindAndUnsubscribe(to: NameLabel()) }
        })
        XCTAssertTrue(found.isEmpty, "\(found)")
    }

    func testAsyncUntracedBuildFailsWhenAsked() async throws {
        try XCTSkipIf(BindTrace.isEnabled, "only a build without the Tracing trait checks nothing")
        let found = await failures(ofAsync: { await assertNoBindingLeaks(untraced: .fail) { await Task.yield() } })
        XCTAssertEqual(found.count, 1)
        XCTAssertTrue(found.first?.description.contains("checked nothing") == true)
    }
}
