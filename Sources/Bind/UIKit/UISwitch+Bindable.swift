#if (canImport(UIKit) && !os(tvOS) && !os(watchOS)) || BIND_UIKIT_STANDIN
#if BIND_UIKIT_STANDIN
// The tests' stand-in for UIKit (Tests/UIKitStandIn); see docs/compatibility.md.
import Bind
import UIKitStandIn
#else
import UIKit
#endif

extension Bindable where TargetType: UISwitch {
    /// Binds `isOn`, without animation.
    public var isOn: Binder<Bool> { Binder(mainThread: target) { $0.isOn = $1 } }
}
#endif
