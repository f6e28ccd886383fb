// The instrumentation points of the core, in one place: this file is the plain build's.
//
// `Output`, `Subscription`, `SubscriptionContainer`, `Binder` and the operators call these probes at
// fixed points of each operation (create, bind, update, unbind, release, edge, switch). Without the
// `Tracing` trait, every probe below is an empty value and every call an empty `@inlinable`
// function: the optimiser removes them, and the core runs as if uninstrumented.
//
// With the trait, this file compiles to nothing and every other file of this folder gives the same
// names bodies, one file per type (`OutputProbe.swift`, `Probe.swift`, ...): each calls `TraceRecorder`
// while a trace is recorded, and does as little as a flag check while none is. A probe added here
// needs its twin there, with the same signature: the core compiles against both.
import BindTraceFormat

#if !Tracing

/// Who bound a subscription and where: recorded by the instrumented build only.
@usableFromInline
struct BindSite {
    @inlinable static func closure(file: StaticString, line: UInt) -> BindSite { BindSite() }
    @inlinable static func `operator`(file: StaticString, line: UInt) -> BindSite { BindSite() }
    @inlinable static func binder(_ probe: BinderProbe, file: StaticString, line: UInt) -> BindSite { BindSite() }
    @inlinable init() {}
}

/// Where `update(withValue:)` or `fire()` was called: recorded by the instrumented build only.
@usableFromInline
struct UpdateSite {
    @inlinable static func call(file: StaticString, line: UInt) -> UpdateSite { UpdateSite() }
    @inlinable init() {}
}

/// What a ``Binder`` tells the trace about its target.
@usableFromInline
struct BinderProbe {
    @inlinable init<Target: AnyObject>(target: Target) {}

    /// The closure an Output binds for a Binder.
    @inlinable
    func delivery<Value>(_ deliverIfAlive: @escaping (Value) -> Bool) -> (Value) -> Void {
        { value in _ = deliverIfAlive(value) }
    }
}

/// What a bound closure (or an operator's transform) captures: read by the instrumented build only.
@usableFromInline
struct CaptureProbe {
    @inlinable static var none: CaptureProbe { CaptureProbe() }
    @inlinable init() {}
    @inlinable init<Argument>(_ closure: @escaping (Argument) -> Void) {}
    @inlinable init<Argument, Result>(_ closure: @escaping (Argument) -> Result) {}
    @inlinable init<First, Second, Result>(_ closure: @escaping (First, Second) -> Result) {}
}

/// The instrumentation of one subscription, kept with its closure.
@usableFromInline
struct SubscriptionProbe {
    @inlinable init(_ site: BindSite) {}
    /// The subscription's id in traces: none here.
    @inlinable var id: UInt64 { 0 }
}

/// The instrumentation of one Output, kept with its subscribers and guarded by the same lock.
@usableFromInline
struct OutputProbe {
    /// The value's preview, made before the lock is taken (never, here).
    @usableFromInline struct Preview {
        @inlinable init() {}
    }

    @inlinable init(kind: OutputKind, valueType: Any.Type, file: StaticString, line: UInt) {}

    @inlinable func created() {}
    @inlinable func releaseInfo() {}

    // The members below run with the Output's lock held.
    @inlinable func released<Value>(_ subscribers: inout ContiguousArray<Subscriber<Value>>) {}
    @inlinable func handleReleased<Value>(
        _ subscribers: inout ContiguousArray<Subscriber<Value>>, index: Int
    ) {}
    @inlinable func contained<Value>(
        _ subscribers: inout ContiguousArray<Subscriber<Value>>, index: Int, container: ContainerProbe
    ) {}
}

/// Whether a trace is being recorded: probes that cost a lookup are skipped when not.
@usableFromInline
enum Probe {
    @inlinable static var isRecording: Bool { false }

    // The probes of the hot paths: update, bind, unbind. Those marked "lock held" run inside it.
    @inlinable static func preview<Value>(_ list: SubscriberList<Value>, of value: Value) -> OutputProbe.Preview {
        OutputProbe.Preview()
    }
    /// Lock held.
    @inlinable static func updated<Value>(
        _ list: SubscriberList<Value>, preview: OutputProbe.Preview, site: UpdateSite
    ) -> DeliveryProbe { DeliveryProbe() }
    /// Lock held, the new subscriber last.
    @inlinable static func bound<Value>(_ list: SubscriberList<Value>, captures: CaptureProbe) -> DeliveryProbe {
        DeliveryProbe()
    }
    /// Lock held.
    @inlinable static func unbound<Value>(
        _ list: SubscriberList<Value>, _ subscriber: inout Subscriber<Value>, reason: UnbindReason
    ) {}

    // Probes that take the Outputs' locks themselves (here: none).
    @inlinable static func releasedUnbound<Value>(_ list: SubscriberList<Value>) {}
    @inlinable static func labeled<Value>(_ list: SubscriberList<Value>, _ label: String) {}
    @inlinable static func edge<Source, Derived>(
        from source: SubscriberList<Source>, to derived: SubscriberList<Derived>, kind: OutputKind
    ) {}
    @inlinable static func innerSwitch<FlatMapped, Inner>(
        from flatMap: SubscriberList<FlatMapped>, to inner: SubscriberList<Inner>
    ) {}
}

/// Marks the deliveries of one update (or of a bind's initial value) as caused by it.
@usableFromInline
struct DeliveryProbe {
    @inlinable init() {}
    @inlinable static var idle: DeliveryProbe { DeliveryProbe() }
    @inlinable var isActive: Bool { false }
    @inlinable func willDeliver(toSubscription id: @autoclosure () -> UInt64) {}
    @inlinable func finished() {}
}

/// The cause of what runs on this thread, carried into a deferred cascade step.
@usableFromInline
struct CauseProbe {
    @inlinable static var current: CauseProbe { CauseProbe() }
    @inlinable init() {}
    @inlinable func restore(_ body: () -> Void) { body() }
}

/// The identity of a ``SubscriptionContainer`` in traces.
@usableFromInline
struct ContainerProbe {
    @inlinable init() {}
}

/// What an operator with several sources tells the trace when it stops because one was released.
@usableFromInline
struct StopProbe {
    @inlinable init<Source, Derived>(source: SubscriberList<Source>, derived: SubscriberList<Derived>) {}
    @inlinable func stopped() {}
}

#endif
