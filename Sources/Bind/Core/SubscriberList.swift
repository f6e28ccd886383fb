import BindTraceFormat

/// One bound closure of an Output.
@usableFromInline
struct Subscriber<Value> {
    /// First, so it sits at the same place whatever `Value` is: the recorder walks the probes of a
    /// subscriber array without knowing its type (empty in the plain build).
    @usableFromInline var probe: SubscriptionProbe
    /// The Output's identity for this subscription: growing, so unbind binary-searches it.
    @usableFromInline let token: UInt64
    @usableFromInline let deliver: (Value) -> Void

    @inlinable
    init(token: UInt64, deliver: @escaping (Value) -> Void, probe: SubscriptionProbe) {
        self.token = token
        self.deliver = deliver
        self.probe = probe
    }
}

/// The closures bound to one Output, and the lock that guards them and the Output's state.
///
/// Subscriptions hold this list, not the Output: it outlives the Output while they do, empty once
/// the Output is gone, so a Subscription unbinds with no weak reference and no way to reach an
/// Output that is being released.
@usableFromInline
final class SubscriberList<Value>: SubscriptionSource, @unchecked Sendable {
    @usableFromInline let lock = Lock()
    /// Guarded by `lock`. Copied (a retain, no element copy) once per update and iterated outside it.
    @usableFromInline @exclusivity(unchecked) var entries: ContiguousArray<Subscriber<Value>> = []
    /// Guarded by `lock`.
    @usableFromInline @exclusivity(unchecked) var nextToken: UInt64 = 1
    /// Guarded by `lock`.
    @usableFromInline @exclusivity(unchecked) var probe: OutputProbe
    /// What a ``Subscription`` (or the Output, as it is released) asks of this list, run by
    /// ``specialised``.
    @usableFromInline enum Request {
        case unbind(UnbindReason)
        case handleReleased
        case contained(ContainerProbe)
        case outputReleased
    }

    /// ``perform(_:token:)`` compiled for this `Value` in the module that makes the Output (this
    /// init is inlinable, as the Output's are): a ``Subscription`` reaches this list only through
    /// its class, and an Output's `deinit` runs unspecialised; generic code there would look up the
    /// subscriber array's type metadata (a hash-table search) at every step. A `let`, so calling it
    /// needs no lock and no retain of the closure.
    @usableFromInline let specialised: (SubscriberList<Value>, UInt64, Request) -> Void

    @inlinable
    init(probe: OutputProbe) {
        self.probe = probe
        specialised = { list, token, request in list.perform(request, token: token) }
    }

    deinit {
        probe.releaseInfo()
        lock.deallocate()
    }

    override func unsubscribe(_ subscription: Subscription, reason: UnbindReason) {
        run(.unbind(reason), token: subscription.token)
    }

    override func handleReleased(token: UInt64) {
        run(.handleReleased, token: token)
    }

    override func contained(token: UInt64, container: ContainerProbe) {
        run(.contained(container), token: token)
    }

    /// Always inlined, so an unsubscribe makes one call (the specialised closure) rather than two.
    @inline(__always)
    private func run(_ request: Request, token: UInt64) {
        specialised(self, token, request)
    }

    /// Does what a Subscription asked for the subscriber `token`, if it is still bound.
    ///
    /// Always inlined into the closure that ``specialised`` holds: called, it was one more call and
    /// frame on every unsubscribe.
    @inlinable @inline(__always)
    func perform(_ request: Request, token: UInt64) {
        switch request {
        case .unbind(let reason):
            unbind(token: token, reason: reason)
        case .handleReleased:
            lock.lock()
            if let index = index(of: token) { probe.handleReleased(&entries, index: index) }
            lock.unlock()
        case .contained(let container):
            lock.lock()
            if let index = index(of: token) { probe.contained(&entries, index: index, container: container) }
            lock.unlock()
        case .outputReleased:
            lock.lock()
            var released = entries
            entries = []
            probe.released(&released)
            lock.unlock()
            // The closures may hold derived Outputs, released in turn: one cascade step each.
            Cascade.release(consume released)
        }
    }

    /// The Output is gone: its subscribers are unbound and released.
    func outputReleased() {
        // Unlocked: binds are made through the Output, so every one of them finished before its
        // last release (which ordered them before this deinit). No token was handed out: nothing
        // was ever bound, so there is nothing to release; only a trace may want to know.
        if nextToken == 1 {
            Probe.releasedUnbound(self)
        } else {
            specialised(self, 0, .outputReleased)
        }
    }

    /// Removes the subscriber `token`, if it is still bound.
    ///
    /// Hot path. Unrecorded, only the closure is kept from the removed subscriber: the instrumented
    /// build's subscriber is too large for registers, and destroying it whole went through its
    /// type's value witness (a metadata lookup and two calls, 26 instructions; BENCHMARKS.md,
    /// "Seventh pass: tracing-off churn"). The instrumented build checks the recording flag here,
    /// under the lock, and leaves a recorded unbind to ``unbindRecorded(at:reason:)``.
    @inlinable @inline(__always)
    func unbind(token: UInt64, reason: UnbindReason) {
        lock.lock()
        guard let index = index(of: token) else { return lock.unlock() }
        if Probe.isRecording { return unbindRecorded(at: index, reason: reason) }
        let deliver = entries.remove(at: index).deliver
        lock.unlock()
        // Released here, outside the lock: the closure may hold anything.
        _ = consume deliver
    }

    /// The rest of an unbind while a trace is recorded (instrumented build only). Lock held; unlocks.
    @inlinable @inline(never)
    func unbindRecorded(at index: Int, reason: UnbindReason) {
        var removed = entries.remove(at: index)
        Probe.unbound(self, &removed, reason: reason)
        lock.unlock()
        // `removed` is released here, outside the lock: its closure may hold anything.
        _ = consume removed
    }

    /// Binary search of the growing tokens. Caller holds `lock`.
    ///
    /// Through the buffer: `middle` is always below the count, so the array's bounds check on
    /// every step was work the search already guarantees.
    @inlinable
    func index(of token: UInt64) -> Int? {
        entries.withUnsafeBufferPointer { buffer in
            var low = 0
            var high = buffer.count
            while low < high {
                let middle = (low &+ high) &>> 1
                let candidate = buffer[middle].token
                if candidate == token { return middle }
                if candidate < token { low = middle &+ 1 } else { high = middle }
            }
            return nil
        }
    }
}
