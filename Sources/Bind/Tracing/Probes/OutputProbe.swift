// The Tracing build's `OutputProbe`; the plain build's, with empty bodies, is in UntracedProbes.swift.
import BindTraceFormat

#if Tracing
import CBindTrace

/// The instrumentation of one Output, kept with its subscribers and guarded by the same lock.
///
/// Holds the creation site inline and makes the trace info only when a recording first needs it
/// (or a label must be kept), so an Output made while nothing records allocates nothing for tracing.
/// The info is set once, under the Output's lock; every member that reads it runs with that lock
/// held, or before the Output is shared (its creation).
@usableFromInline
struct OutputProbe {
    @usableFromInline typealias Preview = [UInt8]?
    let kind: OutputKind
    let valueType: Any.Type
    let file: StaticString
    let line: UInt
    /// Guarded by the Output's lock; never changes once set. Unmanaged, so the hot path can borrow
    /// it without a retain: the probe owns one reference, given back by ``releaseInfo()``. (So a
    /// probe is never copied once its info is made: it lives in its subscriber list.)
    @usableFromInline var madeInfo: Unmanaged<OutputTraceInfo>?

    /// Not inlinable: inlined, it makes `Output.init` too large to inline where an Output is made.
    @usableFromInline
    init(kind: OutputKind, valueType: Any.Type, file: StaticString, line: UInt) {
        self.kind = kind
        self.valueType = valueType
        self.file = file
        self.line = line
    }

    /// The trace info, made on first use. Lock held, or the Output not yet shared.
    @inlinable
    var info: OutputTraceInfo {
        mutating get { madeInfo?.takeUnretainedValue() ?? makeInfo() }
    }

    @usableFromInline
    mutating func makeInfo() -> OutputTraceInfo {
        let made = OutputTraceInfo(kind: kind, valueType: valueType, file: file, line: line)
        madeInfo = .passRetained(made)
        return made
    }

    /// Runs `body` with the trace info (made on first use) borrowed: a strong reference would cost
    /// every traced update and bind a retain and a release. Lock held.
    @inlinable
    mutating func withInfo<Result>(_ body: (OutputTraceInfo) -> Result) -> Result {
        if madeInfo == nil { _ = makeInfo() }
        return madeInfo.unsafelyUnwrapped._withUnsafeGuaranteedRef(body)
    }

    /// Gives back the probe's reference to its info; called once, as its subscriber list goes.
    @inlinable
    func releaseInfo() { madeInfo?.release() }

    /// Runs as the Output is made, before it is shared. A call (the flag checked inside it): inlined,
    /// the check makes `Output.init` too large to inline where an Output is made.
    @usableFromInline
    mutating func created() {
        if bind_trace_is_recording() { TraceRecorder.outputCreated(info) }
    }

    /// Lock held.
    mutating func labeled<Value>(_ label: String, subscribers: inout ContiguousArray<Subscriber<Value>>) {
        let info = self.info
        Self.withProbes(&subscribers) { TraceRecorder.labelChanged(info, to: label, subscribers: $0) }
    }

    /// Announces this Output, with its subscribers, to the sinks that have not seen it, and returns
    /// its trace info: for an edge or a flatMap switch, recorded under another Output's lock. Lock held.
    mutating func announced<Value>(_ subscribers: inout ContiguousArray<Subscriber<Value>>) -> OutputTraceInfo {
        let info = self.info
        Self.withProbes(&subscribers) { TraceRecorder.announce(info, subscribers: $0) }
        return info
    }

    /// Runs `body` with the subscribers' probes in place. Lock held.
    @inlinable
    static func withProbes<Value, Result>(
        _ subscribers: inout ContiguousArray<Subscriber<Value>>, _ body: (SubscriberProbes) -> Result
    ) -> Result {
        subscribers.withUnsafeMutableBufferPointer { body(SubscriberProbes($0)) }
    }

    /// Called only while recording (see ``Probe``), the new subscriber last. The other subscribers
    /// are read only when the recorder needs them: to announce this Output, or to compare a
    /// Binder's target with theirs. Inlinable, so a traced bind is specialised for its value type
    /// like the rest of `bind`; never inlined, so the untraced `bind` stays as small as the plain one.
    @inlinable @inline(never)
    mutating func bound<Value>(_ subscribers: inout ContiguousArray<Subscriber<Value>>, captures: CaptureProbe)
        -> DeliveryProbe
    {
        withInfo { info in
            Self.withProbes(&subscribers) { all in
                DeliveryProbe(
                    event: TraceRecorder.bound(all[all.count - 1], of: info, siblings: all, captures: captures))
            }
        }
    }

