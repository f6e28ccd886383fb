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
/// live process can hold at once, and no file another process of the same run wrote), writing
/// whole chunks, counting what a failed write lost, and noticing the file deleted, replaced or
/// truncated under it.
///
/// Used under `TraceRecorder`'s write lock, never under its recording lock: all I/O happens here.
struct TraceFile {
    let path: String
    private(set) var descriptor: Int32
    /// Events of chunks whose write failed, not yet told to the file with a `lost` record.
    private(set) var unreportedLost: UInt64 = 0
    /// Every event a failed write lost.
    private(set) var lostEvents: UInt64 = 0
    /// Events of the chunks written whole.
    private(set) var writtenEvents: UInt64 = 0
    /// Bytes of whole chunks written: a failed write is cut back to here, so the file holds whole records.
    private(set) var written: off_t = 0
    /// `path` from the root, to tell whether it still names this file after the process changed directory.
    private let absolutePath: String
    /// Only a regular file can be deleted, replaced or truncated in a way worth telling.
    private let isRegular: Bool

    /// The records that open every file after the header: which process writes it (for the
    /// one-run rule, ``init(pattern:)``).
    static var writerRecord: TraceRecord {
        .writer(process: UInt64(getpid()), group: UInt64(getpgrp()), session: UInt64(max(getsid(0), 0)))
    }

    /// Opens the file `pattern` names for this process: `%p` is the process id, `%h` the host name,
    /// and a directory (existing, or ending in `/`) means `<executable>-<pid>.trace` inside it. A
    /// file another live process is writing is left alone: this process writes `<name>.<pid>.trace`
    /// beside it and says so on standard error.
    ///
    /// - Throws: ``TraceRecordingError`` when the file cannot be created.
    /// A file another process of this run wrote (same process group and session, written since
    /// the group's leader started; docs/trace-format.md, "Where the file goes") is kept as well.
    ///
    /// - Throws: ``TraceRecordingError`` when the file cannot be created.
    init(pattern: String) throws {
        let wanted = Self.expand(pattern)
        var path = wanted
        var descriptor: Int32
        switch try Self.openLocked(wanted, keepingThisRun: true) {
        case .opened(let opened): descriptor = opened
        case .busy:
            path = Self.sibling(of: wanted)
            descriptor = try Self.openSibling(path)
            TraceRecorder.printError("bind-trace: \(wanted) is being written by another process; recording to \(path)")
        case .writtenThisRun(let group):
            path = Self.sibling(of: wanted)
            descriptor = try Self.openSibling(path)
            TraceRecorder.printError(
                "bind-trace: \(wanted) holds the trace of another process of this run (process group \(group)); "
                    + "recording to \(path)")
        }
        try self.init(path: path, descriptor: descriptor)
    }

    /// Opens the file that takes `path`'s place in a flight recording (`BIND_TRACE_LIMIT`): made as
    /// `<path>.new`, and named `path` by ``rotate(_:)`` once its first bytes are in, so `path` always
    /// names a trace that reads on its own.
    init(nextSegmentOf path: String) throws {
        let staging = path + ".new"
        let descriptor = open(staging, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw TraceRecordingError(path: staging, reason: String(cString: strerror(errno)))
        }
        _ = flock(descriptor, LOCK_EX | LOCK_NB)
        try self.init(path: path, descriptor: descriptor)
    }

    /// Where a flight recording keeps the segment before the one at `path`: `run.trace` → `run.previous.trace`.
    static func previousSegment(of path: String) -> String {
        path.hasSuffix(".trace") ? String(path.dropLast(6)) + ".previous.trace" : path + ".previous"
    }

    /// Makes the segment at `path` (finished: its end record written) the previous one, replacing
    /// the one before it (whose events are dropped now), then names the new segment (`<path>.new`)
    /// `path`. Each step is a rename or a link, so both names always hold a whole trace.
    static func rotate(_ path: String) {
        let previous = previousSegment(of: path)
        let linked = previous + ".new"
        unlink(linked)
        if link(path, linked) == 0 { rename(linked, previous) }
        rename(path + ".new", path)
    }

    /// Opens `<name>.<pid>.trace` beside the file at `lostPath`, for a recording that goes on after
    /// that file was lost.
    init(continuing lostPath: String) throws {
        let path = Self.sibling(of: lostPath)
        try self.init(path: path, descriptor: try Self.openSibling(path))
    }

    private init(path: String, descriptor: Int32) throws {
        self.path = path
        self.descriptor = descriptor
        if path.hasPrefix("/") {
            absolutePath = path
        } else {
            var directory = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let cwd = getcwd(&directory, directory.count).map { String(cString: $0) } ?? "."
            absolutePath = cwd + "/" + path
        }
        var status = stat()
        isRegular = fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }

