#if Serve
/// The secret in the URL `serve` prints: without it every request is refused (403), as notebook servers do.
enum ServeToken {
    /// 32 random bytes as 64 hex digits, from the system's secure generator.
    static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in
            let byte = UInt8.random(in: 0...255, using: &generator)
            return String(byte >> 4, radix: 16) + String(byte & 0x0F, radix: 16)
        }.joined()
    }

    /// Compares in time independent of where they differ, so timing tells nothing about the token.
    static func matches(_ given: Substring, _ token: String) -> Bool {
        let given = Array(given.utf8)
        let token = Array(token.utf8)
        guard given.count == token.count else { return false }
        var difference: UInt8 = 0
        for index in token.indices { difference |= given[index] ^ token[index] }
        return difference == 0
    }
}
#endif
