#if (canImport(UIKit) && !os(watchOS)) || BIND_UIKIT_STANDIN
#if BIND_UIKIT_STANDIN
// The tests' stand-in for UIKit (Tests/UIKitStandIn); see docs/compatibility.md.
import Bind
import UIKitStandIn
#else
import UIKit
#endif

extension Bindable where TargetType: UIControl {
    /// Binds `isEnabled` (of buttons, switches, text fields and every other control).
    public var isEnabled: Binder<Bool> { Binder(mainThread: target) { $0.isEnabled = $1 } }

    /// Binds `isSelected`.
    public var isSelected: Binder<Bool> { Binder(mainThread: target) { $0.isSelected = $1 } }
}
#endif
