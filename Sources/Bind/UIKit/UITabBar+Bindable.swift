#if (canImport(UIKit) && !os(watchOS)) || BIND_UIKIT_STANDIN
#if BIND_UIKIT_STANDIN
// The tests' stand-in for UIKit (Tests/UIKitStandIn); see docs/compatibility.md.
import Bind
import UIKitStandIn
#else
import UIKit
#endif

extension Bindable where TargetType: UITabBar {
    /// Binds `unselectedItemTintColor`.
    public var unselectedItemColor: Binder<UIColor> {
        Binder(mainThread: target) { $0.unselectedItemTintColor = $1 }
    }
}
#endif
