import BindOutput

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
/// The parent only waits: it forwards SIGINT, SIGTERM and SIGHUP to the child, passes its exit
/// status through, and turns death by a signal into `bind-trace: check app.trace: stopped by signal
/// 11 (…); output is incomplete`. The child inherits standard input, output and error, and runs
/// with Swift's crash backtracer off so that standard error stays short.
enum CrashGuard {
    /// Set in the child's environment: the command runs there.
    static let workerVariable = "BIND_TRACE_TOOL_WORKER"

    /// In the parent: runs the child and returns its status. `nil` in the child (and where the
    /// guard is not available): run the command here.
    static func runGuarded(arguments: [String]) -> Int32? {
        #if os(Linux)
            guard getenv(workerVariable) == nil else { return nil }
            var signals = sigset_t()
            sigemptyset(&signals)
            for signal in [SIGCHLD, SIGINT, SIGTERM, SIGHUP] { sigaddset(&signals, signal) }
            var previous = sigset_t()
            // Blocked before the child exists, so no SIGCHLD or SIGTERM can be missed; waited for below.
            guard sigprocmask(SIG_BLOCK, &signals, &previous) == 0 else { return nil }
            guard let child = spawn(arguments: arguments, signalMask: previous) else {
                sigprocmask(SIG_SETMASK, &previous, nil)
                return nil  // cannot start a child: run unguarded rather than not at all
            }
            while true {
                var status: Int32 = 0
                let waited = waitpid(child, &status, WNOHANG)
                if waited == child { return exitStatus(status, arguments: arguments) }
                if waited < 0 && errno != EINTR { return 2 }
                var received: Int32 = 0
                if sigwait(&signals, &received) == 0, received != SIGCHLD { kill(child, received) }
            }
        #else
            return nil
        #endif
    }

    #if os(Linux)
        private static func spawn(arguments: [String], signalMask: sigset_t) -> pid_t? {
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            var mask = signalMask
            posix_spawnattr_setsigmask(&attributes, &mask)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))

            var environment = environmentStrings().filter { !$0.hasPrefix("SWIFT_BACKTRACE=") }
            environment += ["\(workerVariable)=1", "SWIFT_BACKTRACE=enable=no"]
            let argv = ["bind-trace"] + arguments
            var child: pid_t = 0
            let result = withCStrings(argv) { argv in
                withCStrings(environment) { envp in
                    posix_spawn(&child, "/proc/self/exe", nil, &attributes, argv, envp)
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
    private static func exitStatus(_ status: Int32, arguments: [String]) -> Int32 {
        let signal = status & 0x7F
        if signal == 0 { return (status >> 8) & 0xFF }
        // Forwarded interruptions end the parent the same way, as a shell expects.
        if [SIGINT, SIGTERM, SIGHUP, SIGPIPE].contains(signal) { return 128 + signal }
        let name = String(cString: strsignal(signal))
        let subject = arguments.filter { !$0.hasPrefix("-") }.prefix(3).joined(separator: " ")
        StandardError.write(
            "bind-trace: \(subject): stopped by signal \(signal) (\(name)): out of memory, or a crash in "
                + "Graphviz or bind-trace; output is incomplete")
        return 2
    }
}
