#if Tracing
import CBindTrace

extension Output {
    /// The traced bind: records the bind inside the Output's lock, so no update can reach the
    /// subscription before the trace knows it, and marks the initial delivery as its cause.
    @usableFromInline
    final func bind(_ closure: @escaping (Value) -> Void, origin: BindOrigin, file: StaticString, line: UInt)
        -> Subscription
    {
        let info = SubscriptionTraceInfo(output: trace, origin: origin, file: file, line: line)
        lock.lock()
        let token = nextToken
        nextToken &+= 1
        subscribers.append(Subscriber(deliver: closure, trace: info))
        tokens.append(token)
        let current = storedValue
        let log = debugLog
        let event = bt_is_recording() ? TraceRecorder.bound(info, siblings: subscribers.lazy.map { $0.trace }) : 0
        lock.unlock()
        if let log { log.bound() }
        if let current {
            if event != 0 {
                TraceCause.run(subscription: info.id, event: event) { closure(current) }
            } else {
                closure(current)
            }
        }
        return Subscription(unbinder: self, token: token)
    }

    /// The traced update: the record is written inside the Output's lock, then each closure runs
    /// with itself and this update recorded as the cause of whatever it does.
    @inlinable
    final func updateTraced(_ value: Value) {
        let preview = bt_previews_enabled() ? TraceRecorder.preview(of: value) : nil
        lock.lock()
        if storesValues { storedValue = value }
        let snapshot = subscribers
        let log = debugLog
        let event = TraceRecorder.updated(trace, preview: preview) { snapshot.map { $0.trace } }
        lock.unlock()
        if let log { log.updated(value) }
        if event == 0 {
            for subscriber in snapshot { subscriber.deliver(value) }
            return
        }
        let slot = bt_cause_slot()!
        let saved = slot.pointee
        for subscriber in snapshot {
            slot.pointee = bt_cause(subscription: subscriber.traceID, event: event)
            subscriber.deliver(value)
        }
        slot.pointee = saved
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

    static var current: bt_cause { bt_cause_slot()!.pointee }
}

extension Binder {
    /// The closure an Output binds in the instrumented build: records deliveries to a dead target.
    @usableFromInline
    var deliverTraced: (Value) -> Void {
        let deliverIfAlive = deliverIfAlive
        return { value in
            if !deliverIfAlive(value), bt_is_recording() { TraceRecorder.dangling(TraceCause.current.subscription) }
        }
    }
}
#endif
