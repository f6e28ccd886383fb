#if (canImport(UIKit) && !os(watchOS)) || BIND_UIKIT_STANDIN
#if BIND_UIKIT_STANDIN
// The tests' stand-in for UIKit (Tests/UIKitStandIn); see docs/compatibility.md.
import Bind
import UIKitStandIn
#else
import UIKit
#endif

extension Bindable where TargetType: UIButton {
    /// Binds the title for `state`: `viewModel.buttonTitle.bind(to: button.binding.title())`.
    public func title(for state: UIControl.State = .normal) -> Binder<String> {
        Binder(mainThread: target) { $0.setTitle($1, for: state) }
    }

    /// Binds the attributed title for `state`.
    public func attributedTitle(for state: UIControl.State = .normal) -> Binder<NSAttributedString?> {
        Binder(mainThread: target) { $0.setAttributedTitle($1, for: state) }
    }

    /// Binds the image for `state`.
    public func image(for state: UIControl.State = .normal) -> Binder<UIImage> {
        Binder(mainThread: target) { $0.setImage($1, for: state) }
    }

    /// Binds the background image for `state`.
    public func backgroundImage(for state: UIControl.State = .normal) -> Binder<UIImage> {
        Binder(mainThread: target) { $0.setBackgroundImage($1, for: state) }
    }

    /// Adds each value's target and action for `event`; earlier ones stay.
    public func action(for event: UIControl.Event = .touchUpInside) -> Binder<(Any, Selector)> {
        Binder(mainThread: target) { button, action in button.addTarget(action.0, action: action.1, for: event) }
    }
}
#endif
