// The probes of Probe.swift with bodies: each calls `TraceRecorder` while a trace is recorded, and
// does as little as a flag check while none is. Built only with the `Tracing` trait.
import BindTraceFormat
#if Tracing
import CBindCore
import CBindTrace

/// Who bound a subscription and where. Kept inline with the subscriber: the trace info is made
/// from it only when a recording needs it, so binding while nothing records allocates nothing.
@usableFromInline
struct BindSite {
    @usableFromInline let origin: BindOrigin
    @usableFromInline let file: StaticString
    @usableFromInline let line: UInt

    @inlinable
    init(origin: BindOrigin, file: StaticString, line: UInt) {
        self.origin = origin
        self.file = file
        self.line = line
    }

    @inlinable static func closure(file: StaticString, line: UInt) -> BindSite {
        BindSite(origin: .closure, file: file, line: line)
    }
    @inlinable static func `operator`(file: StaticString, line: UInt) -> BindSite {
        BindSite(origin: .operator, file: file, line: line)
    }
    @inlinable static func binder(_ probe: BinderProbe, file: StaticString, line: UInt) -> BindSite {
        BindSite(origin: probe.origin, file: file, line: line)
    }
}

@usableFromInline
struct BinderProbe {
    @usableFromInline let origin: BindOrigin

    @usableFromInline
    init<Target: AnyObject>(target: Target) {
        origin = .binder(
            type: Target.self, identity: UInt(bitPattern: ObjectIdentifier(target).hashValue),
            target: WeakTarget(target))
    }

    /// Records each delivery that finds the target gone.
    @inlinable
    func delivery<Value>(_ deliverIfAlive: @escaping (Value) -> Bool) -> (Value) -> Void {
        { value in
            if !deliverIfAlive(value), bt_is_recording() {
                TraceRecorder.dangling(bt_cause_slot()!.pointee.subscription)
            }
        }
    }
}

@usableFromInline
struct SubscriptionProbe {
    @usableFromInline let site: BindSite
    /// Made when a recording first needs it; guarded by the Output's lock.
    @usableFromInline var info: SubscriptionTraceInfo?
    /// `info.id`, copied so a traced delivery reads it without touching the object (0: none yet).
    @usableFromInline var id: UInt64 = 0

    @inlinable
    init(_ site: BindSite) { self.site = site }

    @usableFromInline
    mutating func recorded(of output: OutputTraceInfo) -> SubscriptionTraceInfo {
        if let info { return info }
        let made = SubscriptionTraceInfo(output: output, origin: site.origin, file: site.file, line: site.line)
        info = made
        id = made.id
        return made
    }
}

@usableFromInline
struct OutputProbe {
    @usableFromInline typealias Preview = [UInt8]?
    @usableFromInline let info: OutputTraceInfo

    @usableFromInline
    init(kind: OutputKind, valueType: Any.Type, file: StaticString, line: UInt) {
        info = OutputTraceInfo(kind: kind, valueType: valueType, file: file, line: line)
    }

    @usableFromInline
    func created() {
        if bt_is_recording() { TraceRecorder.outputCreated(info) }
    }

    func labeled(_ label: String) { info.setLabel(label) }

    /// Gives every subscriber its trace info: those bound while nothing recorded have none yet.
    /// Runs only while recording, so its walk never costs the untraced paths anything.
    @usableFromInline
    func recordAll<Value>(_ subscribers: inout ContiguousArray<Subscriber<Value>>) {
        // Through the buffer, so checking an entry does not copy (and retain) all of it.
        subscribers.withUnsafeMutableBufferPointer { entries in
            for index in entries.indices where entries[index].probe.info == nil {
                _ = entries[index].probe.recorded(of: info)
            }
        }
    }

    /// Called only while recording (see ``Probe``).
    @usableFromInline
    func bound<Value>(_ subscribers: inout ContiguousArray<Subscriber<Value>>) -> DeliveryProbe {
        recordAll(&subscribers)
        let last = subscribers.count - 1
        let subscription = subscribers[last].probe.recorded(of: info)
        return DeliveryProbe(
            event: TraceRecorder.bound(subscription, siblings: subscribers.lazy.compactMap { $0.probe.info }))
    }

    /// Called only while recording (see ``Probe``). The subscribers are given trace info only when
    /// the recorder announces this Output (its first event in this recording).
    @usableFromInline
    func updated<Value>(_ subscribers: inout ContiguousArray<Subscriber<Value>>, preview: Preview) -> DeliveryProbe {
        DeliveryProbe(
            event: TraceRecorder.updated(info, preview: preview) {
                recordAll(&subscribers)
                return subscribers.compactMap { $0.probe.info }
            })
    }

    /// Called only while recording (see ``Probe``).
    @usableFromInline
    func unbound<Value>(_ subscriber: inout Subscriber<Value>, reason: UnbindReason) {
        TraceRecorder.unbound(subscriber.probe.recorded(of: info), reason: reason)
    }

