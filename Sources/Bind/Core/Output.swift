import BindTraceFormat

/// A value that changes over time, and the closures bound to it.
///
/// View models expose Outputs; views bind to them. An `Output` stores its latest value, so a
/// closure bound later is called at once with it (see ``Relay`` for a stateless stream).
///
/// Every member is thread-safe: an Output may be updated, bound and unbound from any thread at
/// once. Bound closures run synchronously on the updating thread, in the order they were bound,
/// outside any lock — a closure may itself update, bind to or unbind from the Output calling it.
///
/// ```swift
/// let name = Output<String>(value: "Ada")
/// let subscription = name.bind { print("name is \($0)") }   // prints "name is Ada"
/// name.update(withValue: "Grace")                            // prints "name is Grace"
/// subscription.unsubscribe()
/// ```
public class Output<Value>: Unbindable {
    /// The default ``Printable``, under the name the original framework gave it.
    public typealias Printer = StandardOutputPrinter

    // Stored properties are `final` so code specialised in the caller's module reaches them
    // directly, not through class accessors (this class is not final: Relay subclasses it). The
    // mutable ones are guarded by `lock`, so run-time exclusivity checks would only cost time.

    /// The bound closures and the lock; Subscriptions hold this, never the Output.
    @usableFromInline final let subscribers: SubscriberList<Value>
    /// `subscribers.lock`, kept here so the hot path reaches it without a second load.
    @usableFromInline final let lock: Lock
    /// Guarded by `lock`.
    @usableFromInline @exclusivity(unchecked) final var storedValue: Value?
    /// `false` for ``Relay`` and for what is derived from one: such an Output never replays.
    @usableFromInline final let storesValues: Bool
    /// Set by ``debug(identifier:)``; guarded by `lock`. Checked once per update.
    @usableFromInline @exclusivity(unchecked) final var debugLog: DebugLog?
    /// Where ``debug(identifier:)`` prints; guarded by `lock`.
    @usableFromInline final var printer: Printable = StandardOutputPrinter()

    /// Creates an Output, storing `value` when one is given.
    ///
    /// - Parameters:
    ///   - value: the initial value; `nil` leaves the Output empty until its first update.
    ///   - file: the `#fileID` of the creation site, recorded by the instrumented build.
    ///   - line: the line of the creation site.
    @inlinable
    public convenience init(value: Value? = nil, file: StaticString = #fileID, line: UInt = #line) {
        self.init(value: value, storesValues: true, kind: .output, file: file, line: line)
    }

    /// Creates an Output whose ``debug(identifier:)`` log goes to `printer`.
    @inlinable
    public convenience init(
        value: Value? = nil, printer: Printable, file: StaticString = #fileID, line: UInt = #line
    ) {
        self.init(value: value, storesValues: true, kind: .output, file: file, line: line)
        self.printer = printer
    }

    /// Inlinable, so it runs specialised where the Output is made: generic code would look up the
    /// type metadata of its subscriber list (a hash-table search) for every Output.
    @inlinable
    init(value: Value?, storesValues: Bool, kind: OutputKind, file: StaticString, line: UInt) {
        let probe = OutputProbe(kind: kind, valueType: Value.self, file: file, line: line)
        subscribers = SubscriberList(probe: probe)
        lock = subscribers.lock
        self.storesValues = storesValues
        // Kept even when later values are not: `Relay(value:)` replays it, as in the original framework.
        self.storedValue = value
        subscribers.probe.created()
    }

    deinit {
        subscribers.outputReleased()
    }

    /// The latest value, or `nil` when there is none yet (for a ``Relay``: the value it was created with, if any).
    public final var value: Value? {
        lock.lock()
        defer { lock.unlock() }
        return storedValue
    }

