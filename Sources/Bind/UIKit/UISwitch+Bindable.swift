#if canImport(UIKit)
import UIKit

extension Bindable where TargetType: UISwitch {
    /// Binds `isOn`, without animation.
    public var isOn: Binder<Bool> { Binder(mainThread: target) { $0.isOn = $1 } }
}
#endif
