import Bind
import BindAnalysis
import BindTesting
import Shop
import XCTest

/// The same store in XCTest, run in parallel worker processes: each test touches the shared store
/// first inside its own check, so in every worker the first test to run makes it there.
final class CartXCTests: XCTestCase {
    func testScreenClosesLeavesNothingBound() {
        assertNoBindingLeaks {
            let store = CartStore.shared
            let screen = CartScreen()
            screen.show(store)
            store.add("bread")
            screen.close()
        }
    }

    func testRowsOnStoreUnbound() {
        assertNoBindingLeaks {
            let store = CartStore.shared
            let row = ProductRow()
            row.configure(with: store.summary, emptiesBag: true)
            row.bag.unsubscribe()
        }
    }

    func testCheckoutWeaklyBound() async {
        await assertNoBindingLeaks {
            _ = CartStore.shared
            let checkout = CheckoutViewModel(capturesStrongly: false)
            checkout.total.update(withValue: 4)
            await Task.yield()
        }
    }

    /// The planted leak, judged by the API that returns findings: exactly one retain cycle, at the
    /// view model's strong bind.
    func testStrongCheckoutIsCaught() throws {
        _ = CartStore.shared
        let recording = BindTrace.capture("strong checkout") {
            let checkout = CheckoutViewModel(capturesStrongly: true)
            checkout.total.update(withValue: 8)
        }
        let findings = try TraceAnalyzer.findings(in: XCTUnwrap(recording))
        XCTAssertEqual(findings.map(\.kind), [.retainCycle], "\(findings.map(\.message))")
        XCTAssertEqual(findings.first?.site?.file, "Shop/Screens.swift")
    }
}
