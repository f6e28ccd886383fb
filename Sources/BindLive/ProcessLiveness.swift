#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// Whether the process that writes a trace still runs (its `writer` record names it).
enum ProcessLiveness {
    /// False for a process that is gone, or a zombie (dead, not yet waited for by its parent).
    static func isRunning(_ process: pid_t) -> Bool {
        if kill(process, 0) != 0 && errno == ESRCH { return false }
        #if os(Linux)
        // `kill` succeeds on a zombie: its state in /proc says whether it still runs.
        let descriptor = open("/proc/\(process)/stat", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return true }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 512)
        let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, 512) }
        guard count > 0 else { return true }
        // `pid (comm) S …`: the state follows the last ')' (a command name may hold one).
        guard let paren = bytes[..<count].lastIndex(of: UInt8(ascii: ")")), paren + 2 < count else { return true }
        let state = bytes[paren + 2]
        return state != UInt8(ascii: "Z") && state != UInt8(ascii: "X")
        #else
        return true
        #endif
    }
}