    /// Stores `value` (unless this is a ``Relay``) and calls every bound closure with it, in bind order.
    ///
    /// - Parameters:
    ///   - value: the new value.
    ///   - file: the `#fileID` of the call site, recorded by the instrumented build when no
    ///     subscription's closure made this call (the root of what follows, which `bind-trace why` shows).
    ///   - line: the line of the call site.
    /// - Complexity: O(*n*) in the number of subscribers, with one lock round trip.
    @inlinable
    public final func update(withValue value: Value, file: StaticString = #fileID, line: UInt = #line) {
        // Hot path: one lock round trip, a retain of the subscriber list, then plain calls. The
        // instrumented build adds a check of the recording flag (again under the lock, where a
        // recorded bind could have started) and leaves all else to `updateRecorded(_:site:)`. Without
        // the trait the site is an empty value and `file`/`line` are never read: they cost nothing.
        if Probe.isRecording { return updateRecorded(value, site: .call(file: file, line: line)) }
        lock.lock()
        if Probe.isRecording {
            lock.unlock()
            return updateRecorded(value, site: .call(file: file, line: line))
        }
        if storesValues { storedValue = value }
        let snapshot = subscribers.entries
        let log = debugLog
        lock.unlock()
        deliver(value, to: snapshot, log: log, delivery: .idle)
    }

