import Foundation

extension StaticString {
    /// A `StaticString` holding `text`, made at run time, or `nil` where the standard library's layout
    /// is not the one expected.
    ///
    /// XCTest's `XCTFail(_:file:line:)` — the only way to fail the running XCTest test from outside an
    /// `XCTestCase` on Linux, where `XCTCurrentTestCase` is internal — takes its file as a
    /// `StaticString`, while a finding's file is found at run time. `StaticString` is `@frozen`: a
    /// pointer, a byte count and flags (bit 0 clear: a pointer; bit 1: ASCII). The text is copied once
    /// per distinct path into memory that is never freed, as a literal's would be, and the result is
    /// read back before use, so a different layout gives `nil` and the caller falls back to its own line.
    static func madeAtRunTime(_ text: String) -> StaticString? {
        guard MemoryLayout<StaticString>.size == MemoryLayout<Layout>.size, !text.utf8.contains(0) else { return nil }
        let start = RunTimeStrings.shared.storage(for: text)
        let layout = Layout(
            start: start, byteCount: UInt(text.utf8.count), flags: text.utf8.allSatisfy { $0 < 0x80 } ? 0b10 : 0)
        let made = unsafeBitCast(layout, to: StaticString.self)
        guard made.hasPointerRepresentation, made.utf8CodeUnitCount == text.utf8.count,
            made.withUTF8Buffer({ String(decoding: $0, as: UTF8.self) }) == text
        else { return nil }
        return made
    }

    /// `StaticString`'s stored properties, in order.
    private struct Layout {
        var start: UInt
        var byteCount: UInt
        var flags: UInt8
    }
}

/// The NUL-terminated copies behind run-time `StaticString`s, one per distinct text, kept for the
/// life of the process.
private final class RunTimeStrings: @unchecked Sendable {
    static let shared = RunTimeStrings()
    private let lock = NSLock()
    private var copies: [String: UInt] = [:]

    /// The address of `text`'s bytes.
    func storage(for text: String) -> UInt {
        lock.withLock {
            if let address = copies[text] { return address }
            let bytes = Array(text.utf8) + [0]
            let copy = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count)
            copy.initialize(from: bytes, count: bytes.count)
            let address = UInt(bitPattern: copy)
            copies[text] = address
            return address
        }
    }
}
