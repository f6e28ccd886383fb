#if (canImport(UIKit) && !os(watchOS)) || BIND_UIKIT_STANDIN
#if BIND_UIKIT_STANDIN
// The tests' stand-in for UIKit (Tests/UIKitStandIn); see docs/compatibility.md.
import Bind
import UIKitStandIn
#else
import UIKit
#endif

extension Bindable where TargetType: UIView {
    /// Binds `isHidden`.
    public var isHidden: Binder<Bool> { Binder(mainThread: target) { $0.isHidden = $1 } }

    /// Shows the view on `true` and hides it on `false` (`isHidden` inverted).
    public var isVisible: Binder<Bool> { Binder(mainThread: target) { $0.isHidden = !$1 } }

    /// Sets `alpha` to 1 on `true` and 0 on `false`, over 0.2 s when `animated`.
    public func isVisibleAlpha(animated: Bool = false) -> Binder<Bool> {
        Binder(mainThread: target) { view, isVisible in
            let alpha: CGFloat = isVisible ? 1 : 0
            if animated {
                UIView.animate(withDuration: 0.2) { view.alpha = alpha }
            } else {
                view.alpha = alpha
            }
        }
    }

    /// Binds `alpha`.
    public var alpha: Binder<CGFloat> { Binder(mainThread: target) { $0.alpha = $1 } }

    /// Binds `backgroundColor`.
    public var backgroundColor: Binder<UIColor> { Binder(mainThread: target) { $0.backgroundColor = $1 } }

    /// Binds `tintColor`.
    public var tintColor: Binder<UIColor> { Binder(mainThread: target) { $0.tintColor = $1 } }

    /// Binds the layer's `borderColor`.
    public var borderColor: Binder<UIColor> { Binder(mainThread: target) { $0.layer.borderColor = $1.cgColor } }

    /// Binds the layer's `borderWidth`.
    public var borderWidth: Binder<CGFloat> { Binder(mainThread: target) { $0.layer.borderWidth = $1 } }

    /// Binds the layer's `cornerRadius`.
    public var cornerRadius: Binder<CGFloat> { Binder(mainThread: target) { $0.layer.cornerRadius = $1 } }

    /// Binds `isUserInteractionEnabled`.
    public var isUserInteractionEnabled: Binder<Bool> {
        Binder(mainThread: target) { $0.isUserInteractionEnabled = $1 }
    }

    /// Binds `accessibilityIdentifier`.
    public var accessibilityIdentifier: Binder<String> {
        Binder(mainThread: target) { $0.accessibilityIdentifier = $1 }
    }

    /// Sets `isActive` of each constraint the view holds at the time of the value.
    ///
    /// Deactivated constraints leave the view's `constraints`, so a later `true` does not bring them back.
    public var areConstraintsActive: Binder<Bool> {
        Binder(mainThread: target) { view, isActive in
            for constraint in view.constraints { constraint.isActive = isActive }
        }
    }
}
#endif
