#if (canImport(UIKit) && !os(watchOS)) || BIND_UIKIT_STANDIN
#if BIND_UIKIT_STANDIN
// The tests' stand-in for UIKit (Tests/UIKitStandIn); see docs/compatibility.md.
import Bind
import UIKitStandIn
#else
import UIKit
#endif

extension Bindable where TargetType: NSLayoutConstraint {
    /// Binds `constant`.
    public var constant: Binder<CGFloat> { Binder(mainThread: target) { $0.constant = $1 } }

    /// Binds `isActive`.
    public var isActive: Binder<Bool> { Binder(mainThread: target) { $0.isActive = $1 } }

    /// Deactivates the constraint on `true` and activates it on `false`.
    public var isInactive: Binder<Bool> { Binder(mainThread: target) { $0.isActive = !$1 } }
}
#endif
