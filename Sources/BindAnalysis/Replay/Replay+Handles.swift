import BindTraceModel

// What can still unbind a binding: its `Subscription` handle, or a `SubscriptionContainer` (the trace's
// `subscriptionContained` and `handleReleased` events, applied by `Replay.apply(_:)`).

extension Replay {
    /// A `Subscription` was added to a `SubscriptionContainer` (`container`: the container's trace id).
    package func applyContained(subscription: UInt64, container: UInt64, sequence: UInt64) {
        recordsHandles = true
        // Already unbound (or never seen): nothing to hold.
        guard let node = self.subscription(id: subscription) else { return }
        node.container = container
        // A container used again (emptied or not) holds one use's bindings at a time.
        if duplicateBindings.containers.contained(node, container: container, sequence: sequence) {
            reusedContainers.insert(container)
        }
    }

    /// A `Subscription` handle was deallocated. While its binding is still bound, nothing can ever
    /// unbind it: it lives as long as its Output.
    package func applyHandleReleased(subscription: UInt64, sequence: UInt64, time: UInt64) {
        recordsHandles = true
        guard let node = self.subscription(id: subscription), node.handleReleasedAt == nil else { return }
        node.handleReleasedAt = sequence
        // Still bound, held by a container: the container itself was released without being emptied.
        if node.container != 0 {
            releasedContainers[node.container, default: 0] += 1
            // Its owner is gone, and with it, as a rule, the Binder's target it owned (a screen's
            // label): a later bind to an object at the same address is another target. (A target that
            // outlives the owner is still bound from here, and this binding is the owner's leak.)
            if node.bindingGroupReference != nil { duplicateBindings.unbound(node) }
        }
        if node.scope?.endedScope != nil { markAbandoned(node, time: time) }
    }
}
