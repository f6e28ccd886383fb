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
//     TraceFixture N burst    the main thread and a second one update in a tight loop; the main
//                             thread prints its count after every N updates, until killed (or a
//                             minute, or its parent gone)
//     TraceFixture N lose HOW N updates, waits past a flush, then loses its own trace file (HOW:
//                             deleted, truncated or replaced), waits past a flush, makes N updates
//                             of a second Output labelled "after" and exits
//     TraceFixture N stop-fork
//                             N updates, stopRecording(), then fork(): the parent sends its child
//                             SIGTERM, waits for it, waits past a flush and prints "parent alive"
//     TraceFixture N counted-burst FILE
//                             as burst, with no output: the main thread updates "counter", a second
//                             one "other", and each stores how many updates it made in its 8-byte
//                             slot of FILE (16 bytes, mapped shared) right after each update, so
//                             the count survives any death of the process
//     TraceFixture N combine-released
//                             a combine of two sources, bound; the first source is released, then
//                             the second updates N times; prints what the combine delivered
//     TraceFixture N threads  threads as an app has them, each binding an Output labelled after
//                             it: the main thread ("main"), two threads nobody named ("unnamed"), two
//                             that name themselves "worker" ("worker"), a block on the global queue
//                             ("global") and one on a serial queue labelled "com.example.bind.network"
//                             ("serial"), at once (so on two workers); then exits
//     TraceFixture N limited  N updates at full speed, then exits (run with BIND_TRACE_LIMIT)
//     TraceFixture N windowed a chain from "counter" (a map labelled "doubled", bound), N updates (run
//                             with BIND_TRACE_LIMIT: the chain is made before the newest segment), then
//                             a scope "Screen" that maps "doubled" and binds a closure it never unbinds
//                             (kept in a global: a leak when the scope ends), 10 updates, and exits
//     TraceFixture S soak     updates at full speed for S seconds; prints "second K: U updates, RSS R KB"
//                             after each second and "total U" at the end, then exits
//     TraceFixture N deep     the shape of issue 39 (Benchmarks' TraceWorkload … deep): a chain of
//                             2,000 Outputs, maps and every fourth a combine with one from the middle
//                             of a spine of maps, all from one root, which updates N times
//     TraceFixture N combine-helper
//                             a combine made in a helper of a source the helper does not keep, bound
//                             after the helper returned; the kept source updates N times; prints
//                             what the combine delivered
//     TraceFixture N combine-array
//                             the published framework's `combine(outputs:)` example: both sources
//                             kept only by an array used for their updates; prints what was delivered
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

/// The process's resident set size (VmRSS, Linux), in KB; 0 when unknown.
func residentKilobytes() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
    else { return 0 }
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
}

/// A combine of `second` and a source made here and not kept: released when this returns.
func combinedWithSourceNotKept(_ second: Output<Int>) -> Output<(Int, Int)> {
    let first = Output<Int>(value: 0).labeled("first")
    return Output<Int>.combine(first, second).labeled("combined")
}

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
case "burst":
    counter.bind { _ in }
    let parent = getppid()
    let started = Date()
    Thread {
        let other = Output<Int>(value: 0).labeled("other")
        other.bind { _ in }
        var value = 0
        while true {
            value += 1
            other.update(withValue: value)
        }
    }.start()
    var value = 0
    while getppid() == parent && Date().timeIntervalSince(started) < 60 {
        for _ in 0..<count {
            value += 1
            counter.update(withValue: value)
        }
        say("\(value)")
    }
case "counted-burst":
    let descriptor = open(arguments[3], O_RDWR)
    guard descriptor >= 0, let mapped = mmap(nil, 16, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0),
        mapped != MAP_FAILED
    else { exit(3) }
    let slots = mapped.bindMemory(to: UInt64.self, capacity: 2)
    // An address crosses to the other thread as a number (a pointer is not Sendable).
    let address = UInt(bitPattern: slots)
    let parent = getppid()
    let started = Date()
    Thread {
        let slot = UnsafeMutablePointer<UInt64>(bitPattern: address)! + 1
        let other = Output<Int>(value: 0).labeled("other")
        other.bind { _ in }
        var value: UInt64 = 0
        while true {
            value += 1
            other.update(withValue: Int(value))
            slot.pointee = value
        }
    }.start()
    counter.bind { _ in }
    var value: UInt64 = 0
    while getppid() == parent && Date().timeIntervalSince(started) < 60 {
        for _ in 0..<count {
            value += 1
            counter.update(withValue: Int(value))
            slots[0] = value
        }
    }
case "lose":
    counter.bind { _ in }
    for value in 1...count { counter.update(withValue: value) }
    usleep(300_000)
    let path = ProcessInfo.processInfo.environment["BIND_TRACE"] ?? ""
    switch arguments.count > 3 ? arguments[3] : "" {
    case "deleted": unlink(path)
    case "truncated": truncate(path, 20)
    case "replaced":
        let replacement = path + ".new"
        _ = FileManager.default.createFile(atPath: replacement, contents: Data("someone else's file".utf8))
        rename(replacement, path)
    default: break
    }
    usleep(300_000)
    let after = Output<Int>(value: 0).labeled("after")
    after.bind { _ in }
    for value in 1...count { after.update(withValue: value) }
    exit(0)
