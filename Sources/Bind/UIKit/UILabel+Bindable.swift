#if (canImport(UIKit) && !os(watchOS)) || BIND_UIKIT_STANDIN
#if BIND_UIKIT_STANDIN
// The tests' stand-in for UIKit (Tests/UIKitStandIn); see docs/compatibility.md.
import Bind
import UIKitStandIn
#else
import UIKit
#endif

extension Bindable where TargetType: UILabel {
    /// Binds `text`: `viewModel.title.bind(to: label.binding.text)`.
    public var text: Binder<String> { Binder(mainThread: target) { $0.text = $1 } }

    /// Binds `textColor`.
    public var textColor: Binder<UIColor> { Binder(mainThread: target) { $0.textColor = $1 } }

    /// Binds `attributedText`.
    public var attributedText: Binder<NSAttributedString?> {
        Binder(mainThread: target) { $0.attributedText = $1 }
    }
}
#endif