    @usableFromInline
    func released<Value>(_ subscribers: inout ContiguousArray<Subscriber<Value>>) {
        guard bt_is_recording() else { return }
        recordAll(&subscribers)
        TraceRecorder.outputReleased(info, subscribers: subscribers.lazy.compactMap { $0.probe.info })
    }

    @usableFromInline
    func edge<Value>(
        to derived: OutputProbe, kind: OutputKind, sourceSubscribers: inout ContiguousArray<Subscriber<Value>>
    ) {
        guard bt_is_recording() else { return }
        recordAll(&sourceSubscribers)
        TraceRecorder.edge(
            from: info, to: derived.info, kind: kind,
            sourceSubscribers: sourceSubscribers.lazy.compactMap { $0.probe.info })
    }

    /// Called on the inner Output's probe, with its lock held.
    @usableFromInline
    func innerSwitch<Value>(from flatMap: OutputProbe, innerSubscribers: inout ContiguousArray<Subscriber<Value>>) {
        guard bt_is_recording() else { return }
        recordAll(&innerSubscribers)
        TraceRecorder.innerSwitch(
            flatMap: flatMap.info, inner: info, innerSubscribers: innerSubscribers.lazy.compactMap { $0.probe.info })
    }

    @usableFromInline
    func handleReleased<Value>(_ subscribers: inout ContiguousArray<Subscriber<Value>>, index: Int) {
        guard bt_is_recording() else { return }
        TraceRecorder.handleReleased(subscriptionID: subscribers[index].probe.recorded(of: info).id)
    }

    @usableFromInline
    func contained<Value>(
        _ subscribers: inout ContiguousArray<Subscriber<Value>>, index: Int, container: ContainerProbe
    ) {
        guard bt_is_recording() else { return }
        TraceRecorder.subscriptionContained(
            subscriptionID: subscribers[index].probe.recorded(of: info).id, containerID: container.id)
    }
}

@usableFromInline
struct DeliveryProbe {
    /// The recorded update (or bind), 0 when nothing was recorded.
    @usableFromInline let event: UInt64
    /// The cause that was current before the deliveries, restored after them.
    @usableFromInline let saved: bt_cause

    @inlinable
    init(event: UInt64) {
        self.event = event
        saved = event == 0 ? bt_cause() : bt_cause_slot()!.pointee
    }

    @inlinable
    func willDeliver(to subscription: SubscriptionProbe) {
        guard event != 0 else { return }
        bt_cause_slot()!.pointee = bt_cause(subscription: subscription.id, event: event)
    }

    @inlinable
    func finished() {
        guard event != 0 else { return }
        bt_cause_slot()!.pointee = saved
    }
}

@usableFromInline
struct CauseProbe {
    @usableFromInline let cause: bt_cause

    @inlinable static var current: CauseProbe { CauseProbe(cause: bt_cause_slot()!.pointee) }
    @inlinable init(cause: bt_cause) { self.cause = cause }

    @inlinable
    func restore(_ body: () -> Void) {
        let slot = bt_cause_slot()!
        let saved = slot.pointee
        slot.pointee = cause
        body()
        slot.pointee = saved
    }
}

@usableFromInline
struct ContainerProbe {
    /// Never reused within a process, unlike the container's address.
    @usableFromInline let id: UInt64

    @usableFromInline
    init() { id = bind_new_container_id() }
}


@usableFromInline
enum Probe {
    @inlinable static var isRecording: Bool { bt_is_recording() }

    // The hot paths' probes check the flag before they touch the Output's probe at all, so an
    // untraced update or bind does not even retain its trace info.

    @inlinable
    static func preview<Value>(_ list: SubscriberList<Value>, of value: Value) -> OutputProbe.Preview {
        bt_is_recording() && bt_previews_enabled() ? TraceRecorder.preview(of: value) : nil
    }

    @inlinable
    static func updated<Value>(_ list: SubscriberList<Value>, preview: OutputProbe.Preview) -> DeliveryProbe {
        guard bt_is_recording() else { return DeliveryProbe(event: 0) }
        return list.probe.updated(&list.entries, preview: preview)
    }

    @inlinable
    static func bound<Value>(_ list: SubscriberList<Value>) -> DeliveryProbe {
        guard bt_is_recording() else { return DeliveryProbe(event: 0) }
        return list.probe.bound(&list.entries)
    }

    @inlinable
    static func unbound<Value>(_ list: SubscriberList<Value>, _ subscriber: inout Subscriber<Value>, reason: UnbindReason) {
        guard bt_is_recording() else { return }
        list.probe.unbound(&subscriber, reason: reason)
    }
}

/// The subscription whose closure runs on this thread, kept in a C thread-local.
enum TraceCause {
    static func run(subscription: UInt64, event: UInt64, _ body: () -> Void) {
        let slot = bt_cause_slot()!
        let saved = slot.pointee
        slot.pointee = bt_cause(subscription: subscription, event: event)
        body()
        slot.pointee = saved
    }

    @usableFromInline
    static var current: bt_cause { bt_cause_slot()!.pointee }
}
#endif
