/// How a subscription ended; the raw value is part of the trace format.
public enum UnbindReason: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    /// `Output.unbind(for:)`.
    case unbind = 0
    /// `Subscription.unsubscribe()`.
    case unsubscribe = 1
    /// `SubscriptionContainer.unsubscribe()`.
    case container = 2
    /// The Output was released with the subscription still bound.
    case outputReleased = 3

    /// The reason in words, as replays and reports print it: `unbind`, `unsubscribe`, `container`,
    /// `output released`.
    public var description: String {
        switch self {
        case .unbind: "unbind"
        case .unsubscribe: "unsubscribe"
        case .container: "container"
        case .outputReleased: "output released"
        }
    }
}
