// The Tracing build's `BinderProbe`; the plain build's, with empty bodies, is in UntracedProbes.swift.

#if Tracing
import CBindTrace

/// What a ``Binder`` tells the trace about its target.
@usableFromInline
struct BinderProbe {
    @usableFromInline let target: BinderTarget

    @usableFromInline
    init<Target: AnyObject>(target: Target) {
        self.target = BinderTarget(target)
    }

    /// Records each delivery that finds the target gone. The closure holds the target, so a
    /// subscriber's ``BindOrigin`` can refer to it without retaining it.
    @inlinable
    func delivery<Value>(_ deliverIfAlive: @escaping (Value) -> Bool) -> (Value) -> Void {
        let target = self.target
        return { value in
            if !deliverIfAlive(value), bind_trace_is_recording() {
                TraceRecorder.dangling(bind_trace_cause_slot()!.pointee.subscription)
            }
            withExtendedLifetime(target) {}
        }
    }
}
#endif