    /// ``update(withValue:file:line:)`` as a function value, e.g. `values.forEach(output.update(withValue:))`:
    /// records no call site.
    @_disfavoredOverload
    @inlinable
    public final func update(withValue value: Value) {
        update(withValue: value, file: #fileID, line: #line)
    }

    /// ``update(withValue:file:line:)`` while a trace is recorded (instrumented build only): the
    /// value's preview is made before the lock is taken, the update recorded inside it.
    @inlinable
    @inline(never)
    final func updateRecorded(_ value: Value, site: UpdateSite) {
        let preview = Probe.preview(subscribers, of: value)
        lock.lock()
        if storesValues { storedValue = value }
        let delivery = Probe.updated(subscribers, preview: preview, site: site)
        let snapshot = subscribers.entries
        let log = debugLog
        lock.unlock()
        deliver(value, to: snapshot, log: log, delivery: delivery)
    }

    /// Calls every closure of `snapshot` with `value`, outside the lock.
    @inlinable
    final func deliver(
        _ value: Value, to snapshot: ContiguousArray<Subscriber<Value>>, log: DebugLog?, delivery: DeliveryProbe
    ) {
        if let log { log.willUpdate(value, bindings: snapshot.count) }
        for index in snapshot.indices {
            delivery.willDeliver(toSubscription: snapshot[index].probe.id)
            snapshot[index].deliver(value)
        }
        delivery.finished()
        if let log { log.didUpdate(value, bindings: lock.withLock { subscribers.entries.count }) }
    }

    /// Binds `closure`, calling it at once with the current value when there is one.
    ///
    /// - Returns: a ``Subscription`` that unbinds the closure; keep it, or add it to a
    ///   ``SubscriptionContainer``, to unbind later.
    @inlinable @inline(__always)
    @discardableResult
    public final func bind(
        _ closure: @escaping (Value) -> Void, file: StaticString = #fileID, line: UInt = #line
    ) -> Subscription {
        Subscription(
            source: subscribers, token: bind(closure, site: .closure(file: file, line: line), captures: .init(closure)))
    }

    /// Binds a ``Binder``: its target is held weakly and receives every value while it lives.
    @inlinable
    @discardableResult
    public final func bind(to binder: Binder<Value>, file: StaticString = #fileID, line: UInt = #line)
        -> Subscription
    {
        let token = bind(binder.delivery, site: .binder(binder.probe, file: file, line: line))
        return Subscription(source: subscribers, token: token)
    }

    /// ``bind(to:file:line:)->Subscription`` as a function value, e.g. `binders.map(output.bind(to:))`: records no call site.
    @_disfavoredOverload
    @discardableResult
    public final func bind(to binder: Binder<Value>) -> Subscription {
        bind(to: binder, file: #fileID, line: #line)
    }

    /// ``bind(_:file:line:)`` as a function value: records no call site.
    @_disfavoredOverload
    @discardableResult
    public final func bind(_ closure: @escaping (Value) -> Void) -> Subscription {
        bind(closure, file: #fileID, line: #line)
    }

    /// Binds every binder in `binders` for as long as this Output lives. As in the published framework
    /// nothing is returned, so they cannot be unbound: to unbind them (when their targets go away),
    /// bind each with ``bind(to:file:line:)->Subscription`` and keep its ``Subscription``.
    public final func bind(to binders: [Binder<Value>], file: StaticString = #fileID, line: UInt = #line) {
        for binder in binders { bind(to: binder, file: file, line: line) }
    }

    /// Removes the closure `subscription` was returned for. Unknown subscriptions are ignored.
    @inlinable
    public final func unbind(for subscription: Subscription) {
        // Tokens are per Output: another Output's subscription may carry a token of ours.
        guard subscription.source === subscribers else { return }
        subscribers.unbind(token: subscription.token, reason: .unbind)
    }

    /// Updates with `value` only when no value is stored yet, as the original framework did: bound
    /// closures are called with it (a ``Relay``, which stores nothing, is updated every time).
    ///
    /// - Parameters:
    ///   - value: the value to store and deliver when the Output has none yet.
    ///   - file: the `#fileID` of the call site, recorded as ``update(withValue:file:line:)``'s.
    ///   - line: the line of the call site.
    /// - Returns: `self`, so it reads as part of a declaration: `let count = Output<Int>().initial(0)`.
    @discardableResult
    public final func initial(_ value: Value, file: StaticString = #fileID, line: UInt = #line) -> Output<Value> {
        if lock.withLock({ storedValue == nil }) { update(withValue: value, file: file, line: line) }
        return self
    }

    /// ``initial(_:file:line:)`` as a function value: records no call site.
    @_disfavoredOverload
    @discardableResult
    public final func initial(_ value: Value) -> Output<Value> { initial(value, file: #fileID, line: #line) }

    /// Logs every bind and update of this Output through its ``Printable``, prefixed by `identifier`.
    ///
    /// The instrumented build also records `identifier` as the Output's label.
    @discardableResult
    public final func debug(identifier: String) -> Output<Value> {
        lock.withLock {
            debugLog = DebugLog(identifier: identifier, typeName: "\(type(of: self))", printer: printer)
        }
        Probe.labeled(subscribers, identifier)
        return self
    }

    /// Names this Output in traces, graphs and reports without printing anything.
    @discardableResult
    public final func labeled(_ label: String) -> Output<Value> {
        Probe.labeled(subscribers, label)
        return self
    }

    // MARK: - Internals

    /// Binds `closure` and returns its token; the initial value, if any, is delivered at once.
    ///
    /// Always inlined, like the public `bind`: left to the optimiser, the instrumented build's
    /// larger subscriber made it a call, and an Output made, bound and dropped in one function
    /// then went through the runtime's release instead of being freed in place (about 80
    /// instructions more per Output; BENCHMARKS.md, "Sixth pass").
    ///
    /// `captures` is what the instrumented build read of the closure (or of an operator's
    /// transform) before the lock: reading it may take other Outputs' locks.
    @inlinable @inline(__always)
    final func bind(_ closure: @escaping (Value) -> Void, site: BindSite, captures: CaptureProbe = .none) -> UInt64 {
        lock.lock()
        let token = subscribers.nextToken
        subscribers.nextToken &+= 1
        subscribers.entries.append(Subscriber(token: token, deliver: closure, probe: SubscriptionProbe(site)))
        // As in `update(withValue:)`: the instrumented build checks the flag and leaves the rest of a
        // recorded bind to `bindRecorded(_:)`, so the unrecorded bind stays small enough to inline.
        if Probe.isRecording {
            bindRecorded(closure, captures: captures)
        } else {
            finishBind(closure, delivery: .idle, subscriptionID: 0)
        }
        return token
    }

    /// The rest of a bind while a trace is recorded (instrumented build only): recorded inside the
    /// lock, so no update can reach the subscription before the trace knows it. Lock held.
    @inlinable
    @inline(never)
    final func bindRecorded(_ closure: @escaping (Value) -> Void, captures: CaptureProbe) {
        let delivery = Probe.bound(subscribers, captures: captures)
        let subscriptionID = delivery.isActive ? subscribers.entries[subscribers.entries.count - 1].probe.id : 0
        finishBind(closure, delivery: delivery, subscriptionID: subscriptionID)
    }

    /// Unlocks and delivers the current value, if any, to the closure just bound. Lock held.
    @inlinable @inline(__always)
    final func finishBind(_ closure: (Value) -> Void, delivery: DeliveryProbe, subscriptionID: UInt64) {
        let current = storedValue
        let log = debugLog
        let bindings = subscribers.entries.count
        lock.unlock()
        if let log { log.bound(bindings: bindings) }
        if let current {
            if let log { log.initialValue(current) }
            delivery.willDeliver(toSubscription: subscriptionID)
            closure(current)
            delivery.finished()
        }
    }
}

extension Output: @unchecked Sendable where Value: Sendable {}
