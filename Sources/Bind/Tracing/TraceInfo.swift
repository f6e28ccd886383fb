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
@usableFromInline
enum BindOrigin {
    case closure
    case `operator`
    case binder(type: Any.Type, identity: UInt)
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

    init(output: OutputTraceInfo, origin: BindOrigin, file: StaticString, line: UInt) {
        self.id = bt_new_subscription_id()
        self.output = output
        self.origin = origin
        self.file = file
        self.line = line
    }
}
#endif
