// The Tracing build's `DeliveryProbe`; the plain build's, with empty bodies, is in UntracedProbes.swift.

#if Tracing
import CBindTrace

/// Marks the deliveries of one update (or of a bind's initial value) as caused by it.
@usableFromInline
struct DeliveryProbe {
    /// The recorded update (or bind), 0 when nothing was recorded.
    @usableFromInline let event: UInt64
    /// The cause that was current before the deliveries, restored after them.
    @usableFromInline let saved: bind_trace_cause

    @inlinable
    init(event: UInt64) {
        self.event = event
        saved = event == 0 ? bind_trace_cause() : bind_trace_cause_slot()!.pointee
    }

    /// Marks nothing: the deliveries of an update or bind that was not recorded.
    @inlinable static var idle: DeliveryProbe { DeliveryProbe(event: 0) }

    /// Whether the update or bind was recorded.
    @inlinable var isActive: Bool { event != 0 }

    /// Takes the subscription's id, read only when recorded: passing the probe would copy it on
    /// every delivery, recorded or not.
    @inlinable
    func willDeliver(toSubscription id: @autoclosure () -> UInt64) {
        guard event != 0 else { return }
        bind_trace_cause_slot()!.pointee = bind_trace_cause(subscription: id(), event: event)
    }

    @inlinable
    func finished() {
        guard event != 0 else { return }
        bind_trace_cause_slot()!.pointee = saved
    }
}
#endif
