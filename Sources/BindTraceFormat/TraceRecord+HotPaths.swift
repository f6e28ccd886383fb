/// The recorder's hot events encoded in place, byte for byte what `TraceRecord.encode(at:)` writes
/// for the same event: the generic path builds an `EventRecord` of up to eight fields and switches
/// on it twice, which costs a traced bind + unbind more than the rest of its recording.
/// `@usableFromInline`, so the recorder (another module) inlines them: an `@inlinable` member of a
/// type that is not stays a call.
@usableFromInline
package enum RecordEncoder {
    /// An update (or fire) without a preview, written at `base` in one pass: the recorder's hot path.
    /// Writes exactly the bytes the general encoder writes for
    /// `.event(delta:, .update(output:, cause:, preview: nil))`; returns how many (at most 42).
    @inlinable
    package static func encodeUpdate(
        at base: UnsafeMutablePointer<UInt8>, fire: Bool, delta: UInt64, output: UInt64, causeBack: UInt64,
        causeSubscription: UInt64
    ) -> Int {
        base[0] = fire ? 15 : 14  // TraceFormat.Tag.fire, .update
        // Each field is at most 10 bytes, so the payload is under 128 and its length is one byte.
        var count = 2
        count = writeVarint(delta, at: base, count)
        count = writeVarint(output, at: base, count)
        count = writeVarint(causeBack, at: base, count)
        if causeBack != 0 { count = writeVarint(causeSubscription, at: base, count) }
        base[count] = 0  // no preview
        count &+= 1
        base[1] = UInt8(truncatingIfNeeded: count &- 2)
        return count
    }

    /// Encodes `.event(delta, .bound(…))` of a closure's or operator's subscription (no Binder
    /// target) at `base`; returns the bytes written (at most 92).
    @inlinable
    package static func encodeBound(
        at base: UnsafeMutablePointer<UInt8>, delta: UInt64, subscription: UInt64, output: UInt64, file: UInt64,
        line: UInt64, flags: UInt64, scope: UInt64, cause: CauseField
    ) -> Int {
        base[0] = TraceFormat.Tag.bound.rawValue
        // Nine fields of at most 10 bytes: the payload is under 128 and its length is one byte.
        var count = 2
        count = writeVarint(delta, at: base, count)
        count = writeVarint(subscription, at: base, count)
        count = writeVarint(output, at: base, count)
        count = writeVarint(file, at: base, count)
        count = writeVarint(line, at: base, count)
        count = writeVarint(flags & ~TraceFormat.BindFlag.binder, at: base, count)
        count = writeVarint(scope, at: base, count)
        count = writeVarint(cause.back, at: base, count)
        if cause.back != 0 { count = writeVarint(cause.subscription, at: base, count) }
        base[1] = UInt8(count - 2)
        return count
    }

    /// Encodes `.event(delta, .unbound(…))` at `base`; returns the bytes written (at most 52).
    @inlinable
    package static func encodeUnbound(
        at base: UnsafeMutablePointer<UInt8>, delta: UInt64, subscription: UInt64, reason: UnbindReason,
        cause: CauseField
    ) -> Int {
        base[0] = TraceFormat.Tag.unbound.rawValue
        var count = 2
        count = writeVarint(delta, at: base, count)
        count = writeVarint(subscription, at: base, count)
        count = writeVarint(UInt64(reason.rawValue), at: base, count)
        count = writeVarint(cause.back, at: base, count)
        if cause.back != 0 { count = writeVarint(cause.subscription, at: base, count) }
        base[1] = UInt8(count - 2)
        return count
    }

    /// Always inlined: called once per field, and the optimiser's choice to call it instead varies
    /// from build to build (a traced bind + unbind: 1,924 or 2,031 instructions). Wrapping
    /// arithmetic: a varint is at most 10 bytes, so `start` plus 10 never overflows.
    @inlinable @inline(__always)
    package static func writeVarint(_ value: UInt64, at base: UnsafeMutablePointer<UInt8>, _ start: Int) -> Int {
        var value = value
        var count = start
        while value >= 0x80 {
            base[count] = UInt8(truncatingIfNeeded: value) | 0x80
            count &+= 1
            value &>>= 7
        }
        base[count] = UInt8(truncatingIfNeeded: value)
        return count &+ 1
    }
}
