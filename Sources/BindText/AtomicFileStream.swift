#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// A file written piece by piece and published whole, as ``AtomicFile`` publishes a file written at
/// once: for output too large to hold in memory (an export of a trace of millions of events).
///
/// The pieces go to a hidden temporary file beside `path` (through a 256 KiB buffer); ``commit()``
/// flushes it to disk and renames it over `path`; ``abandon()`` (or dropping an uncommitted stream)
/// removes it and leaves `path` untouched. A path naming a descriptor, a device or a FIFO is written
/// through, as ``AtomicFile`` does.
package final class AtomicFileStream {
    package let path: String
    private var descriptor: Int32
    /// The temporary file, or `nil` when writing through.
    private let temporaryPath: String?
    private let ownsDescriptor: Bool
    private var buffer: [UInt8] = []
    private var finished = false
    /// Bytes handed to ``write(_:)`` so far.
    package private(set) var byteCount = 0
    private static var bufferSize: Int { 256 * 1024 }

    /// Opens the stream.
    ///
    /// - Throws: ``FileWriteFailure`` naming `path` and the system's reason.
    package init(path: String) throws(FileWriteFailure) {
        self.path = path
        buffer.reserveCapacity(Self.bufferSize)
        if let descriptor = AtomicFile.processDescriptor(named: path) {
            self.descriptor = descriptor
            temporaryPath = nil
            ownsDescriptor = false
            return
        }
        if path.hasPrefix("/dev/") || path.hasPrefix("/proc/") || AtomicFile.isSpecialFile(path) {
            let flags =
                AtomicFile.isSpecialFile(path) ? O_WRONLY | O_CLOEXEC : O_WRONLY | O_CLOEXEC | O_CREAT | O_TRUNC
            descriptor = open(path, flags, 0o644)
            guard descriptor >= 0 else {
                throw FileWriteFailure(operation: .write, path: path, reason: AtomicFile.lastError())
            }
            temporaryPath = nil
            ownsDescriptor = true
            return
        }
        let (directory, name) = AtomicFile.split(path)
        var candidate = ""
        var opened: Int32 = -1
        // O_EXCL with a fresh name: never write through someone else's file or symlink.
        for attempt in 0..<100 {
            candidate = "\(directory).\(name).tmp-\(getpid())-\(attempt)-\(UInt32.random(in: 0...UInt32.max))"
            opened = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if opened >= 0 || errno != EEXIST { break }
        }
        guard opened >= 0 else {
            throw FileWriteFailure(operation: .write, path: path, reason: AtomicFile.lastError())
        }
        descriptor = opened
        temporaryPath = candidate
        ownsDescriptor = true
    }

    deinit { if !finished { abandon() } }

    /// Appends `bytes`.
    ///
    /// - Throws: ``FileWriteFailure`` when a full buffer cannot be written; the stream is abandoned.
    package func write(_ bytes: some Collection<UInt8>) throws(FileWriteFailure) {
        byteCount += bytes.count
        buffer.append(contentsOf: bytes)
        if buffer.count >= Self.bufferSize { try flush() }
    }

    /// Appends `text` as UTF-8.
    package func write(_ text: String) throws(FileWriteFailure) {
        try write(text.utf8)
    }

    private func flush() throws(FileWriteFailure) {
        guard !buffer.isEmpty else { return }
        let written = writeAll(buffer, to: descriptor)
        buffer.removeAll(keepingCapacity: true)
        if !written {
            // A reader that left a pipe ends the output quietly, as `AtomicFile` does.
            if temporaryPath == nil && errno == EPIPE { return }
            let reason = AtomicFile.lastError()
            abandon()
            throw FileWriteFailure(operation: .write, path: path, reason: reason)
        }
    }

    /// Writes what is buffered, then publishes the file: flushed to disk and renamed over `path`.
    package func commit() throws(FileWriteFailure) {
        guard !finished else { return }
        try flush()
        finished = true
        var failure: String?
        if let temporaryPath {
            if fsync(descriptor) != 0 { failure = AtomicFile.lastError() }
            if close(descriptor) != 0 && failure == nil { failure = AtomicFile.lastError() }
            if failure == nil && rename(temporaryPath, path) != 0 { failure = AtomicFile.lastError() }
            if failure != nil { unlink(temporaryPath) }
        } else if ownsDescriptor, close(descriptor) != 0 {
            failure = AtomicFile.lastError()
        }
        if let failure { throw FileWriteFailure(operation: .write, path: path, reason: failure) }
    }

    /// Drops what was written: the temporary file is removed and `path` is untouched.
    package func abandon() {
        guard !finished else { return }
        finished = true
        buffer = []
        if ownsDescriptor { close(descriptor) }
        if let temporaryPath { unlink(temporaryPath) }
    }
}
