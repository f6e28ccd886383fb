import BindTraceFormat

#if Tracing
import CBindTrace

/// What the recorder knows of one Output: created with it, outliving it in no table.
@usableFromInline
final class OutputTraceInfo: @unchecked Sendable {
    /// Never reused within a process, unlike `ObjectIdentifier`.
    @usableFromInline let id: UInt64
    @usableFromInline let kind: OutputKind
    let valueType: Any.Type
    let file: StaticString
    let line: UInt
    /// Guarded by `TraceRecorder`'s lock.
    var label: String?
    /// Where the root update that last wrote this Output's `calledAt` was called (the file's
    /// address and the line; 0: none in this recording): a root update from the same line again
    /// needs no record, so it stays on the lock-free path. Guarded by the Output's lock (written
    /// with the recording lock held too); forgotten when the Output is announced to a new recording.
    /// Unchecked: the lock is what keeps accesses apart, and the runtime's dynamic exclusivity
    /// check cost every traced root update two calls (`swift_beginAccess`).
    @exclusivity(unchecked) @usableFromInline var lastCallFile: UInt = 0
    @exclusivity(unchecked) @usableFromInline var lastCallLine: UInt = 0
    /// Holds the recording (epoch) in which this Output's creation was last written (0: never):
    /// written with the recording lock held, read by the lock-free update path too.
    @usableFromInline let announcedCell = UnsafeMutablePointer<UInt32>.allocate(capacity: 1)

    /// The recording in which this Output's creation was last written (0: never).
    var announcedEpoch: UInt32 {
        get { bind_trace_epoch_load(announcedCell) }
        set { bind_trace_epoch_store(announcedCell, newValue) }
    }

    init(kind: OutputKind, valueType: Any.Type, file: StaticString, line: UInt) {
        self.id = bind_trace_new_output_id()
        self.kind = kind
        self.valueType = valueType
        self.file = file
        self.line = line
        announcedCell.initialize(to: 0)
    }

    deinit { announcedCell.deallocate() }
}

/// Who bound a subscription: a closure, a Binder (with its target), or an operator of Bind itself.
///
/// Trivially copyable, so a subscriber of the instrumented build copies and drops like one of the
/// plain build: the Binder's target is not retained here but by the subscriber's own closure
/// (``BinderProbe/delivery(_:)`` captures it), which lives exactly as long as any copy of it.
@usableFromInline
enum BindOrigin {
    case closure
    case `operator`
    case binder(Unmanaged<BinderTarget>)
}

/// A Binder's target: its type and address, and the object held weakly. An address is reused once
/// its object is gone, so the recorder checks whether an earlier target with the same address is
/// still alive. Made once per Binder and shared by all its subscriptions.
@usableFromInline
final class BinderTarget: @unchecked Sendable {
    let type: Any.Type
    let identity: UInt
    weak var object: AnyObject?

    @usableFromInline
    init<Target: AnyObject>(_ object: Target) {
        type = Target.self
        identity = UInt(bitPattern: ObjectIdentifier(object).hashValue)
        self.object = object
    }
}

/// The probes of an Output's subscribers, in place in its subscriber array: what the recorder reads
/// and marks (ids, announcements). Valid only inside ``OutputProbe/withProbes(_:_:)``, with the
/// Output's lock held.
@usableFromInline
struct SubscriberProbes: RandomAccessCollection {
    @usableFromInline let base: UnsafeMutableRawPointer?
    @usableFromInline let count: Int
    /// The subscriber's stride; its probe is its first field (asked of a key path only in debug
    /// builds: at run time that costs a key path's instantiation per call).
    @usableFromInline let stride: Int

    @usableFromInline var startIndex: Int { 0 }
    @usableFromInline var endIndex: Int { count }

    @usableFromInline subscript(index: Int) -> UnsafeMutablePointer<SubscriptionProbe> {
        (base.unsafelyUnwrapped + index &* stride).assumingMemoryBound(to: SubscriptionProbe.self)
    }

    /// None.
    init() {
        base = nil
        count = 0
        stride = 0
    }

    @inlinable
    init<Value>(_ entries: UnsafeMutableBufferPointer<Subscriber<Value>>) {
        base = entries.baseAddress.map(UnsafeMutableRawPointer.init)
        count = entries.count
        stride = MemoryLayout<Subscriber<Value>>.stride
        assert(MemoryLayout<Subscriber<Value>>.offset(of: \Subscriber<Value>.probe) == 0)
    }
}
#endif
