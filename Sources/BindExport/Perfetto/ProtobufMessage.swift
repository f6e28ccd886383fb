/// A protobuf message being encoded: the wire format (varint, fixed64, length-delimited) of the few
/// fields the Perfetto writer needs, appended in field order.
///
/// Hand-written rather than generated: the export needs a dozen fields of five messages, and
/// swift-protobuf's code generator (a build plugin) adds minutes to every clean build of the package
/// for them. docs/export.md lists the fields and where their numbers come from.
struct ProtobufMessage {
    private(set) var bytes: [UInt8] = []

    /// Wire types (protobuf encoding spec, "Message Structure").
    private enum WireType: UInt64 {
        case varint = 0
        case fixed64 = 1
        case lengthDelimited = 2
    }

    private mutating func key(_ field: UInt64, _ type: WireType) {
        appendVarint(field << 3 | type.rawValue)
    }

    private mutating func appendVarint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    /// A `uint64`, `int32` (non-negative), `bool` or enum field.
    mutating func varint(_ field: UInt64, _ value: UInt64) {
        key(field, .varint)
        appendVarint(value)
    }

    /// A `fixed64` field (one element of a `repeated fixed64`, unpacked).
    mutating func fixed64(_ field: UInt64, _ value: UInt64) {
        key(field, .fixed64)
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    /// A `string` field, as its UTF-8 bytes.
    mutating func string(_ field: UInt64, _ value: String) {
        key(field, .lengthDelimited)
        appendVarint(UInt64(value.utf8.count))
        bytes.append(contentsOf: value.utf8)
    }

    /// An embedded message field.
    mutating func message(_ field: UInt64, _ message: ProtobufMessage) {
        key(field, .lengthDelimited)
        appendVarint(UInt64(message.bytes.count))
        bytes.append(contentsOf: message.bytes)
    }
}
