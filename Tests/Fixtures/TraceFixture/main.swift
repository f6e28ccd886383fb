// A program the trace tests run with BIND_TRACE=/path, then read what reached the file.
//
//     TraceFixture N          N updates, waits past a flush, prints "flushed N", updates until killed
//                             (or for a minute at most, or until its parent is gone)
//     TraceFixture N exit     the same, then exits normally
//     TraceFixture N crash    N updates in a burst; the closure bound to the N-th calls fatalError
//     TraceFixture N crash-threads
//                             3 threads make N updates each (Outputs labelled "worker"), then the
//                             main thread calls fatalError at once: their updates are still in
//                             the threads' rings, for the crash flush to merge
//     TraceFixture N full     the file may hold only 16 KiB: N updates, a flush that fails, then
//                             room again and N more updates before exiting
//     TraceFixture N fork     N updates, then fork(): the child makes N updates labelled "child" and
//                             exits; the parent waits for it, makes N more and exits
//     TraceFixture N stop P   N updates, BindTrace.stopRecording(), prints "recording true|false",
//                             N more updates, then records N more to the file P, and exits
import Bind
import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// A test runner may start this from a thread that blocks signals (a Dispatch worker does), and a
// spawned process inherits the mask: unblock them all, as a program started from a shell has them.
var noSignals = sigset_t()
sigemptyset(&noSignals)
sigprocmask(SIG_SETMASK, &noSignals, nil)

let arguments = CommandLine.arguments
let count = arguments.count > 1 ? Int(arguments[1]) ?? 1000 : 1000
let mode = arguments.count > 2 ? arguments[2] : ""
let counter = Output<Int>(value: 0).labeled("counter")

func say(_ text: String) {
    let line = Array((text + "\n").utf8)
    line.withUnsafeBytes { _ = write(1, $0.baseAddress, $0.count) }
}

switch mode {
case "crash":
    counter.bind { value in
        if value == count { fatalError("crash at update \(value)") }
    }
    for value in 1...count { counter.update(withValue: value) }
case "crash-threads":
    let started = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)
    for _ in 0..<3 {
        Thread {
            let worker = Output<Int>(value: 0).labeled("worker")
            worker.bind { _ in }
            started.signal()
            for value in 1...count { worker.update(withValue: value) }
            done.signal()
            // Alive until the crash: a thread that ended would leave its ring all the same.
            while true { sleep(1) }
        }.start()
    }
    for _ in 0..<3 { started.wait() }
    for _ in 0..<3 { done.wait() }
    fatalError("crash with the workers' updates in their rings")
case "fork":
    counter.bind { _ in }
    for value in 1...count { counter.update(withValue: value) }
    let child = fork()
    if child == 0 {
        let own = Output<Int>(value: 0).labeled("child")
        for value in 1...count { own.update(withValue: value) }
        exit(0)
    }
    var status: Int32 = 0
    waitpid(child, &status, 0)
    for value in 1...count { counter.update(withValue: -value) }
    say("child \(child)")
    exit(0)
case "full":
    // Writes past the limit fail with EFBIG (instead of killing the process with SIGXFSZ).
    signal(SIGXFSZ, SIG_IGN)
    var limit = rlimit(rlim_cur: 16 * 1024, rlim_max: rlim_t.max)
    setrlimit(Int32(RLIMIT_FSIZE.rawValue), &limit)
    counter.bind { _ in }
    for value in 1...count { counter.update(withValue: value) }
    usleep(400_000)
    limit.rlim_cur = rlim_t.max
    setrlimit(Int32(RLIMIT_FSIZE.rawValue), &limit)
    for value in 1...count { counter.update(withValue: -value) }
    exit(0)
case "stop":
    counter.bind { _ in }
    for value in 1...count { counter.update(withValue: value) }
    BindTrace.stopRecording()
    say("recording \(BindTrace.isRecording)")
    for value in 1...count { counter.update(withValue: -value) }
    if arguments.count > 3 {
        try! BindTrace.startRecording(toFile: arguments[3])
        for value in 1...count { counter.update(withValue: value) }
        BindTrace.stopRecording()
    }
    exit(0)
default:
    counter.bind { _ in }
    for value in 1...count { counter.update(withValue: value) }
    // The recorder flushes at least every 100 ms.
    usleep(400_000)
    say("flushed \(count)")
    if mode == "exit" { exit(0) }
    // Killed by the test; a fixture whose test runner died first (its parent changed) or that
    // ran a minute stops on its own, so an orphan cannot fill the disk with its trace.
    let parent = getppid()
    var value = count
    for _ in 0..<60_000 where getppid() == parent {
        for _ in 0..<1000 {
            value += 1
            counter.update(withValue: value)
        }
        usleep(1000)
    }
}
