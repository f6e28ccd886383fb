#if canImport(UIKit)
import UIKit

extension Bindable where TargetType: UIViewController {
    /// Binds `title`, which navigation and tab bars show.
    public var title: Binder<String?> { Binder(mainThread: target) { $0.title = $1 } }
}
#endif
