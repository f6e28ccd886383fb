import BindTraceFormat

#if Tracing
import CBindTrace
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// The struct's own `write` and `close` hide the system calls' names inside it.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}

private func systemClose(_ descriptor: Int32) { close(descriptor) }

/// The trace file's life: where it goes (the `BIND_TRACE` pattern), owning it (a lock no other
/// live process can hold at once), writing whole chunks, and counting what a failed write lost.
///
/// Used under `TraceRecorder`'s write lock, never under its recording lock: all I/O happens here.
struct TraceFile {
    let path: String
    private(set) var descriptor: Int32
    /// Events of chunks whose write failed, not yet told to the file with a `lost` record.
    private var unreportedLost: UInt64 = 0
    /// Every event a failed write lost.
    private(set) var lostEvents: UInt64 = 0
    /// Bytes of whole chunks written: a failed write is cut back to here, so the file holds whole records.
    private var written: off_t = 0

    /// Opens the file `pattern` names for this process: `%p` is the process id, `%h` the host name,
    /// and a directory (existing, or ending in `/`) means `<executable>-<pid>.trace` inside it. A
    /// file another live process is writing is left alone: this process writes `<name>.<pid>.trace`
    /// beside it and says so on standard error.
    ///
    /// - Throws: ``TraceRecordingError`` when the file cannot be created.
    init(pattern: String) throws {
        let wanted = Self.expand(pattern)
        var descriptor = try Self.openLocked(wanted)
        var path = wanted
        if descriptor < 0 {
            path = Self.sibling(of: wanted)
            descriptor = try Self.openLocked(path)
            guard descriptor >= 0 else {
                throw TraceRecordingError(path: path, reason: "another process is writing it")
            }
            TraceRecorder.printError("bind-trace: \(wanted) is being written by another process; recording to \(path)")
        }
        self.path = path
        self.descriptor = descriptor
    }

    /// `pattern` with `%p`, `%h` and `%%` replaced, and a directory turned into a file inside it.
    static func expand(_ pattern: String) -> String {
        var result = ""
        var escaped = false
        for character in pattern {
            if escaped {
                switch character {
                case "p": result += String(getpid())
                case "h": result += hostName()
                case "%": result += "%"
                default: result += "%" + String(character)
                }
                escaped = false
            } else if character == "%" {
                escaped = true
            } else {
                result.append(character)
            }
        }
        if escaped { result += "%" }
        var status = stat()
        if result.hasSuffix("/") || (stat(result, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR) {
            if result.hasSuffix("/") { mkdir(result, 0o755) }
            let directory = result.hasSuffix("/") ? result : result + "/"
            return directory + "\(executableName())-\(getpid()).trace"
        }
        return result
    }

    /// `<name>.<pid>.trace` beside `path` (its `.trace` extension, if any, moved to the end).
    static func sibling(of path: String) -> String {
        let stem = path.hasSuffix(".trace") ? String(path.dropLast(6)) : path
        return "\(stem).\(getpid()).trace"
    }

    /// Opens and locks `path`, emptying it only once it is this process's; -1 when another process holds it.
    private static func openLocked(_ path: String) throws -> Int32 {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw TraceRecordingError(path: path, reason: String(cString: strerror(errno)))
        }
        if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let reason = errno
            systemClose(descriptor)
            if reason == EWOULDBLOCK { return -1 }
            throw TraceRecordingError(path: path, reason: String(cString: strerror(reason)))
        }
        // Ours now: whatever an earlier, finished process left here is replaced (a regular file;
        // a device or a pipe has nothing to replace).
        var status = stat()
        let isRegular = fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
        if isRegular && ftruncate(descriptor, 0) != 0 {
            let reason = String(cString: strerror(errno))
            systemClose(descriptor)
            throw TraceRecordingError(path: path, reason: reason)
        }
        return descriptor
    }

    /// Writes a chunk holding `events` events. A failed write is counted, and the next write that
    /// succeeds begins with a `lost` record saying how many events are missing before it.
    mutating func write(_ bytes: UnsafeRawBufferPointer, events: Int) {
        guard descriptor >= 0 else { return }
        if unreportedLost > 0 {
            var record: [UInt8] = []
            TraceRecord.lost(count: unreportedLost).encode(into: &record)
            if record.withUnsafeBytes({ writeWhole($0) }) { unreportedLost = 0 }
        }
        if !writeWhole(bytes) {
            if lostEvents == 0 {
                TraceRecorder.printError(
                    "bind-trace: \(path): writing the trace failed: \(String(cString: strerror(errno)))"
                        + "; the events that could not be written are counted in the trace")
            }
            lostEvents += UInt64(events)
            unreportedLost += UInt64(events)
        }
    }

    /// Writes all of `bytes`, or nothing: a write that fails partway is cut back off the file.
    private mutating func writeWhole(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if Self.writeAll(descriptor, bytes) {
            written += off_t(bytes.count)
            return true
        }
        let reason = errno
        _ = ftruncate(descriptor, written)
        _ = lseek(descriptor, written, SEEK_SET)
        errno = reason
        return false
    }

    /// Writes all of `bytes`; false when the system refused.
    static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var offset = 0
        while offset < bytes.count {
            let written = systemWrite(descriptor, base + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }

    /// Writes the end record (after a `lost` record for anything still unreported) and closes.
    mutating func close() {
        guard descriptor >= 0 else { return }
        var tail: [UInt8] = []
        if unreportedLost > 0 { TraceRecord.lost(count: unreportedLost).encode(into: &tail) }
        TraceRecord.end.encode(into: &tail)
        _ = tail.withUnsafeBytes { writeWhole($0) }
        systemClose(descriptor)
        descriptor = -1
    }

    /// Forgets the descriptor without writing (a forked child's copy of its parent's file).
    mutating func abandon() {
        if descriptor >= 0 { systemClose(descriptor) }
        descriptor = -1
    }

    private static func hostName() -> String {
        var name = [CChar](repeating: 0, count: 256)
        guard gethostname(&name, name.count - 1) == 0 else { return "host" }
        return String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func executableName() -> String {
        let first = CommandLine.arguments.first ?? "process"
        let name = first.split(separator: "/").last.map(String.init) ?? first
        return name.isEmpty ? "process" : name
    }
}
#endif
