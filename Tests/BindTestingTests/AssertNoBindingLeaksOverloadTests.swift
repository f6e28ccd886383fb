import Bind
import XCTest

@testable import BindTesting

/// Which form of `assertNoBindingLeaks` a call runs: `await` chooses the `async` one even when the body
/// never awaits (before, it chose the synchronous one, with only a compiler warning), and a synchronous
/// test still gets the synchronous one.
final class AssertNoBindingLeaksOverloadTests: FailureCapturingTestCase {
    /// The forms that ran in `body`'s task.
    private final class Forms: @unchecked Sendable {
        private let lock = NSLock()
        private var seen: [LeakCheck.Form] = []
        func add(_ form: LeakCheck.Form) { lock.withLock { seen.append(form) } }
        var all: [LeakCheck.Form] { lock.withLock { seen } }
    }

    func testAwaitWithABodyThatNeverAwaitsRunsTheAsyncForm() async {
        let forms = Forms()
        await LeakCheck.$formObserver.withValue({ forms.add($0) }) {
            await assertNoBindingLeaks(untraced: .warn) { _ = NameLabel() }
        }
        XCTAssertEqual(forms.all, [.asynchronous])
    }

    func testSynchronousTestRunsTheSynchronousForm() {
        let forms = Forms()
        LeakCheck.$formObserver.withValue({ forms.add($0) }) {
            assertNoBindingLeaks(untraced: .warn) { _ = NameLabel() }
        }
        XCTAssertEqual(forms.all, [.synchronous])
    }

    func testAwaitWithABodyThatNeverAwaitsStillFailsAtTheLeak() async throws {
        try XCTSkipUnless(BindTrace.isEnabled, "needs the Tracing trait")
        let found = await failures(ofAsync: { await assertNoBindingLeaks { bindAndForget(to: NameLabel()) } })
        XCTAssertEqual(found.map(\.line), [Int(plantedLeakLine)], "\(found)")
    }
}
