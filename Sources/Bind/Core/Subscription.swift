import BindTraceFormat

/// Something a ``Subscription`` can unbind itself from; ``Output`` is one.
public protocol Unbindable: AnyObject {
    /// Removes what `subscription` was returned for; called by ``Subscription/unsubscribe()``.
    func unbind(for subscription: Subscription)
}

/// The handle returned by every bind: unsubscribing removes the bound closure.
///
/// A Subscription never keeps its Output alive, and unsubscribing after the Output is gone does
/// nothing. Two Subscriptions are equal only when they are the same object.
public final class Subscription: Hashable, @unchecked Sendable {
    /// What this unsubscribes from: an Output's subscriber list (which outlives the Output while
    /// Subscriptions hold it, so no weak reference is needed), or a custom ``Unbindable``.
    @usableFromInline let source: SubscriptionSource
    /// The Output's own identity for this subscription (0 for one made with ``init(unbinder:)``).
    @usableFromInline let token: UInt64

    /// Creates a Subscription that unsubscribes by calling `unbinder.unbind(for:)`; it holds
    /// `unbinder` weakly.
    public convenience init(unbinder: Unbindable) {
        self.init(source: CustomUnbinder(unbinder), token: 0)
    }

    @usableFromInline
    init(source: SubscriptionSource, token: UInt64) {
        self.source = source
        self.token = token
    }

    deinit {
        // Nothing can unbind this binding any more: the trace may want to know. Only the flag is
        // checked here; the call is out of line, so an unrecorded release saves no registers for it.
        if Probe.isRecording { recordRelease() }
    }

    /// Tells the subscription's source that its handle is gone (instrumented build, while recording).
    @inline(never)
    private func recordRelease() {
        source.handleReleased(token: token)
    }

    /// Unbinds the closure; does nothing when it is already unbound or its Output is gone.
    public func unsubscribe() {
        source.unsubscribe(self, reason: .unsubscribe)
    }

    func unsubscribe(reason: UnbindReason) {
        source.unsubscribe(self, reason: reason)
    }

    /// Lets `container` unsubscribe this together with the rest of its subscriptions.
    public func add(to container: SubscriptionContainer) {
        container.append(self)
    }

    /// Whether `lhs` and `rhs` are the same Subscription object.
    public static func == (lhs: Subscription, rhs: Subscription) -> Bool { lhs === rhs }
    /// Hashes the Subscription's identity, so equal Subscriptions (the same object) hash alike.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// What a ``Subscription`` unsubscribes from.
@usableFromInline
class SubscriptionSource: @unchecked Sendable {
    @usableFromInline init() {}

    func unsubscribe(_ subscription: Subscription, reason: UnbindReason) {}
    /// The handle of the subscription `token` is gone (instrumented build, while recording).
    func handleReleased(token: UInt64) {}
    /// The subscription `token` was put in a container (instrumented build, while recording).
    func contained(token: UInt64, container: ContainerProbe) {}
}

/// An ``Unbindable`` of the app's own, held weakly as the original framework did.
final class CustomUnbinder: SubscriptionSource, @unchecked Sendable {
    weak var unbinder: Unbindable?

    init(_ unbinder: Unbindable) { self.unbinder = unbinder }

    override func unsubscribe(_ subscription: Subscription, reason: UnbindReason) {
        unbinder?.unbind(for: subscription)
    }
}
