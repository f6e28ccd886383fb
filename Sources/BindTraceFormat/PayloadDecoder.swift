/// Why a record's payload could not be decoded.
// `@usableFromInline` here and on ``PayloadDecoder``: the optimiser inlines a `package` type's
// `@inlinable` members into another module only when the type is `@usableFromInline` (or public),
// and the reader decodes every record through these. (The shared `package` types, `TraceRecord`,
// `EventRecord` and `CauseField`, are left as they are: the recorder inlines through them too.)
@usableFromInline
package struct RecordDecodingError: Error, Equatable, Sendable {
    package var reason: String

    package init(_ reason: String) { self.reason = reason }
}

/// Reads the fields of one record's payload, never past its end.
@usableFromInline
package struct PayloadDecoder {
    @usableFromInline let bytes: UnsafeRawBufferPointer
    @usableFromInline var cursor: Int
    @usableFromInline let end: Int

    /// The payload is `bytes[start..<end]`.
    @inlinable
    package init(bytes: UnsafeRawBufferPointer, start: Int, end: Int) {
        self.bytes = bytes
        self.cursor = start
        self.end = end
    }

    @inlinable @inline(__always)
    package mutating func varint() throws(RecordDecodingError) -> UInt64 {
        if let value = shortVarint() { return value }
        return try longVarint()
    }

    /// A varint of one to three bytes, which most numbers are (ids of a short trace, flags and
    /// causes take one, tick deltas two, ids of a long trace three); `nil`, cursor unmoved, for any
    /// other varint or one cut by the payload's end.
    @inlinable @inline(__always)
    mutating func shortVarint() -> UInt64? {
        guard cursor < end else { return nil }
        let first = bytes[cursor]
        if first < 0x80 {
            cursor += 1
            return UInt64(first)
        }
        guard cursor + 1 < end else { return nil }
        let second = bytes[cursor + 1]
        if second < 0x80 {
            cursor += 2
            return UInt64(first & 0x7F) | UInt64(second) << 7
        }
        guard cursor + 2 < end else { return nil }
        let third = bytes[cursor + 2]
        guard third < 0x80 else { return nil }
        cursor += 3
        return UInt64(first & 0x7F) | UInt64(second & 0x7F) << 7 | UInt64(third) << 14
    }

    @usableFromInline @inline(never)
    mutating func longVarint() throws(RecordDecodingError) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard cursor < end else { throw RecordDecodingError("record ends inside a field") }
            let byte = bytes[cursor]
            cursor += 1
            if shift == 63 && byte > 1 { throw RecordDecodingError("number does not fit in 64 bits") }
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
            guard shift <= 63 else { throw RecordDecodingError("number does not fit in 64 bits") }
        }
    }

    mutating func outputKind() throws(RecordDecodingError) -> OutputKind {
        let raw = try varint()
        guard raw <= UInt64(UInt8.max), let kind = OutputKind(rawValue: UInt8(raw)) else {
            throw RecordDecodingError("unknown output kind \(raw)")
        }
        return kind
    }

    /// An update or fire record's fields when it has no preview, in plain numbers and without
    /// throwing, so that the reader inlines it; `nil`, the decoder as it was, when it has a preview
    /// or is malformed (``updateFieldsChecked()`` and the general decoder then say which).
    @inlinable @inline(__always)
    package mutating func updateFields()
        -> (delta: UInt64, output: UInt64, causeBack: UInt64, causeSubscription: UInt64)?
    {
        let start = cursor
        if let delta = varintIfWhole(), let output = varintIfWhole(), let causeBack = varintIfWhole() {
            let causeSubscription = causeBack != 0 ? varintIfWhole() : 0
            if let causeSubscription, varintIfWhole() == 0 {
                return (delta, output, causeBack, causeSubscription)
            }
        }
        cursor = start
        return nil
    }

    /// ``updateFields()`` with the errors of the general decoder: `nil` when the record has a
    /// preview, an error when it is malformed.
    @usableFromInline
    package mutating func updateFieldsChecked()
        throws(RecordDecodingError) -> (delta: UInt64, output: UInt64, causeBack: UInt64, causeSubscription: UInt64)?
    {
        var fields = self
        let delta = try fields.varint()
        let output = try fields.varint()
        let causeBack = try fields.varint()
        let causeSubscription = causeBack != 0 ? try fields.varint() : 0
        guard try fields.varint() == 0 else { return nil }
        self = fields
        return (delta, output, causeBack, causeSubscription)
    }

    /// ``cause()`` without throwing: `nil` at the payload's end or past 64 bits.
    @inlinable @inline(__always)
    package mutating func causeIfWhole() -> CauseField? {
        guard let back = varintIfWhole() else { return nil }
        guard back != 0 else { return CauseField(back: 0, subscription: 0) }
        guard let subscription = varintIfWhole() else { return nil }
        return CauseField(back: back, subscription: subscription)
    }

    /// ``varint()`` without throwing: `nil` at the payload's end or past 64 bits.
    @inlinable @inline(__always)
    package mutating func varintIfWhole() -> UInt64? {
        if let value = shortVarint() { return value }
        return try? longVarint()
    }

    @inline(__always)
    mutating func cause() throws(RecordDecodingError) -> CauseField {
        let back = try varint()
        guard back != 0 else { return .none }
        return CauseField(back: back, subscription: try varint())
    }

    /// The rest of the payload.
    @inlinable
    package mutating func remainingBytes() -> [UInt8] {
        defer { cursor = end }
        return Array(bytes[cursor..<end])
    }
}
