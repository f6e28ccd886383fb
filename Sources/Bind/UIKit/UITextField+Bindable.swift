#if (canImport(UIKit) && !os(watchOS)) || BIND_UIKIT_STANDIN
#if BIND_UIKIT_STANDIN
// The tests' stand-in for UIKit (Tests/UIKitStandIn); see docs/compatibility.md.
import Bind
import UIKitStandIn
#else
import UIKit
#endif

extension Bindable where TargetType: UITextField {
    /// Binds `text`. Setting it sends no editing events, so it does not loop back into the view model.
    public var text: Binder<String> { Binder(mainThread: target) { $0.text = $1 } }

    /// Binds the layer's `borderColor`.
    public var borderColor: Binder<UIColor> { Binder(mainThread: target) { $0.layer.borderColor = $1.cgColor } }
}
#endif
