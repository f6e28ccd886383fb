#if canImport(UIKit)
import UIKit

extension Bindable where TargetType: UITextField {
    /// Binds `text`. Setting it sends no editing events, so it does not loop back into the view model.
    public var text: Binder<String?> { Binder(mainThread: target) { $0.text = $1 } }
}
#endif
