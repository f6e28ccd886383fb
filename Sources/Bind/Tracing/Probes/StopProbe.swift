// The Tracing build's `StopProbe`; the plain build's, with empty bodies, is in UntracedProbes.swift.

#if Tracing
import CBindTrace

/// What a combine tells the trace when it stops because its source was released: the `stopped`
/// event, written after the source's release. It holds the two Outputs' trace infos, which outlive
/// their Outputs (separate objects), never the Outputs.
@usableFromInline
struct StopProbe {
    let source: OutputTraceInfo
    let derived: OutputTraceInfo

    @usableFromInline
    init<Source, Derived>(source: SubscriberList<Source>, derived: SubscriberList<Derived>) {
        self.source = source.lock.withLock { source.probe.info }
        self.derived = derived.lock.withLock { derived.probe.info }
    }

    @usableFromInline
    func stopped() {
        guard bind_trace_is_recording() else { return }
        TraceRecorder.stopped(derived, source: source)
    }
}
#endif
