#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// Buffered standard output: one `write` per 64 KB, so dumping millions of events stays fast.
/// A closed pipe stops the output silently.
final class StandardOutput: @unchecked Sendable {
    /// The tool is single-threaded; this is its one output stream.
    static let shared = StandardOutput()

    private var buffer: [UInt8] = []
    private var closed = false

    private init() { buffer.reserveCapacity(1 << 16) }

    func write(_ text: String) {
        guard !closed else { return }
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Writes one line. Control characters from the trace (escape sequences, newlines inside a
    /// label) are shown as `\u{1B}`: a trace must not drive the terminal or split a line.
    func line(_ text: String = "") {
        write(TerminalText.safe(text))
        write("\n")
    }

    func flush() {
        guard !buffer.isEmpty, !closed else { return }
        var offset = 0
        buffer.withUnsafeBytes { raw in
            while offset < raw.count {
                let written = systemWrite(1, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    closed = true  // EPIPE and friends: nobody reads any more
                    return
                }
                offset += written
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// Standard error, one line per call.
enum StandardError {
    static func write(_ line: String) {
        StandardOutput.shared.flush()
        let bytes = Array((line.hasSuffix("\n") ? line : line + "\n").utf8)
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = systemWrite(2, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { return }
                offset += written
            }
        }
    }
}

/// The C library's `write`.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}

/// Text made safe to print on a terminal or in a CI log, one line per call.
enum TerminalText {
    static func safe(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 }) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if (value < 0x20 && value != 0x09) || (0x7F...0x9F).contains(value) {
                result += "\\u{" + String(value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
