// The recorder's state, announcing: each Output and subscription written once per recording.
import BindTraceFormat

#if Tracing
import CBindTrace

extension RecorderState {
    /// Writes the creation of `output` once per epoch; an Output that existed before the recording
    /// started is marked preexisting, and so are the subscriptions it already had.
    mutating func announce(
        _ output: OutputTraceInfo, subscribers: SubscriberProbes,
        except skipped: UnsafeMutablePointer<SubscriptionProbe>?
    ) {
        // Once an Output is announced, so is every subscription it has: those bound later are
        // written as they are bound. So the walk happens once per Output and recording.
        guard output.announcedEpoch != epoch else { return }
        announce(output, preexisting: true, scope: 0, cause: bind_trace_cause())
        for subscription in subscribers where subscription != skipped && subscription.pointee.announcedEpoch != epoch {
            writeBound(&subscription.pointee, of: output, preexisting: true, scope: 0, cause: bind_trace_cause())
        }
    }

    mutating func announce(_ output: OutputTraceInfo, preexisting: Bool, scope: UInt64, cause: bind_trace_cause) {
        guard streamOpen, output.announcedEpoch != epoch else { return }
        let typeID = intern(output.valueType)
        let fileID = intern(output.file)
        let labelID = output.label.map { intern($0) } ?? 0
        let kind = BindTraceFormat.OutputKind(rawValue: output.kind.rawValue) ?? .output
        append(cause: cause) { field in
            .outputCreated(
                output: output.id, kind: kind, valueType: typeID, file: fileID, line: UInt64(output.line),
                label: labelID, scope: scope, preexisting: preexisting, cause: field)
        }
        // Marked once written: a lock-free update that sees the mark takes a later number.
        output.announcedEpoch = epoch
        // A new recording has seen no call site of it yet.
        output.lastCallFile = 0
    }

    /// Writes the bind of `subscription` (given its id now if it has none) and marks it announced.
    @discardableResult
    mutating func writeBound(
        _ subscription: inout SubscriptionProbe, of output: OutputTraceInfo, preexisting: Bool,
        scope: UInt64, cause: bind_trace_cause
    ) -> UInt64 {
        subscription.announcedEpoch = epoch
        let id = subscription.recordedID()
        let fileID = intern(subscription.file)
        let line = UInt64(subscription.line)
        var flags: UInt64 = preexisting ? TraceFormat.BindFlag.preexisting : 0
        let binder: BinderTarget?
        switch subscription.origin {
        case .closure: binder = nil
        case .operator:
            binder = nil
            flags |= TraceFormat.BindFlag.internal
        case .binder(let target): binder = target.takeUnretainedValue()
        }
        guard let binder else {
            let outputID = output.id
            return appendInPlace(maximumLength: 92, cause: cause) { base, delta, field in
                RecordEncoder.encodeBound(
                    at: base, delta: delta, subscription: id, output: outputID, file: fileID, line: line, flags: flags,
                    scope: scope, cause: field)
            }
        }
        let target = EventRecord.BoundTarget(type: intern(binder.type), identity: UInt64(binder.identity))
        return append(cause: cause) { field in
            .bound(
                subscription: id, output: output.id, file: fileID, line: line, flags: flags, target: target,
                scope: scope, cause: field)
        }
    }

    /// Writes what the closure just bound as `subscription` captures, right after its bind. The
    /// Outputs its captures hold were announced under their own locks as they were found; again
    /// here only if a sink joined in between (then without their subscribers).
    mutating func writeCaptured(subscription: UInt64, _ captures: [CaptureFact]) {
        var fields: [CaptureField] = []
        fields.reserveCapacity(captures.count)
        for capture in captures {
            var holds: [CaptureField.HeldOutput] = []
            for held in capture.holds {
                announce(held.output, preexisting: true, scope: 0, cause: bind_trace_cause())
                holds.append(
                    CaptureField.HeldOutput(path: held.path.isEmpty ? 0 : intern(held.path), output: held.output.id))
            }
            fields.append(
                CaptureField(
                    strength: capture.strength, type: intern(capture.typeName), identity: UInt64(capture.identity),
                    holds: holds))
        }
        append(.captured(subscription: subscription, captures: fields))
    }

    mutating func writeUnbound(
        _ subscription: inout SubscriptionProbe, of output: OutputTraceInfo, reason: UnbindReason,
        cause: bind_trace_cause
    ) {
        if subscription.announcedEpoch != epoch {
            writeBound(&subscription, of: output, preexisting: true, scope: 0, cause: bind_trace_cause())
        }
        let id = subscription.recordedID()
        appendInPlace(maximumLength: 52, cause: cause) { base, delta, field in
            RecordEncoder.encodeUnbound(at: base, delta: delta, subscription: id, reason: reason, cause: field)
        }
    }

    /// The cause as the event numbered `own` writes it: events back from it, or none when the
    /// cause is older than the stream. A cause older than a sink that joined later is kept: the
    /// sinks share the stream's bytes, and the older ones resolve it (a reader drops a cause from
    /// before its first event; docs/trace-format.md, "Captures").
    func causeField(_ cause: bind_trace_cause, own: UInt64) -> CauseField {
        let back = causeBack(cause.event, own: own)
        return CauseField(back: back, subscription: back == 0 ? 0 : cause.subscription)
    }

    /// How many events back from `own` its cause `event` is (0: none; see ``causeField(_:own:)``).
    @inline(__always)
    func causeBack(_ event: UInt64, own: UInt64) -> UInt64 {
        event >= streamFirstEvent && event < own ? own - event : 0
    }
}
#endif
