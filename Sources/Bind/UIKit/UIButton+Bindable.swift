#if canImport(UIKit)
import UIKit

extension Bindable where TargetType: UIButton {
    /// Binds the title for the `.normal` state.
    public var title: Binder<String?> { Binder(mainThread: target) { $0.setTitle($1, for: .normal) } }

    /// Binds the image for the `.normal` state.
    public var image: Binder<UIImage?> { Binder(mainThread: target) { $0.setImage($1, for: .normal) } }
}
#endif
