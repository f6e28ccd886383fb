import BindText

/// Standard Base64 (RFC 4648, with padding), for CSP hashes and the graph's `data:` URL.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= bytes.count {
            let chunk = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            for shift in [18, 12, 6, 0] { output.append(alphabet[Int((chunk >> UInt32(shift)) & 63)]) }
            index += 3
        }
        let remaining = bytes.count - index
        if remaining > 0 {
            let chunk = UInt32(bytes[index]) << 16 | (remaining == 2 ? UInt32(bytes[index + 1]) << 8 : 0)
            output.append(alphabet[Int((chunk >> 18) & 63)])
            output.append(alphabet[Int((chunk >> 12) & 63)])
            output.append(remaining == 2 ? alphabet[Int((chunk >> 6) & 63)] : UInt8(ascii: "="))
            output.append(UInt8(ascii: "="))
        }
        return String(decoding: output, as: UTF8.self)
    }
}

extension SHA256 {
    /// The CSP source expression for an inline element whose content is `text`: `'sha256-…'`.
    static func cspSource(for text: String) -> String {
        "'sha256-\(Base64.encode(hash(Array(text.utf8))))'"
    }
}
