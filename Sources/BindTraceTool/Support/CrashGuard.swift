import BindText

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// Runs the command in a child process, so that running out of memory or a crash in Graphviz ends
/// with one line on standard error and exit status 2 instead of a signal.
///
/// The parent only waits and relays: it forwards SIGINT, SIGTERM and SIGHUP to the child, passes its
/// exit status through, copies the child's standard error to its own as it comes, and turns death by
/// a signal into `bind-trace: check app.trace: stopped by signal 6 (Aborted): out of memory (…);
/// output is incomplete` — the Swift runtime's crash report (`Fatal error: …`, a stack trace) is
/// held back and summed up in that last line. The child inherits standard input and output.
enum CrashGuard {
    /// Set in the child's environment: the command runs there.
    static let workerVariable = "BIND_TRACE_TOOL_WORKER"
    /// Set in the child's environment when the parent's standard error is a terminal (the child's is
    /// a pipe to the parent), for the progress line.
    static let terminalVariable = "BIND_TRACE_TOOL_STDERR_TTY"

    /// Whether standard error reaches a terminal, directly or through the parent.
    static var standardErrorIsTerminal: Bool {
        isatty(2) == 1 || getenv(terminalVariable) != nil
    }

    /// In the parent: runs the child and returns its status. `nil` in the child (and where the
    /// guard is not available): run the command here.
    static func runGuarded(arguments: [String]) -> Int32? {
        #if os(Linux)
        guard getenv(workerVariable) == nil else { return nil }
        var signals = sigset_t()
        sigemptyset(&signals)
        for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&signals, signal) }
        var previous = sigset_t()
        // Blocked before the child exists, so no SIGTERM can be missed; forwarded below.
        guard sigprocmask(SIG_BLOCK, &signals, &previous) == 0 else { return nil }
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else {
            sigprocmask(SIG_SETMASK, &previous, nil)
            return nil
        }
        for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        guard let child = spawn(arguments: arguments, standardError: pipeEnds[1]) else {
            close(pipeEnds[0])
            close(pipeEnds[1])
            sigprocmask(SIG_SETMASK, &previous, nil)
            return nil  // cannot start a child: run unguarded rather than not at all
        }
        close(pipeEnds[1])
        var relay = ErrorRelay()
        relayUntilClosed(pipeEnds[0], relay: &relay, child: child, signals: signals)
        close(pipeEnds[0])
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 {
            guard errno == EINTR else { return 2 }
        }
        return exitStatus(status, arguments: arguments, relay: relay)
        #else
        return nil
        #endif
    }

    #if os(Linux)
    /// Copies the child's standard error until the child closes it (it exits), forwarding
    /// interruptions meanwhile.
    private static func relayUntilClosed(_ descriptor: Int32, relay: inout ErrorRelay, child: pid_t, signals: sigset_t)
    {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var pending = signals
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while true {
            var zero = timespec(tv_sec: 0, tv_nsec: 0)
            while true {
                let received = sigtimedwait(&pending, nil, &zero)
                if received <= 0 { break }
                kill(child, received)
            }
            let ready = poll(&poller, 1, 100)
            if ready < 0 && errno != EINTR { return }
            guard ready > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 {
                relay.finish()
                return
            }
            relay.add(buffer[0..<count])
        }
    }

    private static func spawn(arguments: [String], standardError: Int32) -> pid_t? {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The worker starts as a fresh process would: no signal blocked (whatever mask bind-trace
        // itself was started with), the default action for every signal it is sent.
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS, SIGILL, SIGABRT, SIGTRAP, SIGFPE] {
            sigaddset(&defaults, signal)
        }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, standardError, 2)

        var environment = environmentStrings().filter {
            !$0.hasPrefix("SWIFT_BACKTRACE=") && !$0.hasPrefix(terminalVariable + "=")
        }
        environment += ["\(workerVariable)=1", "SWIFT_BACKTRACE=enable=no"]
        if isatty(2) == 1 { environment.append("\(terminalVariable)=1") }
        let argv = ["bind-trace"] + arguments
        var child: pid_t = 0
        let result = withCStrings(argv) { argv in
            withCStrings(environment) { envp in
                posix_spawn(&child, "/proc/self/exe", &actions, &attributes, argv, envp)
            }
        }
        return result == 0 ? child : nil
    }

    private static func environmentStrings() -> [String] {
        var result: [String] = []
        var entry = environ
        while let pointer = entry.pointee {
            result.append(String(cString: pointer))
            entry += 1
        }
        return result
    }

    private static func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
        let pointers = strings.map { strdup($0) } + [nil]
        defer { pointers.forEach { free($0) } }
        return body(pointers)
    }
    #endif

    /// The child's status as the tool's: its exit status, or 2 with one line when a signal killed it.
    private static func exitStatus(_ status: Int32, arguments: [String], relay: ErrorRelay) -> Int32 {
        let signal = status & 0x7F
        if signal == 0 {
            relay.flushHeldBack()  // never lose what the child said, even if it looked like a crash
            return (status >> 8) & 0xFF
        }
        // Forwarded interruptions end the parent the same way, as a shell expects.
        if [SIGINT, SIGTERM, SIGHUP, SIGPIPE].contains(signal) { return 128 + signal }
        let name = String(cString: strsignal(signal))
        let subject = arguments.filter { !$0.hasPrefix("-") }.prefix(3).joined(separator: " ")
        var cause = "out of memory, or a crash in Graphviz or bind-trace"
        if let fatal = relay.fatalError {
            cause = fatal.contains("failed to allocate") ? "out of memory (\(fatal))" : fatal
        }
        StandardError.write(
            "bind-trace: \(subject): stopped by signal \(signal) (\(name)): \(cause); output is incomplete")
        return 2
    }
}

