import BindTraceFormat

#if Tracing
import CBindTrace

/// What the recorder knows of one Output: created with it, outliving it in no table.
@usableFromInline
final class OutputTraceInfo: @unchecked Sendable {
    /// Never reused within a process, unlike `ObjectIdentifier`.
    let id: UInt64
    let kind: OutputKind
    let valueType: Any.Type
    let file: StaticString
    let line: UInt
    /// Guarded by `TraceRecorder`'s lock, like `announcedEpoch`.
    var label: String?
    /// The recording in which this Output's creation was last written (0: never).
    var announcedEpoch: UInt32 = 0

    init(kind: OutputKind, valueType: Any.Type, file: StaticString, line: UInt) {
        self.id = bt_new_output_id()
        self.kind = kind
        self.valueType = valueType
        self.file = file
        self.line = line
    }

    func setLabel(_ label: String) {
        TraceRecorder.labelChanged(self, to: label)
    }
}

/// Who bound a subscription: a closure, a Binder (with its target), or an operator of Bind itself.
/// One word: every subscriber of the instrumented build carries one, so its size is paid per binding.
@usableFromInline
enum BindOrigin {
    case closure
    case `operator`
    case binder(BinderTarget)
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

/// What the recorder knows of one subscription.
@usableFromInline
final class SubscriptionTraceInfo: @unchecked Sendable {
    @usableFromInline let id: UInt64
    let output: OutputTraceInfo
    let origin: BindOrigin
    let file: StaticString
    let line: UInt
    /// Guarded by `TraceRecorder`'s lock.
    var announcedEpoch: UInt32 = 0

    /// The Binder target's address, when this is a Binder's subscription.
    var targetIdentity: UInt? {
        if case .binder(let target) = origin { target.identity } else { nil }
    }

    /// Whether this is a Binder's subscription whose target is gone.
    var targetIsGone: Bool {
        if case .binder(let target) = origin { target.object == nil } else { false }
    }

    init(output: OutputTraceInfo, origin: BindOrigin, file: StaticString, line: UInt) {
        self.id = bt_new_subscription_id()
        self.output = output
        self.origin = origin
        self.file = file
        self.line = line
    }
}
#endif
