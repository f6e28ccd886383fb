/// Something a ``Subscription`` can unbind itself from; ``Output`` is one.
public protocol Unbindable: AnyObject {
    func unbind(for subscription: Subscription)
}

/// The handle returned by every bind: unsubscribing removes the bound closure.
///
/// A Subscription holds its Output weakly: it never keeps an Output alive, and unsubscribing after
/// the Output is gone does nothing. Two Subscriptions are equal only when they are the same object.
public final class Subscription: Hashable, @unchecked Sendable {
    /// Weak and atomic: safe to read while another thread releases the Output.
    public private(set) weak var unbinder: Unbindable?
    /// The Output's own identity for this subscription (0 for one made with ``init(unbinder:)``).
    @usableFromInline let token: UInt64

    /// Creates a Subscription that unsubscribes by calling `unbinder.unbind(for:)`.
    public convenience init(unbinder: Unbindable) {
        self.init(unbinder: unbinder, token: 0)
    }

    @usableFromInline
    init(unbinder: Unbindable, token: UInt64) {
        self.unbinder = unbinder
        self.token = token
    }

    /// Unbinds the closure; does nothing when it is already unbound or its Output is gone.
    public func unsubscribe() {
        unsubscribe(reason: .unsubscribe)
    }

    /// Lets `container` unsubscribe this together with the rest of its subscriptions.
    public func add(to container: SubscriptionContainer) {
        container.append(self)
    }

    func unsubscribe(reason: UnbindReason) {
        guard let unbinder else { return }
        #if Tracing
        // Only the instrumented build records why; the plain build skips the dynamic cast.
        if let output = unbinder as? ReasonedUnbindable {
            return output.unbind(token: token, reason: reason)
        }
        #endif
        unbinder.unbind(for: self)
    }

    public static func == (lhs: Subscription, rhs: Subscription) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// Our Outputs, which record how a subscription ended.
protocol ReasonedUnbindable: AnyObject {
    func unbind(token: UInt64, reason: UnbindReason)
}

extension Output: ReasonedUnbindable {}
