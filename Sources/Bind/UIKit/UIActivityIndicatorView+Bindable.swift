#if (canImport(UIKit) && !os(watchOS)) || BIND_UIKIT_STANDIN
#if BIND_UIKIT_STANDIN
// The tests' stand-in for UIKit (Tests/UIKitStandIn); see docs/compatibility.md.
import Bind
import UIKitStandIn
#else
import UIKit
#endif

extension Bindable where TargetType: UIActivityIndicatorView {
    /// Starts animating on `true` and stops on `false` (`isAnimating` itself is read-only).
    public var isAnimating: Binder<Bool> {
        Binder(mainThread: target) { indicator, isAnimating in
            if isAnimating { indicator.startAnimating() } else { indicator.stopAnimating() }
        }
    }
}
#endif
