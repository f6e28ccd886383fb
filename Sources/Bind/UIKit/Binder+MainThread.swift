#if canImport(Darwin) || BIND_UIKIT_STANDIN
import Foundation
#if BIND_UIKIT_STANDIN
import Bind
#endif

extension Binder {
    /// A Binder for a UIKit or WebKit object, which may be touched on the main thread only.
    ///
    /// On the main thread (or in code the main queue runs) `binding` runs at once, like any bound closure,
    /// as in the original framework. From another thread it is queued on the main queue, in the order the
    /// values come from that thread, instead of touching the object off the main thread as the original did.
    init<Target: AnyObject>(mainThread target: Target, binding: @escaping @MainActor (Target, Value) -> Void) {
        self.init(target) { target, value in
            // UIKit objects and the values they take (strings, colours, images) are handed to the main
            // thread only, and used there only.
            let delivery = MainThreadDelivery(target: target, value: value)
            if MainQueue.isCurrent {
                MainActor.assumeIsolated { binding(delivery.target, delivery.value) }
            } else {
                DispatchQueue.main.async {
                    MainActor.assumeIsolated { binding(delivery.target, delivery.value) }
                }
            }
        }
    }
}

/// Where UIKit may be touched.
private enum MainQueue {
    /// A marker on the main queue, which `DispatchQueue.getSpecific` finds only in code the main queue runs.
    private static let marker: Marker = {
        let marker = Marker()
        DispatchQueue.main.setSpecific(key: marker.key, value: ())
        return marker
    }()

    /// Whether the caller runs on the main thread or on the main queue. They are the same thread in an app;
    /// a program that called `dispatchMain()` (as Swift's async `main` does on Linux) runs the main queue,
    /// and with it the main actor, on another thread.
    static var isCurrent: Bool {
        Thread.isMainThread || DispatchQueue.getSpecific(key: marker.key) != nil
    }

    /// The key, which is never changed after it is set on the main queue (not `Sendable` on every platform).
    private final class Marker: @unchecked Sendable {
        let key = DispatchSpecificKey<Void>()
    }
}

/// One value on its way to a UIKit object on the main thread.
private struct MainThreadDelivery<Target, Value>: @unchecked Sendable {
    let target: Target
    let value: Value
}
#endif
