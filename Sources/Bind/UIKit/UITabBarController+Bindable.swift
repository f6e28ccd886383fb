#if (canImport(UIKit) && !os(watchOS)) || BIND_UIKIT_STANDIN
#if BIND_UIKIT_STANDIN
// The tests' stand-in for UIKit (Tests/UIKitStandIn); see docs/compatibility.md.
import Bind
import UIKitStandIn
#else
import UIKit
#endif

extension Bindable where TargetType: UITabBarController {
    /// Binds `selectedIndex`.
    public var selectedIndex: Binder<Int> { Binder(mainThread: target) { $0.selectedIndex = $1 } }
}
#endif
