// The Tracing build's `SubscriptionProbe`; the plain build's, with empty bodies, is in UntracedProbes.swift.

#if Tracing
import CBindTrace

/// What the recorder keeps of one subscription, inline in its subscriber: who bound it and where,
/// its id in traces and the recording that last announced it. Trivially copyable, and no object
/// is made for it, so binding and unbinding cost the same recorded or not, but for the records.
@usableFromInline
struct SubscriptionProbe {
    /// The id in traces, 0 until a recording first needs it. Guarded by the Output's lock; the copy
    /// in an update's snapshot is read only to mark its deliveries.
    @usableFromInline var id: UInt64 = 0
    /// The recording (epoch) that last wrote this subscription's bind (0: none). Changed by the
    /// recorder, with the Output's lock and the recording lock held.
    var announcedEpoch: UInt32 = 0
    @usableFromInline let origin: BindOrigin
    @usableFromInline let line: UInt
    @usableFromInline let file: StaticString

    @inlinable
    init(_ site: BindSite) {
        origin = site.origin
        line = site.line
        file = site.file
    }

    /// The id in traces, made on first need. Output's lock held.
    @inlinable
    mutating func recordedID() -> UInt64 {
        if id == 0 { id = bind_trace_new_subscription_id() }
        return id
    }

    /// The Binder target's address, when this is a Binder's subscription.
    var targetIdentity: UInt? {
        if case .binder(let target) = origin { target._withUnsafeGuaranteedRef(\.identity) } else { nil }
    }

    /// Whether this is a Binder's subscription whose target is gone.
    var targetIsGone: Bool {
        if case .binder(let target) = origin { target._withUnsafeGuaranteedRef { $0.object == nil } } else { false }
    }
}
#endif
