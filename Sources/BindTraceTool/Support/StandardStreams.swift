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

    func line(_ text: String = "") {
        write(text)
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
