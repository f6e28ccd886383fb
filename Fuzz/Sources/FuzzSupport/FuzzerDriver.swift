import CFuzzerDriver

#if canImport(Glibc)
import Glibc
#endif

/// The body of the running fuzz target: set once by ``runFuzzer(_:)`` before libFuzzer starts.
nonisolated(unsafe) private var fuzzBody: ([UInt8]) -> Void = { _ in }

/// Hands control to libFuzzer, which calls `body` with each input; never returns.
///
/// `body` must return for every input (throwing APIs are called with `try?`) and checks invariants
/// with ``require(_:_:)``, which aborts the process so libFuzzer saves the input as a crash.
public func runFuzzer(_ body: @escaping ([UInt8]) -> Void) -> Never {
    fuzzBody = body
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    let status = LLVMFuzzerRunDriver(&argc, &argv) { data, size in
        fuzzBody(size == 0 ? [] : Array(UnsafeBufferPointer(start: data!, count: size)))
        return 0
    }
    exit(status)
}

/// Whether to check the invariants of findings reported but not fixed yet (`FUZZ_CHECK_KNOWN=1`).
///
/// Off by default, so a fuzzing run looks for new problems instead of finding a known one again at
/// once; `Fuzz/run.sh` turns it on when it replays Fuzz/regressions, to say which are fixed.
public let checksKnownFindings = getenv("FUZZ_CHECK_KNOWN").map { String(cString: $0) == "1" } ?? false

/// Aborts with `message` when `condition` is false: a broken invariant is a finding.
@inline(__always)
public func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition {
        let line = Array(("invariant broken: " + message() + "\n").utf8)
        line.withUnsafeBytes { _ = write(2, $0.baseAddress, $0.count) }
        abort()
    }
}
