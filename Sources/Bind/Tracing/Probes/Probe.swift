// The Tracing build's `Probe`; the plain build's, with empty bodies, is in UntracedProbes.swift.
import BindTraceFormat

#if Tracing
import CBindTrace

/// Whether a trace is being recorded, and the probes of the hot paths and of the edges between Outputs.
@usableFromInline
enum Probe {
    @inlinable static var isRecording: Bool { bind_trace_is_recording() }

    // The hot paths' probes check the flag before they touch the Output's probe at all, so an
    // untraced update or bind does not even retain its trace info.

    @inlinable
    static func preview<Value>(_ list: SubscriberList<Value>, of value: Value) -> OutputProbe.Preview {
        bind_trace_is_recording() && bind_trace_previews_enabled() ? TraceRecorder.preview(of: value) : nil
    }

    @inlinable
    static func updated<Value>(_ list: SubscriberList<Value>, preview: OutputProbe.Preview, site: UpdateSite)
        -> DeliveryProbe
    {
        guard bind_trace_is_recording() else { return .idle }
        return list.probe.updated(&list.entries, preview: preview, site: site)
    }

    @inlinable
    static func bound<Value>(_ list: SubscriberList<Value>, captures: CaptureProbe) -> DeliveryProbe {
        guard bind_trace_is_recording() else { return .idle }
        return list.probe.bound(&list.entries, captures: captures)
    }

    @inlinable
    static func unbound<Value>(
        _ list: SubscriberList<Value>, _ subscriber: inout Subscriber<Value>, reason: UnbindReason
    ) {
        guard bind_trace_is_recording() else { return }
        list.probe.unbound(&subscriber, others: &list.entries, reason: reason)
    }

    // The probes below take the Outputs' locks themselves: the plain build takes none for them.

    /// Records the release of an Output that never had a subscriber.
    static func releasedUnbound<Value>(_ list: SubscriberList<Value>) {
        guard bind_trace_is_recording() else { return }
        list.lock.withLock { list.probe.released(&list.entries) }
    }

    /// Records `label` (kept even while nothing records, for a later recording's announcement).
    static func labeled<Value>(_ list: SubscriberList<Value>, _ label: String) {
        list.lock.withLock { list.probe.labeled(label, subscribers: &list.entries) }
    }

    /// Records that `derived` is derived from `source`. One Output's lock at a time (an operator
    /// may already have bound `derived` to another source): it is announced, with its subscribers,
    /// under its own lock first.
    @usableFromInline
    static func edge<Source, Derived>(
        from source: SubscriberList<Source>, to derived: SubscriberList<Derived>, kind: OutputKind
    ) {
        guard bind_trace_is_recording() else { return }
        let derivedInfo = derived.lock.withLock { derived.probe.announced(&derived.entries) }
        source.lock.withLock {
            source.probe.edge(to: derivedInfo, kind: kind, sourceSubscribers: &source.entries)
        }
    }

    /// Records that a flatMap now forwards `inner`, as ``edge(from:to:kind:)`` does.
    static func innerSwitch<FlatMapped, Inner>(
        from flatMap: SubscriberList<FlatMapped>, to inner: SubscriberList<Inner>
    ) {
        guard bind_trace_is_recording() else { return }
        let flatMapInfo = flatMap.lock.withLock { flatMap.probe.announced(&flatMap.entries) }
        inner.lock.withLock { inner.probe.innerSwitch(from: flatMapInfo, innerSubscribers: &inner.entries) }
    }
}
#endif
