#if (canImport(UIKit) && !os(watchOS)) || BIND_UIKIT_STANDIN
#if BIND_UIKIT_STANDIN
// The tests' stand-in for UIKit (Tests/UIKitStandIn); see docs/compatibility.md.
import Bind
import UIKitStandIn
#else
import UIKit
#endif

extension Bindable where TargetType: UINavigationItem {
    /// Binds `title`.
    public var title: Binder<String> { Binder(mainThread: target) { $0.title = $1 } }
}
#endif
