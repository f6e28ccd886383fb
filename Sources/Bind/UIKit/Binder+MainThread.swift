#if canImport(UIKit)
import UIKit

extension Binder {
    /// A Binder for a UIKit object, which may be touched on the main thread only.
    ///
    /// On the main thread `binding` runs at once, like any bound closure. From another thread it is
    /// queued on the main queue, in the order the values come from that thread, instead of touching
    /// UIKit off the main thread as the original framework did.
    init<Target: AnyObject>(mainThread target: Target, binding: @escaping @MainActor (Target, Value) -> Void) {
        self.init(target) { target, value in
            // UIKit objects and the values they take (strings, colours, images) are handed to the main
            // thread only, and used there only.
            let delivery = MainThreadDelivery(target: target, value: value)
            if Thread.isMainThread {
                MainActor.assumeIsolated { binding(delivery.target, delivery.value) }
            } else {
                DispatchQueue.main.async {
                    MainActor.assumeIsolated { binding(delivery.target, delivery.value) }
                }
            }
        }
    }
}

/// One value on its way to a UIKit object on the main thread.
private struct MainThreadDelivery<Target, Value>: @unchecked Sendable {
    let target: Target
    let value: Value
}
#endif
