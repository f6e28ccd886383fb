#if Tracing
import CBindTrace
#endif

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

    /// One bound closure.
    @usableFromInline
    struct Subscriber {
        @usableFromInline let deliver: (Value) -> Void
        #if Tracing
        @usableFromInline let trace: SubscriptionTraceInfo
        /// `trace.id`, copied so a traced delivery reads it without touching the object.
        @usableFromInline let traceID: UInt64

        @usableFromInline
        init(deliver: @escaping (Value) -> Void, trace: SubscriptionTraceInfo) {
            self.deliver = deliver
            self.trace = trace
            self.traceID = trace.id
        }
        #else
        @usableFromInline
        init(deliver: @escaping (Value) -> Void) {
            self.deliver = deliver
        }
        #endif
    }

    // Stored properties are `final` so code specialised in the caller's module reaches them
    // directly, not through class accessors (this class is not final: Relay subclasses it).

    @usableFromInline final let lock = Lock()
    /// Guarded by `lock`. Copied (a retain, no element copy) once per update and iterated outside it.
    @usableFromInline final var subscribers: ContiguousArray<Subscriber> = []
    /// The token of each subscriber, in the same order: growing, so unbind binary-searches it.
    /// Kept apart from `subscribers` so the search is the same non-generic code on every path.
    @usableFromInline final var tokens: ContiguousArray<UInt64> = []
    /// Guarded by `lock`.
    @usableFromInline final var storedValue: Value?
    /// Guarded by `lock`.
    @usableFromInline final var nextToken: UInt64 = 1
    /// `false` for ``Relay`` and for what is derived from one: such an Output never replays.
    @usableFromInline final let storesValues: Bool
    /// Set by ``debug(identifier:)``; guarded by `lock`. Checked once per update.
    @usableFromInline final var debugLog: DebugLog?
    /// Where ``debug(identifier:)`` prints; guarded by `lock`.
    final var printer: Printable = StandardOutputPrinter()

    #if Tracing
    @usableFromInline final let trace: OutputTraceInfo
    #endif

    /// Creates an Output, storing `value` when one is given.
    ///
    /// - Parameters:
    ///   - value: the initial value; `nil` leaves the Output empty until its first update.
    ///   - file, line: the creation site recorded by the instrumented build.
    public convenience init(value: Value? = nil, file: StaticString = #fileID, line: UInt = #line) {
        self.init(value: value, storesValues: true, kind: .output, file: file, line: line)
    }

    /// Creates an Output whose ``debug(identifier:)`` log goes to `printer`.
    public convenience init(
        value: Value? = nil, printer: Printable, file: StaticString = #fileID, line: UInt = #line
    ) {
        self.init(value: value, storesValues: true, kind: .output, file: file, line: line)
        self.printer = printer
    }

    @usableFromInline
    init(value: Value?, storesValues: Bool, kind: OutputKind, file: StaticString, line: UInt) {
        self.storesValues = storesValues
        self.storedValue = storesValues ? value : nil
        #if Tracing
        trace = OutputTraceInfo(kind: kind, valueType: Value.self, file: file, line: line)
        if bt_is_recording() { TraceRecorder.outputCreated(trace) }
        #endif
    }

    deinit {
        #if Tracing
        if bt_is_recording() {
            TraceRecorder.outputReleased(trace, subscribers: subscribers.lazy.map { $0.trace })
        }
        #endif
        lock.deallocate()
    }

    /// The latest value, or `nil` when there is none yet (always `nil` for a ``Relay``).
    public final var value: Value? {
        lock.lock()
        defer { lock.unlock() }
        return storedValue
    }

    /// Stores `value` (unless this is a ``Relay``) and calls every bound closure with it, in bind order.
    ///
    /// - Complexity: O(*n*) in the number of subscribers, with one lock round trip.
    @inlinable
    public final func update(withValue value: Value) {
        #if Tracing
        if bt_is_recording() { return updateTraced(value) }
        #endif
        // Hot path: one lock round trip, a retain of the subscriber list, then plain calls.
        lock.lock()
        if storesValues { storedValue = value }
        let snapshot = subscribers
        let log = debugLog
        lock.unlock()
        if let log { log.updated(value) }
        for subscriber in snapshot { subscriber.deliver(value) }
    }

    /// Binds `closure`, calling it at once with the current value when there is one.
    ///
    /// - Returns: a ``Subscription`` that unbinds the closure; keep it, or add it to a
    ///   ``SubscriptionContainer``, to unbind later.
    @inlinable
    @discardableResult
    public final func bind(
        _ closure: @escaping (Value) -> Void, file: StaticString = #fileID, line: UInt = #line
    ) -> Subscription {
        #if Tracing
        return bind(closure, origin: .closure, file: file, line: line)
        #else
        return bind(closure, file: file, line: line, isInternal: false)
        #endif
    }

    /// Binds a ``Binder``: its target is held weakly and receives every value while it lives.
    @inlinable
    @discardableResult
    public final func bind(to binder: Binder<Value>, file: StaticString = #fileID, line: UInt = #line)
        -> Subscription
    {
        #if Tracing
        return bind(binder.deliverTraced, origin: binder.origin, file: file, line: line)
        #else
        return bind(binder.deliver, file: file, line: line, isInternal: false)
        #endif
    }

    /// Binds every binder in `binders`; unbind them together with ``SubscriptionContainer``.
    public final func bind(to binders: [Binder<Value>], file: StaticString = #fileID, line: UInt = #line) {
        for binder in binders { bind(to: binder, file: file, line: line) }
    }

    /// Removes the closure `subscription` was returned for. Unknown subscriptions are ignored.
    @inlinable
    public final func unbind(for subscription: Subscription) {
        // Tokens are per Output: another Output's subscription may carry a token of ours.
        guard subscription.unbinder === self else { return }
        unbind(token: subscription.token, reason: .unbind)
    }

    /// Stores `value` only when no value is stored yet.
    ///
    /// - Returns: `self`, so it reads as part of a declaration: `let count = Output<Int>().initial(0)`.
    @discardableResult
    public final func initial(_ value: Value) -> Output<Value> {
        lock.withLock {
            if storesValues && storedValue == nil { storedValue = value }
        }
        return self
    }

    /// Logs every bind and update of this Output through its ``Printable``, prefixed by `identifier`.
    ///
    /// The instrumented build also records `identifier` as the Output's label.
    @discardableResult
    public final func debug(identifier: String) -> Output<Value> {
        lock.withLock {
            debugLog = DebugLog(identifier: identifier, printer: printer)
        }
        #if Tracing
        trace.setLabel(identifier)
        #endif
        return self
    }

    /// Names this Output in traces, graphs and reports without printing anything.
    @discardableResult
    public final func labeled(_ label: String) -> Output<Value> {
        #if Tracing
        trace.setLabel(label)
        #endif
        return self
    }

    // MARK: - Internals

    #if !Tracing
    @inlinable
    final func bind(_ closure: @escaping (Value) -> Void, file: StaticString, line: UInt, isInternal: Bool)
        -> Subscription
    {
        lock.lock()
        let token = nextToken
        nextToken &+= 1
        subscribers.append(Subscriber(deliver: closure))
        tokens.append(token)
        let current = storedValue
        let log = debugLog
        lock.unlock()
        if let log { log.bound() }
        if let current { closure(current) }
        return Subscription(unbinder: self, token: token)
    }
    #endif

    @inlinable
    final func unbind(token: UInt64, reason: UnbindReason) {
        lock.lock()
        guard let index = Self.index(of: token, in: tokens) else { return lock.unlock() }
        tokens.remove(at: index)
        #if Tracing
        let removed = subscribers.remove(at: index)
        if bt_is_recording() { TraceRecorder.unbound(removed.trace, reason: reason) }
        #else
        subscribers.remove(at: index)
        #endif
        lock.unlock()
    }

    /// Binary search of the growing `tokens`.
    @inlinable
    static func index(of token: UInt64, in tokens: ContiguousArray<UInt64>) -> Int? {
        var low = 0
        var high = tokens.count
        while low < high {
            let middle = (low &+ high) &>> 1
            let candidate = tokens[middle]
            if candidate == token { return middle }
            if candidate < token { low = middle &+ 1 } else { high = middle }
        }
        return nil
    }
}

extension Output: @unchecked Sendable where Value: Sendable {}
