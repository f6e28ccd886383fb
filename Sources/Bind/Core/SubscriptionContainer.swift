/// Collects subscriptions so they can be unbound together, e.g. when a cell is reused.
///
/// Thread-safe. Releasing the container does *not* unbind: call ``unsubscribe()``.
///
/// ```swift
/// let bag = SubscriptionContainer()
/// viewModel.title.bind(to: label.binding[\.text]).add(to: bag)
/// bag.unsubscribe()   // prepareForReuse
/// ```
public final class SubscriptionContainer: @unchecked Sendable {
    private let lock = Lock()
    private var subscriptions: [Subscription] = []
    /// This container's identity in traces.
    private let probe = ContainerProbe()

    /// Creates an empty container.
    public init() {}

    deinit { lock.deallocate() }

    /// Adds `subscription` to those unbound by the next ``unsubscribe()``.
    public func append(_ subscription: Subscription) {
        lock.withLock { subscriptions.append(subscription) }
        if Probe.isRecording { subscription.source.contained(token: subscription.token, container: probe) }
    }

    /// The number of subscriptions held.
    public var count: Int { lock.withLock { subscriptions.count } }

    /// The subscriptions held, as a copy: the published framework's name for its storage, which its
    /// own tests read through `@testable import` (`container.container.count`).
    var container: [Subscription] { lock.withLock { subscriptions } }

    /// Unbinds every subscription held and empties the container.
    public func unsubscribe() {
        let taken = lock.withLock {
            defer { subscriptions = [] }
            return subscriptions
        }
        for subscription in taken { subscription.unsubscribe(reason: .container) }
    }
}
