// The probes of Probe.swift with bodies: each calls `TraceRecorder` while a trace is recorded, and
// does as little as a flag check while none is. Built only with the `Tracing` trait.
import BindTraceFormat

#if Tracing
import CBindCore
import CBindTrace

/// Who bound a subscription and where, kept inline with the subscriber (as its probe).
@usableFromInline
struct BindSite {
    @usableFromInline let origin: BindOrigin
    @usableFromInline let line: UInt
    @usableFromInline let file: StaticString

    @inlinable
    init(origin: BindOrigin, file: StaticString, line: UInt) {
        self.origin = origin
        self.line = line
        self.file = file
    }

    @inlinable static func closure(file: StaticString, line: UInt) -> BindSite {
        BindSite(origin: .closure, file: file, line: line)
    }
    @inlinable static func `operator`(file: StaticString, line: UInt) -> BindSite {
        BindSite(origin: .operator, file: file, line: line)
    }
    /// The Binder's delivery closure keeps its target alive (see ``BindOrigin``).
    @inlinable static func binder(_ probe: BinderProbe, file: StaticString, line: UInt) -> BindSite {
        BindSite(origin: .binder(.passUnretained(probe.target)), file: file, line: line)
    }
}

/// Where `update(withValue:)` or `fire()` was called. Recorded only for a root update (no
/// subscription's closure running): the one deeper updates are caused by.
@usableFromInline
struct UpdateSite {
    @usableFromInline let file: StaticString
    @usableFromInline let line: UInt

    @inlinable
    init(file: StaticString, line: UInt) {
        self.file = file
        self.line = line
    }

    @inlinable static func call(file: StaticString, line: UInt) -> UpdateSite { UpdateSite(file: file, line: line) }

    /// The file's address, which identifies it (0 for a string without one, never `#fileID`).
    @inlinable var fileAddress: UInt {
        file.hasPointerRepresentation ? UInt(bitPattern: file.utf8Start) : 0
    }

    /// Whether `info`'s last recorded root update was called here: then this one needs no record.
    @inlinable func isLastCall(of info: OutputTraceInfo) -> Bool {
        info.lastCallLine == line && info.lastCallFile == fileAddress && fileAddress != 0
    }
}

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
            if !deliverIfAlive(value), bt_is_recording() {
                TraceRecorder.dangling(bt_cause_slot()!.pointee.subscription)
            }
            withExtendedLifetime(target) {}
        }
    }
}

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
        if id == 0 { id = bt_new_subscription_id() }
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
        if bt_is_recording() { TraceRecorder.outputCreated(info) }
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
                guard bt_cause_slot()!.pointee.event != 0 || site.isLastCall(of: info) else { return 0 }
                return bt_record_update(info.announcedCell, info.id, info.kind == .relay)
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
        if bt_is_recording() && madeInfo != nil { recordReleased(&subscribers) }
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
        guard bt_is_recording() else { return }
        withInfo { info in
            Self.withProbes(&subscribers) { TraceRecorder.handleReleased($0[index], of: info, subscribers: $0) }
        }
    }

    /// Specialised, as ``recordReleased(_:)``; announces the Output as ``handleReleased(_:index:)`` does.
    @inlinable @inline(never)
    mutating func contained<Value>(
        _ subscribers: inout ContiguousArray<Subscriber<Value>>, index: Int, container: ContainerProbe
    ) {
        guard bt_is_recording() else { return }
        withInfo { info in
            Self.withProbes(&subscribers) {
                TraceRecorder.subscriptionContained($0[index], of: info, subscribers: $0, containerID: container.id)
            }
        }
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

    /// Marks nothing: the deliveries of an update or bind that was not recorded.
    @inlinable static var idle: DeliveryProbe { DeliveryProbe(event: 0) }

    /// Whether the update or bind was recorded.
    @inlinable var isActive: Bool { event != 0 }

    /// Takes the subscription's id, read only when recorded: passing the probe would copy it on
    /// every delivery, recorded or not.
    @inlinable
    func willDeliver(toSubscription id: @autoclosure () -> UInt64) {
        guard event != 0 else { return }
        bt_cause_slot()!.pointee = bt_cause(subscription: id(), event: event)
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

    /// Runs `body` with the cause restored, first recording that its delivery resumes (a `resumed`
    /// event): a reader opens that delivery's frame again, inside the cause current here, so what
    /// `body` records names the delivery that really caused it however late it runs.
    @inlinable
    func restore(_ body: () -> Void) {
        let slot = bt_cause_slot()!
        let saved = slot.pointee
        if cause.event != 0 && bt_is_recording() { TraceRecorder.resumed(cause, inside: saved) }
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
        guard bt_is_recording() else { return }
        TraceRecorder.stopped(derived, source: source)
    }
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
    static func updated<Value>(_ list: SubscriberList<Value>, preview: OutputProbe.Preview, site: UpdateSite)
        -> DeliveryProbe
    {
        guard bt_is_recording() else { return .idle }
        return list.probe.updated(&list.entries, preview: preview, site: site)
    }

    @inlinable
    static func bound<Value>(_ list: SubscriberList<Value>, captures: CaptureProbe) -> DeliveryProbe {
        guard bt_is_recording() else { return .idle }
        return list.probe.bound(&list.entries, captures: captures)
    }

    @inlinable
    static func unbound<Value>(
        _ list: SubscriberList<Value>, _ subscriber: inout Subscriber<Value>, reason: UnbindReason
    ) {
        guard bt_is_recording() else { return }
        list.probe.unbound(&subscriber, others: &list.entries, reason: reason)
    }

    // The probes below take the Outputs' locks themselves: the plain build takes none for them.

    /// Records the release of an Output that never had a subscriber.
    static func releasedUnbound<Value>(_ list: SubscriberList<Value>) {
        guard bt_is_recording() else { return }
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
        guard bt_is_recording() else { return }
        let derivedInfo = derived.lock.withLock { derived.probe.announced(&derived.entries) }
        source.lock.withLock {
            source.probe.edge(to: derivedInfo, kind: kind, sourceSubscribers: &source.entries)
        }
    }

    /// Records that a flatMap now forwards `inner`, as ``edge(from:to:kind:)`` does.
    static func innerSwitch<FlatMapped, Inner>(
        from flatMap: SubscriberList<FlatMapped>, to inner: SubscriberList<Inner>
    ) {
        guard bt_is_recording() else { return }
        let flatMapInfo = flatMap.lock.withLock { flatMap.probe.announced(&flatMap.entries) }
        inner.lock.withLock { inner.probe.innerSwitch(from: flatMapInfo, innerSubscribers: &inner.entries) }
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
