#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// Writes a file so that readers see either the old file or the whole new one, never a part.
///
/// The bytes go to a hidden temporary file in the same directory (so the rename cannot cross file
/// systems), are flushed to disk, then renamed over the destination. On any failure the temporary
/// file is removed.
enum AtomicFile {
    static func write(_ text: String, to path: String) throws(ReportWriteError) {
        let directory = path.lastIndex(of: "/").map { String(path[...$0]) } ?? ""
        let name = path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
        var temporaryPath = ""
        var descriptor: Int32 = -1
        // O_EXCL with a fresh name: never write through someone else's file or symlink.
        for attempt in 0..<100 {
            temporaryPath = "\(directory).\(name).tmp-\(getpid())-\(attempt)-\(UInt32.random(in: 0...UInt32.max))"
            descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if descriptor >= 0 || errno != EEXIST { break }
        }
        guard descriptor >= 0 else { throw .cannotWrite(path: path, reason: lastError()) }

        var failure: String?
        if !writeAll(Array(text.utf8), to: descriptor) { failure = lastError() }
        if failure == nil && fsync(descriptor) != 0 { failure = lastError() }
        if close(descriptor) != 0 && failure == nil { failure = lastError() }
        if failure == nil && rename(temporaryPath, path) != 0 { failure = lastError() }
        if let failure {
            unlink(temporaryPath)
            throw .cannotWrite(path: path, reason: failure)
        }
    }

    /// Creates `path` and its missing parents, like `mkdir -p`.
    static func createDirectory(_ path: String) throws(ReportWriteError) {
        var current = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            current += component + "/"
            if mkdir(current, 0o755) != 0 && errno != EEXIST {
                throw .cannotCreateDirectory(path: path, reason: lastError())
            }
        }
        var status = stat()
        guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR else {
            throw .cannotCreateDirectory(path: path, reason: "not a directory")
        }
    }

    private static func lastError() -> String { String(cString: strerror(errno)) }
}

/// Why a report could not be written.
public enum ReportWriteError: Error, Equatable, Sendable, CustomStringConvertible {
    case cannotCreateDirectory(path: String, reason: String)
    case cannotWrite(path: String, reason: String)

    public var description: String {
        switch self {
        case .cannotCreateDirectory(let path, let reason): "\(path): cannot create the report directory: \(reason)"
        case .cannotWrite(let path, let reason): "\(path): cannot write: \(reason)"
        }
    }
}

/// Writes every byte, retrying short writes and interruptions; `false` on an error (see `errno`).
private func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
    bytes.withUnsafeBytes { buffer in
        var written = 0
        while written < buffer.count {
            let result = write(descriptor, buffer.baseAddress! + written, buffer.count - written)
            if result < 0 {
                if errno == EINTR { continue }
                return false
            }
            written += result
        }
        return true
    }
}
