import BindTraceModel

/// A trace that contradicts itself: something a correct recorder never writes.
///
/// Replay collects these and goes on where that is sound (an unbind of an unknown subscription
/// changes nothing; an update of a released Output is still counted for nesting).
public struct TraceError: Hashable, Sendable, CustomStringConvertible {
    /// What the trace contradicts; the raw values are the strings of `bind-trace check --format json`.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// An event names an Output the trace never created.
        case unknownOutput = "unknown-output"
        /// An event names an Output after its release.
        case releasedOutput = "released-output"
        /// An Output id created twice.
        case reusedOutputID = "reused-output-id"
        /// An unbind or delivery names a subscription that is not bound.
        case unknownSubscription = "unknown-subscription"
        /// A subscription id bound twice.
        case reusedSubscriptionID = "reused-subscription-id"
        /// A scope id begun twice.
        case reusedScopeID = "reused-scope-id"
        /// An event's cause is not an update, fire or bind still running on the same thread.
        case causeNotOpen = "cause-not-open"
        /// An Output released while subscriptions were still recorded as bound to it.
        case releasedWhileBound = "released-while-bound"
    }

    /// What the trace contradicts.
    public var kind: Kind
    /// The sequence number of the offending event.
    public var sequence: UInt64
    /// Where its record starts in the trace file.
    public var offset: Int
    /// One line, without the event: `unbind of subscription 7, which is not bound`.
    public var message: String

    @_spi(Harness) public init(kind: Kind, sequence: UInt64, offset: Int, message: String) {
        self.kind = kind
        self.sequence = sequence
        self.offset = offset
        self.message = message
    }

    /// `event #12 at offset 345: unknown-subscription: unbind of subscription 7, which is not bound`.
    public var description: String {
        "event #\(sequence) at offset \(offset): \(kind.rawValue): \(message)"
    }
}