    /// Called only while recording (see ``Probe``). An update without a preview of an Output
    /// this recording has announced goes to the thread's ring here, inline (see
    /// ``TraceRecorder/updated(_:preview:site:subscribers:)``), unless it is a root update called
    /// from another line than the Output's last recorded one (its `calledAt` takes the lock); the
    /// rest takes the recording lock.
    @inlinable @inline(__always)
    mutating func updated<Value>(
        _ subscribers: inout ContiguousArray<Subscriber<Value>>, preview: Preview, site: UpdateSite
    ) -> DeliveryProbe {
        if preview == nil, let info = madeInfo {
            let event = info._withUnsafeGuaranteedRef { info -> UInt64 in
                guard bind_trace_cause_slot()!.pointee.event != 0 || site.isLastCall(of: info) else { return 0 }
                return bind_trace_record_update(info.announcedCell, info.id, info.kind == .relay)
            }
            if event != 0 { return DeliveryProbe(event: event) }
        }
        return updatedLocked(&subscribers, preview: preview, site: site)
    }

    /// The subscribers are walked only when the recorder announces this Output (its first event
    /// in this recording). Specialised, as ``recordReleased(_:)``.
    @inlinable @inline(never)
    mutating func updatedLocked<Value>(
        _ subscribers: inout ContiguousArray<Subscriber<Value>>, preview: Preview, site: UpdateSite
    ) -> DeliveryProbe {
        withInfo { info in
            DeliveryProbe(
                event: TraceRecorder.updated(info, preview: preview, site: site) { body in
                    Self.withProbes(&subscribers, body)
                })
        }
    }

    /// Called only while recording (see ``Probe``), for a subscriber just removed from `others`,
    /// the subscribers left (announced with the Output if it must be). Never inlined, like ``bound(_:)``.
    @inlinable @inline(never)
    mutating func unbound<Value>(
        _ subscriber: inout Subscriber<Value>, others: inout ContiguousArray<Subscriber<Value>>, reason: UnbindReason
    ) {
        withInfo { info in
            Self.withProbes(&others) { TraceRecorder.unbound(&subscriber.probe, of: info, others: $0, reason: reason) }
        }
    }

    /// The flag is checked inline: releasing an Output while nothing records makes no call.
    @inlinable
    mutating func released<Value>(_ subscribers: inout ContiguousArray<Subscriber<Value>>) {
        // An Output with no trace info was never in a trace: its release concerns none.
        if bind_trace_is_recording() && madeInfo != nil { recordReleased(&subscribers) }
    }

    /// Inlinable, so it is specialised for the Output's value type like the rest of its release
    /// (unspecialised, reaching the subscribers' array looks up its type metadata: ~600
    /// instructions); never inlined, so the untraced release stays small.
    @inlinable @inline(never)
    mutating func recordReleased<Value>(_ subscribers: inout ContiguousArray<Subscriber<Value>>) {
        guard let info = madeInfo?.takeUnretainedValue() else { return }
        Self.withProbes(&subscribers) { TraceRecorder.outputReleased(info, subscribers: $0) }
    }

    /// Lock held.
    mutating func edge<Value>(
        to derived: OutputTraceInfo, kind: OutputKind, sourceSubscribers: inout ContiguousArray<Subscriber<Value>>
    ) {
        let info = self.info
        Self.withProbes(&sourceSubscribers) {
            TraceRecorder.edge(from: info, to: derived, kind: kind, sourceSubscribers: $0)
        }
    }

    /// Called on the inner Output's probe, with its lock held.
    mutating func innerSwitch<Value>(
        from flatMap: OutputTraceInfo, innerSubscribers: inout ContiguousArray<Subscriber<Value>>
    ) {
        let info = self.info
        Self.withProbes(&innerSubscribers) {
            TraceRecorder.innerSwitch(flatMap: flatMap, inner: info, innerSubscribers: $0)
        }
    }

    /// Specialised, as ``recordReleased(_:)``. The Output is announced first if this recording has
    /// not seen it: the subscription may have been bound before the recording started.
    @inlinable @inline(never)
    mutating func handleReleased<Value>(_ subscribers: inout ContiguousArray<Subscriber<Value>>, index: Int) {
        guard bind_trace_is_recording() else { return }
        withInfo { info in
            Self.withProbes(&subscribers) { TraceRecorder.handleReleased($0[index], of: info, subscribers: $0) }
        }
    }

    /// Specialised, as ``recordReleased(_:)``; announces the Output as ``handleReleased(_:index:)`` does.
    @inlinable @inline(never)
    mutating func contained<Value>(
        _ subscribers: inout ContiguousArray<Subscriber<Value>>, index: Int, container: ContainerProbe
    ) {
        guard bind_trace_is_recording() else { return }
        withInfo { info in
            Self.withProbes(&subscribers) {
                TraceRecorder.subscriptionContained($0[index], of: info, subscribers: $0, containerID: container.id)
            }
        }
    }
}
#endif