case "stop-fork":
    counter.bind { _ in }
    for value in 1...count { counter.update(withValue: value) }
    BindTrace.stopRecording()
    let parent = getpid()
    let child = fork()
    if child == 0 {
        // Holds no pipe of the test's, and ends on its own if the signal does not end it.
        close(1)
        close(2)
        for _ in 0..<100 where getppid() == parent { usleep(100_000) }
        exit(3)
    }
    usleep(100_000)
    kill(child, SIGTERM)
    var status: Int32 = 0
    waitpid(child, &status, 0)
    usleep(300_000)
    say("parent alive")
    exit(0)
case "combine-released":
    var first: Output<Int>? = Output<Int>(value: 0).labeled("first")
    let second = Output<Int>(value: 0).labeled("second")
    let combined = Output<Int>.combine(first!, second).labeled("combined")
    combined.bind { pair in say("delivered \(pair.0) \(pair.1)") }
    first = nil
    for value in 1...count { second.update(withValue: value) }
    withExtendedLifetime(combined) {}
    exit(0)
case "threads":
    ThreadsMode.bindOne(labelled: "main")
    for _ in 0..<2 { ThreadsMode.onNewThread { ThreadsMode.bindOne(labelled: "unnamed") } }
    for _ in 0..<2 {
        ThreadsMode.onNewThread {
            ThreadsMode.nameThisThread("worker")
            ThreadsMode.bindOne(labelled: "worker")
        }
    }
    // The global block waits for the serial one, so the two run on two workers at once.
    let serialRan = DispatchSemaphore(value: 0)
    let bothRan = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
        ThreadsMode.bindOne(labelled: "global")
        serialRan.wait()
        bothRan.signal()
    }
    DispatchQueue(label: "com.example.bind.network").async {
        ThreadsMode.bindOne(labelled: "serial")
        serialRan.signal()
    }
    bothRan.wait()
case "limited":
    counter.bind { _ in }
    for value in 1...count { counter.update(withValue: value) }
    exit(0)
case "windowed":
    let doubled = counter.map { $0 * 2 }.labeled("doubled")
    doubled.bind { _ in }
    for value in 1...count { counter.update(withValue: value) }
    BindTrace.scope("Screen") {
        let title = doubled.map { "\($0) items" }.labeled("title")
        WindowedScreen.kept.append(title.bind { _ in })
    }
    for value in 1...10 { counter.update(withValue: value) }
    exit(0)
case "soak":
    counter.bind { _ in }
    var value = 0
    let started = Date()
    for second in 1...count {
        let before = value
        while Date().timeIntervalSince(started) < Double(second) {
            for _ in 0..<1000 {
                value += 1
                counter.update(withValue: value)
            }
        }
        say("second \(second): \(value - before) updates, RSS \(residentKilobytes()) KB")
    }
    say("total \(value)")
    exit(0)
case "deep":
    var spine = [counter]
    var chain = counter
    for index in 1..<2_000 {
        if index % 4 == 0 {
            chain = Output.combine(chain, spine[spine.count / 2]).map { $0.0 &+ $0.1 }
        } else if index % 4 == 2 {
            spine.append(spine[spine.count - 1].map { $0 &+ 1 })
        } else {
            chain = chain.map { $0 &+ 1 }
        }
    }
    chain.bind { _ in }
    for value in 1...count { counter.update(withValue: value) }
    exit(0)
case "combine-helper":
    let second = Output<Int>(value: 0).labeled("second")
    let combined = combinedWithSourceNotKept(second)
    combined.bind { pair in say("delivered \(pair.0) \(pair.1)") }
    for value in 1...count { second.update(withValue: value) }
    withExtendedLifetime(combined) {}
    exit(0)
case "combine-array":
    let sources = [Output<Int>(), Output<Int>()]
    Output<Int>.combine(outputs: sources).bind { values in say("delivered \(values)") }
    sources[0].update(withValue: 1)
    sources[1].update(withValue: 2)
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

/// The `threads` mode's work: nonisolated, for the threads and queues it runs on.
enum ThreadsMode {
    static func bindOne(labelled label: String) { Output<Int>(value: 0).labeled(label).bind { _ in }.unsubscribe() }

    /// Names the calling thread as an app does (Linux: the kernel's 15 bytes).
    static func nameThisThread(_ name: String) {
        #if os(Linux)
        let file = open("/proc/thread-self/comm", O_WRONLY)
        _ = name.withCString { write(file, $0, strlen($0)) }
        close(file)
        #else
        pthread_setname_np(name)
        #endif
    }

    /// Runs `body` on a new thread and waits for it to end.
    static func onNewThread(_ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        Thread {
            body()
            done.signal()
        }.start()
        done.wait()
    }
}

/// What the `windowed` screen never lets go of.
enum WindowedScreen {
    nonisolated(unsafe) static var kept: [Subscription] = []
}
