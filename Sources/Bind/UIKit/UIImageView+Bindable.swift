#if canImport(UIKit)
import UIKit

extension Bindable where TargetType: UIImageView {
    /// Binds `image`.
    public var image: Binder<UIImage?> { Binder(mainThread: target) { $0.image = $1 } }
}
#endif
