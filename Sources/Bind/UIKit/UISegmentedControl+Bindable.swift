#if (canImport(UIKit) && !os(watchOS)) || BIND_UIKIT_STANDIN
#if BIND_UIKIT_STANDIN
// The tests' stand-in for UIKit (Tests/UIKitStandIn); see docs/compatibility.md.
import Bind
import UIKitStandIn
#else
import UIKit
#endif

extension Bindable where TargetType: UISegmentedControl {
    /// Binds `selectedSegmentIndex`.
    public var selectedIndex: Binder<Int> { Binder(mainThread: target) { $0.selectedSegmentIndex = $1 } }

    /// Replaces all segments with one per title, in order.
    public var titles: Binder<[String]> {
        Binder(mainThread: target) { control, titles in
            control.removeAllSegments()
            for (index, title) in titles.enumerated() {
                control.insertSegment(withTitle: title, at: index, animated: false)
            }
        }
    }

    /// Binds the title of the segment at `index`.
    public func title(for index: Int) -> Binder<String> {
        Binder(mainThread: target) { $0.setTitle($1, forSegmentAt: index) }
    }
}
#endif
