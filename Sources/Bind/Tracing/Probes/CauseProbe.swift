// The Tracing build's `CauseProbe`; the plain build's, with empty bodies, is in UntracedProbes.swift.

#if Tracing
import CBindTrace

/// The cause of what runs on this thread, carried into a deferred cascade step.
@usableFromInline
struct CauseProbe {
    @usableFromInline let cause: bind_trace_cause

    @inlinable static var current: CauseProbe { CauseProbe(cause: bind_trace_cause_slot()!.pointee) }
    @inlinable init(cause: bind_trace_cause) { self.cause = cause }

    /// Runs `body` with the cause restored, first recording that its delivery resumes (a `resumed`
    /// event): a reader opens that delivery's frame again, inside the cause current here, so what
    /// `body` records names the delivery that really caused it however late it runs.
    @inlinable
    func restore(_ body: () -> Void) {
        let slot = bind_trace_cause_slot()!
        let saved = slot.pointee
        if cause.event != 0 && bind_trace_is_recording() { TraceRecorder.resumed(cause, inside: saved) }
        slot.pointee = cause
        body()
        slot.pointee = saved
    }
}
#endif
