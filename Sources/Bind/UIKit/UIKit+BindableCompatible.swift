#if (canImport(UIKit) && !os(watchOS)) || BIND_UIKIT_STANDIN
#if BIND_UIKIT_STANDIN
// The tests' stand-in for UIKit (Tests/UIKitStandIn); see docs/compatibility.md.
import Bind
import UIKitStandIn
#else
import UIKit
#endif

// The UIKit classes whose objects offer `binding`, as in the original framework. Subclasses inherit it
// (`label.binding`, `button.binding`); another class gets it from `extension MyClass: BindableCompatible {}`.
extension UIView: BindableCompatible {}
extension UIViewController: BindableCompatible {}
extension NSLayoutConstraint: BindableCompatible {}
extension UIGestureRecognizer: BindableCompatible {}
extension UINavigationItem: BindableCompatible {}
#endif
