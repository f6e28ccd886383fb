#if canImport(UIKit)
import UIKit

extension Bindable where TargetType: UIView {
    /// Binds `isHidden`.
    public var isHidden: Binder<Bool> { Binder(mainThread: target) { $0.isHidden = $1 } }

    /// Binds `alpha`.
    public var alpha: Binder<CGFloat> { Binder(mainThread: target) { $0.alpha = $1 } }

    /// Binds `backgroundColor`.
    public var backgroundColor: Binder<UIColor?> { Binder(mainThread: target) { $0.backgroundColor = $1 } }

    /// Binds `tintColor`; `nil` restores the colour inherited from the superview.
    public var tintColor: Binder<UIColor?> { Binder(mainThread: target) { $0.tintColor = $1 } }

    /// Binds `isUserInteractionEnabled`.
    public var isUserInteractionEnabled: Binder<Bool> {
        Binder(mainThread: target) { $0.isUserInteractionEnabled = $1 }
    }

    /// Binds `accessibilityIdentifier`.
    public var accessibilityIdentifier: Binder<String?> {
        Binder(mainThread: target) { $0.accessibilityIdentifier = $1 }
    }
}
#endif
