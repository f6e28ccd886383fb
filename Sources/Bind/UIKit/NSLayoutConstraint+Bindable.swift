#if canImport(UIKit)
import UIKit

extension Bindable where TargetType: NSLayoutConstraint {
    /// Binds `constant`.
    public var constant: Binder<CGFloat> { Binder(mainThread: target) { $0.constant = $1 } }

    /// Binds `isActive`.
    public var isActive: Binder<Bool> { Binder(mainThread: target) { $0.isActive = $1 } }
}
#endif
