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
    /// still cost "nothing, within noise" (each normalised by the limit timed in its own process).
    /// Faster is not a miss: below 1 is the two processes' noise (see BENCHMARKS.md).
    static let offNoise = 0.10

    static func run(harness: Harness, sink: Sink, baseline: [String: Double], traceDirectory: String) -> Results {
        var results = Results()
        let tracePath = traceDirectory + "/bench.trace"
        guard BindTrace.isEnabled else {
            results.add(Row(section: section, name: "Bind was built without the Tracing trait", measured: "—"))
            return results
        }
        var onOffRows: [Row] = []
        var targetRows: [Row] = []
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
            let off = timings.median("off")
            let on = timings.median("on")
            let offOverLimit = timings.ratio("off", to: "limit")
            if let plainOverLimit = baseline["speed.\(speedCase.id).bind_over_limit"],
                let plain = baseline["speed.\(speedCase.id).bind_ns"]
            {
                let drift = offOverLimit / plainOverLimit
                results.add(
                    Row(
                        section: section, name: "\(speedCase.title): off vs plain",
                        measured: "off \(Format.ns(off)) (\(Format.times(offOverLimit)) limit)",
                        against: "plain \(Format.ns(plain)) (\(Format.times(plainOverLimit)) limit)",
                        ratio: Format.times(drift), target: "≤ \(Format.number(1 + offNoise))×",
                        met: Format.verdict(drift <= 1 + offNoise)))
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
        results.rows += onOffRows + targetRows
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
            Contestant(name: "clock_gettime", run: { n in bench_consume(bench_call_clock_gettime(UInt64(n))) }),
            Contestant(name: "tsc", run: { n in bench_consume(bench_call_tsc(UInt64(n))) }),
        ])
        let clock = timings.median("clock_gettime")
        let tsc = timings.median("tsc")
        let tscName = bench_has_tsc() != 0 ? "TSC (__rdtsc, as the recorder)" : "no TSC: CLOCK_MONOTONIC"
        return [
            Row(
                section: clockSection, name: "clock_gettime(CLOCK_MONOTONIC) vs \(tscName)",
                measured: "clock_gettime \(Format.ns(clock))", against: "TSC \(Format.ns(tsc))",
                ratio: "\(Format.times(timings.ratio("clock_gettime", to: "tsc"))) the TSC", target: "—")
        ]
    }
}
