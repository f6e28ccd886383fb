/// A strict parser for the flat JSON objects `JSONLines` writes: string, number and boolean
/// members on one line. Returns the decoded string values, or nil for anything that is not JSON.
struct JSONLineParser {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The string values of the object, or nil when the line is not exactly one JSON object.
    mutating func object() -> [String]? {
        var strings: [String] = []
        guard take(UInt8(ascii: "{")) else { return nil }
        if take(UInt8(ascii: "}")) { return index == bytes.count ? strings : nil }
        while true {
            guard string() != nil, take(UInt8(ascii: ":")) else { return nil }
            if peek == UInt8(ascii: "\"") {
                guard let value = string() else { return nil }
                strings.append(value)
            } else if !literal("true") && !literal("false") && !number() {
                return nil
            }
            if take(UInt8(ascii: ",")) { continue }
            guard take(UInt8(ascii: "}")) else { return nil }
            return index == bytes.count ? strings : nil
        }
    }

    private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard peek == byte else { return false }
        index += 1
        return true
    }

    private mutating func literal(_ text: String) -> Bool {
        let utf8 = Array(text.utf8)
        guard index + utf8.count <= bytes.count, Array(bytes[index..<index + utf8.count]) == utf8 else { return false }
        index += utf8.count
        return true
    }

    private mutating func number() -> Bool {
        let start = index
        while let byte = peek, byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") { index += 1 }
        return index > start
    }

    private mutating func string() -> String? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        var utf8: [UInt8] = []
        while let byte = peek {
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard let escaped = peek else { return nil }
                index += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escaped)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "u"):
                    guard index + 4 <= bytes.count, let value = hex4(at: index), let scalar = Unicode.Scalar(value)
                    else { return nil }  // JSONLines escapes only BMP scalars: no surrogate pairs
                    index += 4
                    utf8.append(contentsOf: UTF8.encode(scalar)!)
                default: return nil
                }
            default:
                // RFC 8259: control characters must be escaped inside strings.
                guard byte >= 0x20 else { return nil }
                utf8.append(byte)
            }
        }
        return nil
    }

    private func hex4(at start: Int) -> UInt32? {
        var value: UInt32 = 0
        for byte in bytes[start..<start + 4] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }
}
