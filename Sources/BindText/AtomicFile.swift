#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// Why a file or directory could not be written: the path and the system's reason.
package struct FileWriteFailure: Error, Equatable, Sendable {
    package enum Operation: Sendable { case createDirectory, write, replaceDirectory }
    package let operation: Operation
    package let path: String
    package let reason: String
}

/// Writes files and directories so that readers see either the old one or the whole new one, never a
/// part or a mix: the one atomic file writer of the CLI and the reports.
package enum AtomicFile {
    /// Writes `text` to `path`: to a hidden temporary file in the same directory (so the rename cannot
    /// cross file systems), flushed to disk, then renamed over `path`. On failure the temporary file
    /// is removed and `path` is untouched.
    package static func write(_ text: String, to path: String) throws(FileWriteFailure) {
        try write(bytes: Array(text.utf8), to: path)
    }

    /// Writes `bytes` to `path` atomically (see ``write(_:to:)``), except where renaming over `path`
    /// would put a file where a device, a FIFO or a descriptor's link was: a path naming one of the
    /// process's descriptors (`/dev/stdout`, `/dev/fd/N`, `/proc/self/fd/N`) is written to that
    /// descriptor, and any other path under `/dev/` or `/proc/`, or naming neither a regular file nor
    /// a directory, is opened and written through. A reader that left (EPIPE) ends such a write quietly.
    package static func write(bytes: [UInt8], to path: String) throws(FileWriteFailure) {
        if let descriptor = processDescriptor(named: path) {
            guard writeAll(bytes, to: descriptor) || errno == EPIPE else {
                throw FileWriteFailure(operation: .write, path: path, reason: lastError())
            }
            return
        }
        if path.hasPrefix("/dev/") || path.hasPrefix("/proc/") || isSpecialFile(path) {
            return try writeThrough(bytes, to: path)
        }
        let (directory, name) = split(path)
        var temporaryPath = ""
        var descriptor: Int32 = -1
        // O_EXCL with a fresh name: never write through someone else's file or symlink.
        for attempt in 0..<100 {
            temporaryPath = "\(directory).\(name).tmp-\(getpid())-\(attempt)-\(UInt32.random(in: 0...UInt32.max))"
            descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if descriptor >= 0 || errno != EEXIST { break }
        }
        guard descriptor >= 0 else { throw FileWriteFailure(operation: .write, path: path, reason: lastError()) }

        var failure: String?
        if !writeAll(bytes, to: descriptor) { failure = lastError() }
        if failure == nil && fsync(descriptor) != 0 { failure = lastError() }
        if close(descriptor) != 0 && failure == nil { failure = lastError() }
        if failure == nil && rename(temporaryPath, path) != 0 { failure = lastError() }
        if let failure {
            unlink(temporaryPath)
            throw FileWriteFailure(operation: .write, path: path, reason: failure)
        }
    }

    /// Creates `path` and its missing parents, like `mkdir -p`.
    package static func createDirectory(_ path: String) throws(FileWriteFailure) {
        var current = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            current += component + "/"
            if mkdir(current, 0o755) != 0 && errno != EEXIST {
                throw FileWriteFailure(operation: .createDirectory, path: path, reason: lastError())
            }
        }
        guard isDirectory(path) else {
            throw FileWriteFailure(operation: .createDirectory, path: path, reason: "not a directory")
        }
    }

    /// Replaces the directory at `path` as a whole: `fill` writes the new contents into a fresh
    /// directory beside it, which then takes its place. A reader sees the old directory, the new one,
    /// or (for an instant, between two renames) none — never files of two runs.
    ///
    /// An existing directory is replaced only when it holds nothing but `names` (the files `fill`
    /// writes): a directory with other files is refused, never deleted.
    package static func replaceDirectory(
        _ path: String, names: Set<String>, fill: (_ directory: String) throws(FileWriteFailure) -> Void
    ) throws(FileWriteFailure) {
        let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        let (parent, name) = split(trimmed)
        guard !name.isEmpty, name != ".", name != ".." else {
            throw FileWriteFailure(operation: .replaceDirectory, path: path, reason: "name a directory of its own")
        }
        if !parent.isEmpty { try createDirectory(parent) }
        let exists = access(trimmed, F_OK) == 0
        if exists {
            guard isDirectory(trimmed) else {
                throw FileWriteFailure(operation: .replaceDirectory, path: path, reason: "not a directory")
            }
            let others = entries(of: trimmed).filter { !names.contains($0) }
            if let other = others.sorted().first {
                throw FileWriteFailure(
                    operation: .replaceDirectory, path: path,
                    reason: "holds '\(other)', which is not a report file; name an empty or report directory")
            }
        }
        let token = "\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fresh = "\(parent).\(name).new-\(token)"
        guard mkdir(fresh, 0o755) == 0 else {
            throw FileWriteFailure(operation: .replaceDirectory, path: path, reason: lastError())
        }
        do {
            try fill(fresh)
        } catch {
            removeTree(fresh)
            throw error
        }
        if !exists {
            if rename(fresh, trimmed) != 0 {
                let reason = lastError()
                removeTree(fresh)
                throw FileWriteFailure(operation: .replaceDirectory, path: path, reason: reason)
            }
            return
        }
        let old = "\(parent).\(name).old-\(token)"
        guard rename(trimmed, old) == 0 else {
            let reason = lastError()
            removeTree(fresh)
            throw FileWriteFailure(operation: .replaceDirectory, path: path, reason: reason)
        }
        guard rename(fresh, trimmed) == 0 else {
            let reason = lastError()
            _ = rename(old, trimmed)  // put the old report back
            removeTree(fresh)
            throw FileWriteFailure(operation: .replaceDirectory, path: path, reason: reason)
        }
        removeTree(old)
    }

    /// The directory part (ending in `/`, or empty) and the last component of `path`.
    static func split(_ path: String) -> (directory: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return ("", path) }
        return (String(path[...slash]), String(path[path.index(after: slash)...]))
    }

    /// Whether `path` (its link followed) exists and is neither a regular file nor a directory.
    static func isSpecialFile(_ path: String) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0 else { return false }
        let kind = status.st_mode & S_IFMT
        return kind != S_IFREG && kind != S_IFDIR
    }

    /// The descriptor a path names, for the paths that mean "this process's descriptor N".
    static func processDescriptor(named path: String) -> Int32? {
        switch path {
        case "/dev/stdout": return 1
        case "/dev/stderr": return 2
        default:
            for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
                return Int32(path.dropFirst(prefix.count))
            }
            return nil
        }
    }

    private static func writeThrough(_ bytes: [UInt8], to path: String) throws(FileWriteFailure) {
        // A device or FIFO as it is; a file (under /dev/shm, say) as a shell's `>` would.
        let flags = isSpecialFile(path) ? O_WRONLY | O_CLOEXEC : O_WRONLY | O_CLOEXEC | O_CREAT | O_TRUNC
        let descriptor = open(path, flags, 0o644)
        guard descriptor >= 0 else { throw FileWriteFailure(operation: .write, path: path, reason: lastError()) }
        var failure: String?
        if !writeAll(bytes, to: descriptor) && errno != EPIPE { failure = lastError() }
        if close(descriptor) != 0 && failure == nil { failure = lastError() }
        if let failure { throw FileWriteFailure(operation: .write, path: path, reason: failure) }
    }

    private static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }

    private static func entries(of directory: String) -> [String] {
        guard let handle = opendir(directory) else { return [] }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Removes a directory this writer made (flat: report directories hold only files).
    private static func removeTree(_ directory: String) {
        for name in entries(of: directory) { unlink(directory + "/" + name) }
        rmdir(directory)
    }

    static func lastError() -> String { String(cString: strerror(errno)) }
}

/// Writes every byte, retrying short writes and interruptions; `false` on an error (see `errno`).
func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
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