    /// Opens a sibling file (`<name>.<pid>.trace`, this process's own name) whatever it holds.
    private static func openSibling(_ path: String) throws -> Int32 {
        guard case .opened(let descriptor) = try openLocked(path, keepingThisRun: false) else {
            throw TraceRecordingError(path: path, reason: "another process is writing it")
        }
        return descriptor
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

    private enum Opening {
        case opened(Int32)
        /// Another live process holds the file's lock.
        case busy
        /// The file holds a finished trace of another process of this run.
        case writtenThisRun(group: UInt64)
    }

    /// Opens and locks `path`, emptying it only once it is this process's and (`keepingThisRun`)
    /// not another process's of this run.
    private static func openLocked(_ path: String, keepingThisRun: Bool) throws -> Opening {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw TraceRecordingError(path: path, reason: String(cString: strerror(errno)))
        }
        if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let reason = errno
            systemClose(descriptor)
            if reason == EWOULDBLOCK { return .busy }
            throw TraceRecordingError(path: path, reason: String(cString: strerror(reason)))
        }
        // Ours now: whatever an earlier, finished process left here is replaced (a regular file;
        // a device or a pipe has nothing to replace), unless that process was of this run.
        var status = stat()
        let isRegular = fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
        if isRegular && keepingThisRun, let group = writtenThisRun(path, status) {
            systemClose(descriptor)
            return .writtenThisRun(group: group)
        }
        if isRegular && ftruncate(descriptor, 0) != 0 {
            let reason = String(cString: strerror(errno))
            systemClose(descriptor)
            throw TraceRecordingError(path: path, reason: reason)
        }
        return .opened(descriptor)
    }

    /// The process group of the trace in the open file when a process of this run wrote it: its
    /// `writer` record names this process's group and session, and the file was last written after
    /// the group's leader started (a group id reused by a later run is told apart by that).
    private static func writtenThisRun(_ path: String, _ status: stat) -> UInt64? {
        // Read through a descriptor of its own: the one to write with may be write-only.
        let reading = open(path, O_RDONLY | O_CLOEXEC)
        guard reading >= 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: 64)
        let count = pread(reading, &bytes, bytes.count, 0)
        systemClose(reading)
        guard count > TraceFormat.headerSize, Array(bytes[0..<8]) == TraceFormat.magic,
            bytes[TraceFormat.headerSize] == TraceFormat.Tag.writer.rawValue
        else { return nil }
        let fields: (process: UInt64, group: UInt64, session: UInt64)? = bytes.withUnsafeBytes { raw in
            var payload = PayloadDecoder(bytes: raw, start: TraceFormat.headerSize + 1, end: count)
            guard let length = payload.varintIfWhole(), length < 64, let process = payload.varintIfWhole(),
                let group = payload.varintIfWhole(), let session = payload.varintIfWhole()
            else { return nil }
            return (process, group, session)
        }
        // This process's own earlier recording is its to replace.
        guard let fields, fields.process != UInt64(getpid()), fields.group == UInt64(getpgrp()),
            fields.session == UInt64(max(getsid(0), 0))
        else { return nil }
        #if canImport(Darwin)
        let modified = Int(status.st_mtimespec.tv_sec)
        #else
        let modified = Int(status.st_mtim.tv_sec)
        #endif
        if let leaderStart = processStartTime(getpgrp()), modified + 1 < leaderStart { return nil }
        return fields.group
    }

    /// When process `process` started, in seconds since 1970 (Linux's /proc; nil elsewhere or when
    /// it cannot be read).
    private static func processStartTime(_ process: pid_t) -> Int? {
        guard let processStatus = readSmallFile("/proc/\(process)/stat"), let boot = readSmallFile("/proc/stat"),
            let commandEnd = processStatus.lastIndex(of: ")")
        else { return nil }
        // Field 22, start time in clock ticks since boot; fields 3… follow the command's ")".
        let fields = processStatus[processStatus.index(after: commandEnd)...].split(separator: " ")
        guard fields.count > 19, let ticks = Int(fields[19]),
            let bootLine = boot.split(separator: "\n").first(where: { $0.hasPrefix("btime ") }),
            let bootTime = Int(bootLine.dropFirst(6).filter { $0 != " " })
        else { return nil }
        return bootTime + ticks / max(sysconf(Int32(_SC_CLK_TCK)), 1)
    }

    private static func readSmallFile(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { systemClose(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = read(descriptor, &bytes, bytes.count)
        guard count > 0 else { return nil }
        return String(decoding: bytes[0..<count], as: UTF8.self)
    }

    /// How the file was lost under this process, if it was: its last link removed, its path now
    /// naming another file (or none), or shorter than what was written to it. One `fstat` and one
    /// `stat`, at each flush.
    func loss() -> TraceFormat.FileLoss? {
        guard descriptor >= 0, isRegular else { return nil }
        var own = stat()
        guard fstat(descriptor, &own) == 0 else { return nil }
        var named = stat()
        guard stat(absolutePath, &named) == 0 else { return .deleted }
        // A file renamed over it leaves it without links too: the path says which.
        if named.st_dev != own.st_dev || named.st_ino != own.st_ino { return .replaced }
        if own.st_nlink == 0 { return .deleted }
        if own.st_size < written { return .truncated }
        return nil
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
        if writeWhole(bytes) {
            writtenEvents += UInt64(events)
        } else {
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

    /// Writes the end record (after a `lost` record for anything still unreported, and the signal
    /// that ends the process, if one does) and closes.
    mutating func close(signal: Int32? = nil) {
        guard descriptor >= 0 else { return }
        var tail: [UInt8] = []
        if unreportedLost > 0 { TraceRecord.lost(count: unreportedLost).encode(into: &tail) }
        if let signal { TraceRecord.signal(number: UInt64(signal)).encode(into: &tail) }
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
