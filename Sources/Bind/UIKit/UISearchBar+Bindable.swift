#if (canImport(UIKit) && !os(watchOS)) || BIND_UIKIT_STANDIN
#if BIND_UIKIT_STANDIN
// The tests' stand-in for UIKit (Tests/UIKitStandIn); see docs/compatibility.md.
import Bind
import UIKitStandIn
#else
import UIKit
#endif

extension Bindable where TargetType: UISearchBar {
    /// Binds `placeholder`.
    public var placeholder: Binder<String> { Binder(mainThread: target) { $0.placeholder = $1 } }
}
#endif
