import Bind
import CBenchSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The instrumented variant (trait `Tracing`): tracing off against the plain build, tracing on
/// against off, and what a clock read costs.
enum TracingRun {
    static let section = "Tracing — instrumented build (trait Tracing); off vs plain, on (to a file) vs off"
    static let clockSection = "Clock — cost of one read"
    static let addedPerUpdateTarget = 25.0
    /// Tracing on against off, per case that has a target: the ratio, or ns added per event.
    static let onOffTargets: [String: Double] = ["update10": 2.0, "map10": 1.5]
    static let addedPerEventTargets: [String: Double] = ["churn100": 60.0]
    /// How much slower than the plain build the instrumented build with tracing off may run and
    /// still cost "nothing, within noise" (each normalised by its own process's speed; see
    /// ``processSpeed(_:)``). Faster is not a miss: below 1 is the two processes' noise (BENCHMARKS.md).
    static let offNoise = 0.10

    /// A process's speed, to compare times taken in two processes: the geometric mean of the limit's
    /// time over every case. One case's limit alone moves with the heap layout of its process (an
    /// Output's life: 37 ns in one process, 57 ns in another), which the mean of nine dilutes.
    static func processSpeed(_ limits: [Double]) -> Double? {
        guard !limits.isEmpty, limits.allSatisfy({ $0 > 0 }) else { return nil }
        return exp(limits.map { log($0) }.reduce(0, +) / Double(limits.count))
    }

    static func run(harness: Harness, sink: Sink, baseline: [String: Double], traceDirectory: String) -> Results {
        var results = Results()
        let tracePath = traceDirectory + "/bench.trace"
        guard BindTrace.isEnabled else {
            results.add(Row(section: section, name: "Bind was built without the Tracing trait", measured: "—"))
            return results
        }
        var offRows: [Row] = []
        var onOffRows: [Row] = []
        var targetRows: [Row] = []
        var measured: [(speedCase: SpeedCase, timings: Timings)] = []
        for speedCase in SpeedCases.all {
            let bind = speedCase.bind(sink)
            let timings = harness.measure([
                Contestant(name: "limit", run: speedCase.limit(sink)),
                Contestant(name: "off", run: bind),
                // One untimed operation after each start: the first event of a recording announces
                // the Outputs and subscriptions it has not seen yet, a cost paid once, not per event.
                Contestant(
                    name: "on", run: bind,
                    prepare: {
                        try! BindTrace.startRecording(toFile: tracePath)
                        bind(1)
                    },
                    finish: { BindTrace.stopRecording() }),
            ])
            measured.append((speedCase, timings))
        }
        // Over the same cases on both sides, or not at all.
        let plainLimits = SpeedCases.all.compactMap { baseline["speed.\($0.id).limit_ns"] }
        let complete = plainLimits.count == measured.count
        let speed = complete ? processSpeed(measured.map { $0.timings.median("limit") }) : nil
        let plainSpeed = complete ? processSpeed(plainLimits) : nil
        for (speedCase, timings) in measured {
            let off = timings.median("off")
            let on = timings.median("on")
            if let speed, let plainSpeed, let plain = baseline["speed.\(speedCase.id).bind_ns"] {
                let drift = (off / speed) / (plain / plainSpeed)
                offRows.append(
                    Row(
                        section: section, name: "\(speedCase.title): off vs plain",
                        measured: "off \(Format.ns(off))", against: "plain \(Format.ns(plain))",
                        ratio: "\(Format.times(drift)) (raw \(Format.times(off / plain)))",
                        target: "≤ \(Format.number(1 + offNoise))×", met: Format.verdict(drift <= 1 + offNoise)))
            }
            let onOverOff = timings.ratio("on", to: "off")
            let addedPerEvent = timings.difference("on", from: "off") / Double(speedCase.traceEventsPerOperation)
            var target = "—"
            var met = ""
            if let limit = onOffTargets[speedCase.id] {
                target = "≤ \(Format.number(limit))×"
                met = Format.verdict(onOverOff <= limit)
            } else if let limit = addedPerEventTargets[speedCase.id] {
                target = "≤ +\(Format.number(limit)) ns/event"
                met = Format.verdict(addedPerEvent <= limit)
            }
            onOffRows.append(
                Row(
                    section: section, name: "\(speedCase.title): on vs off",
                    measured: "on \(Format.ns(on))", against: "off \(Format.ns(off))",
                    ratio: "\(Format.times(onOverOff)), +\(Format.ns(addedPerEvent))/event "
                        + "(\(speedCase.traceEventsPerOperation)/op)",
                    target: target, met: met))
            if speedCase.id == "update1" || speedCase.id == "update10" {
                targetRows.append(
                    Row(
                        section: section,
                        name: "ns added per recorded update event (\(speedCase.title))",
                        measured: "+\(Format.ns(addedPerEvent))", against: "on − off, same process",
                        target: "≤ \(Format.number(addedPerUpdateTarget)) ns",
                        met: Format.verdict(addedPerEvent <= addedPerUpdateTarget)))
            }
        }
        results.rows += offRows + onOffRows + targetRows
        if let speed, let plainSpeed {
            results.add(
                Row(
                    section: section, name: "process speed: geometric mean of the limits (normalises off vs plain)",
                    measured: "instrumented \(Format.ns(speed))", against: "plain \(Format.ns(plainSpeed))",
                    ratio: Format.times(speed / plainSpeed), target: "—"))
        }
        results.add(alternatingCallSites(harness: harness, sink: sink, tracePath: tracePath))
        if let bytes = traceBytesPerUpdate(path: tracePath, sink: sink) {
            results.add(
                Row(
                    section: section, name: "trace file bytes per update event", measured: Format.bytes(bytes),
                    against: "1,000,000 updates, 1 subscriber", target: "—"))
        }
        unlink(tracePath)
        results.rows += ThreadScaling.rows(quick: harness.settings.rounds < 100, traceDirectory: traceDirectory)
        results.rows += clockRows(harness: harness)
        return results
    }

