import BindText

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// Buffered standard output: one `write` per 64 KB, so dumping millions of events stays fast.
/// A closed pipe stops the output silently; any other write error stops it too and is kept in
/// ``failure``, so the tool can say its output is incomplete.
final class StandardOutput: @unchecked Sendable {
    /// The tool is single-threaded; this is its one output stream.
    static let shared = StandardOutput()

    private var buffer: [UInt8] = []
    private var closed = false
    /// Why writing failed (a full disk, an I/O error), if it did: not a closed pipe.
    private(set) var failure: String?

    private init() { buffer.reserveCapacity(1 << 16) }

    func write(_ text: String) {
        guard !closed else { return }
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Writes one line through ``Escape/terminal(_:spelling:)``: control characters, escape sequences, bidirectional
    /// overrides and newlines from the trace show as `\u{1B}`, and a line that starts like a CI command
    /// (`::error::`) is defused. A trace must not drive the terminal, split a line or talk to CI.
    func line(_ text: String = "") {
        write(Escape.terminal(text))
        write("\n")
    }

    /// Writes one line of JSON: the same escaper, spelling what it escapes as JSON `\u001b`.
    func jsonLine(_ text: String) {
        write(Escape.terminal(text, spelling: .json))
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
                    if errno == EAGAIN || errno == EWOULDBLOCK {
                        // A non-blocking descriptor (some CI runners hand one down): wait until it drains.
                        var ready = pollfd(fd: 1, events: Int16(POLLOUT), revents: 0)
                        _ = poll(&ready, 1, -1)
                        continue
                    }
                    // EPIPE: nobody reads any more, as `| head` intends. Anything else loses output.
                    if errno != EPIPE { failure = String(cString: strerror(errno)) }
                    closed = true
                    return
                }
                offset += written
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// Standard error, one line per call, escaped by the same ``Escape/terminal(_:spelling:)`` as standard output.
enum StandardError {
    /// Writes `line` as exactly one line: whatever came from the trace cannot start another.
    static func write(_ line: String) {
        writeRaw(Escape.terminal(line.hasSuffix("\n") ? String(line.dropLast()) : line) + "\n")
    }

    /// Writes the argument parser's own messages (usage, help), which span several lines: each line
    /// is escaped on its own.
    static func writeLines(_ text: String) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { Escape.terminal(String($0)) }
        writeRaw(lines.joined(separator: "\n") + (text.hasSuffix("\n") ? "" : "\n"))
    }

    /// Writes `text` as it is (progress lines with their carriage return).
    static func writeRaw(_ text: String) {
        StandardOutput.shared.flush()
        let bytes = Array(text.utf8)
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