/// Copies the child's standard error to the parent's as it comes, line starts checked: from a line
/// that starts the Swift runtime's crash report on, the text is held back.
struct ErrorRelay {
    private static let crashMarkers = ["Fatal error:", "Current stack trace:", "💣"].map { Array($0.utf8) }
    private var line: [UInt8] = []
    /// Whether `line` has been passed on already (it is not the start of a crash report).
    private var lineDecided = false
    private var heldBack: [UInt8] = []
    private var holding = false

    /// The runtime's one-line reason, without `Fatal error: `, when it printed one.
    var fatalError: String? {
        let text = String(decoding: heldBack, as: UTF8.self)
        guard let first = text.split(separator: "\n").first, first.hasPrefix("Fatal error:") else { return nil }
        return String(first.dropFirst("Fatal error:".count).drop { $0 == " " })
    }

    mutating func add(_ bytes: ArraySlice<UInt8>) {
        for byte in bytes {
            if holding {
                heldBack.append(byte)
                continue
            }
            line.append(byte)
            if !lineDecided { decide() }
            if lineDecided && !holding {
                // Pass on what is decided at once: progress lines never end in a newline.
                write(line)
                line.removeAll(keepingCapacity: true)
            }
            if byte == UInt8(ascii: "\n") { lineDecided = false }
        }
    }

    /// The child closed its standard error: pass on a last undecided line.
    mutating func finish() {
        if !holding && !line.isEmpty { write(line) }
        line.removeAll()
    }

    /// Passes on what was held back (the child exited normally after all).
    func flushHeldBack() {
        if !heldBack.isEmpty { write(heldBack) }
    }

    /// Decides whether the current line may start a crash report, once enough of it is known.
    private mutating func decide() {
        let couldBeCrash = Self.crashMarkers.contains { marker in
            let common = min(marker.count, line.count)
            return marker.prefix(common).elementsEqual(line.prefix(common))
        }
        if !couldBeCrash {
            lineDecided = true
        } else if Self.crashMarkers.contains(where: { line.starts(with: $0) }) {
            holding = true
            heldBack = line
            line.removeAll()
            lineDecided = true
        }
    }

    private func write(_ bytes: [UInt8]) { writeToStandardError(bytes) }
}

/// Writes every byte to standard error, retrying interruptions; stops quietly when it is closed.
private func writeToStandardError(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { raw in
        var offset = 0
        while offset < raw.count {
            let written = write(2, raw.baseAddress! + offset, raw.count - offset)
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return }
            offset += written
        }
    }
}