    /// A traced root update from two lines in turn against one line: the worst case for the call-site
    /// records. Each update changes its Output's last call site, so it takes the locked path, looks
    /// the site up and writes a `calledAt` event; from one line it is one compare (BENCHMARKS.md).
    static func alternatingCallSites(harness: Harness, sink: Sink, tracePath: String) -> Row {
        let output = Output<Int>(value: 0)
        output.bind { sink.total &+= UInt64(truncatingIfNeeded: $0) }
        let oneLine: (Int) -> Void = { n in for i in 0..<n { output.update(withValue: i) } }
        let alternating: (Int) -> Void = { n in
            for i in stride(from: 0, to: n, by: 2) {
                output.update(withValue: i)
                output.update(withValue: i &+ 1)
            }
        }
        // Two untimed updates after each start, as in the other traced cases: the first events of a
        // recording define the Output and the sites.
        func recorded(_ name: String, _ run: @escaping (Int) -> Void) -> Contestant {
            Contestant(
                name: name, run: run,
                prepare: {
                    try! BindTrace.startRecording(toFile: tracePath)
                    run(2)
                },
                finish: { BindTrace.stopRecording() })
        }
        let timings = harness.measure([recorded("one line", oneLine), recorded("alternating", alternating)])
        let added = timings.difference("alternating", from: "one line")
        return Row(
            section: section, name: "update, 1 subscriber, traced: two call sites alternating vs one line",
            measured: "alternating \(Format.ns(timings.median("alternating")))",
            against: "one line \(Format.ns(timings.median("one line")))",
            ratio: "\(Format.times(timings.ratio("alternating", to: "one line"))), +\(Format.ns(added))/update",
            target: "—")
    }

    /// The size of a trace of a million updates, per update.
    private static func traceBytesPerUpdate(path: String, sink: Sink) -> Double? {
        let updates = 1_000_000
        let output = Output<Int>(value: 0)
        output.bind { sink.total &+= UInt64(truncatingIfNeeded: $0) }
        let emptySize: Int
        do {
            try BindTrace.startRecording(toFile: path)
            BindTrace.stopRecording()
            emptySize = fileSize(path)
            try BindTrace.startRecording(toFile: path)
        } catch {
            return nil
        }
        for i in 0..<updates { output.update(withValue: i) }
        BindTrace.stopRecording()
        return Double(fileSize(path) - emptySize) / Double(updates)
    }

    private static func fileSize(_ path: String) -> Int {
        var status = stat()
        return stat(path, &status) == 0 ? Int(status.st_size) : 0
    }

    private static func clockRows(harness: Harness) -> [Row] {
        let timings = harness.measure([
            Contestant(
                name: "clock_gettime", run: { n in bind_bench_consume(bind_bench_call_clock_gettime(UInt64(n))) }),
            Contestant(name: "tsc", run: { n in bind_bench_consume(bind_bench_call_tsc(UInt64(n))) }),
        ])
        let clock = timings.median("clock_gettime")
        let tsc = timings.median("tsc")
        let tscName = bind_bench_has_tsc() != 0 ? "TSC (__rdtsc, as the recorder)" : "no TSC: CLOCK_MONOTONIC"
        return [
            Row(
                section: clockSection, name: "clock_gettime(CLOCK_MONOTONIC) vs \(tscName)",
                measured: "clock_gettime \(Format.ns(clock))", against: "TSC \(Format.ns(tsc))",
                ratio: "\(Format.times(timings.ratio("clock_gettime", to: "tsc"))) the TSC", target: "—")
        ]
    }
}
