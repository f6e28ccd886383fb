// Stand-ins for two recorder entry points the trace helper adds (issue 12): the core calls them,
// the recorder writes them. Delete this file when the recorder's own versions are merged.
#if Tracing
extension TraceRecorder {
    /// A Subscription was added to a SubscriptionContainer.
    static func subscriptionContained(subscriptionID: UInt64, containerID: UInt64) {}

    /// A Subscription handle was released while its binding is still bound.
    static func handleReleased(subscriptionID: UInt64) {}
}
#endif
