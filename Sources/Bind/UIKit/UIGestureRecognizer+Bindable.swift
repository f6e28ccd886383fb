#if (canImport(UIKit) && !os(watchOS)) || BIND_UIKIT_STANDIN
#if BIND_UIKIT_STANDIN
// The tests' stand-in for UIKit (Tests/UIKitStandIn); see docs/compatibility.md.
import Bind
import UIKitStandIn
#else
import UIKit
#endif

extension Bindable where TargetType: UIGestureRecognizer {
    /// Binds `isEnabled`.
    public var isEnabled: Binder<Bool> { Binder(mainThread: target) { $0.isEnabled = $1 } }
}
#endif
