#if canImport(UIKit)
import UIKit

extension Bindable where TargetType: UIActivityIndicatorView {
    /// Starts animating on `true` and stops on `false` (`isAnimating` itself is read-only).
    public var isAnimating: Binder<Bool> {
        Binder(mainThread: target) { indicator, isAnimating in
            if isAnimating { indicator.startAnimating() } else { indicator.stopAnimating() }
        }
    }
}
#endif
