#if canImport(UIKit)
import UIKit

/// Every UIKit object offers its binders through `binding`: `label.binding.text`, `label.binding[\.text]`.
extension NSObject: BindableCompatible {}
#endif
