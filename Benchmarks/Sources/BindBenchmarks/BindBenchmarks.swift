import Bind
import CBenchSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `BindBenchmarks run [--quick] [--baseline FILE] [--trace-dir DIR]` prints result rows (TSV) for the
/// variant it was built as; `BindBenchmarks table FILE...` prints the rows of those files as one table.
/// `Benchmarks/run.sh` does both; see there.
@main
struct BindBenchmarks {
    static func main() {
        // Every variant runs multi-threaded, as apps do (see bind_bench_start_idle_thread).
        bind_bench_start_idle_thread()
        var arguments = Array(CommandLine.arguments.dropFirst())
        guard let command = arguments.first else { usage() }
        arguments.removeFirst()
        switch command {
        case "run":
            run(arguments)
        case "profile" where arguments.count == 3 || arguments.count == 4:
            profile(
                case: arguments[0], contestant: arguments[1], operations: Int(arguments[2]) ?? 1_000_000,
                afterRecording: arguments.count == 4 ? arguments[3] : nil)
        case "threads" where arguments.count <= 1:
            // Section "several threads recording at once" alone, as rows: for the recorder's tuning.
            let directory = arguments.first ?? "/tmp"
            for row in ThreadScaling.rows(quick: false, traceDirectory: directory) { print(row.tsv) }
        case "callsites" where arguments.count <= 2:
            // The traced root update from alternating lines alone (instrumented variant), as a row.
            let quick = arguments.first == "--quick"
            let directory = arguments.last.flatMap { $0 == "--quick" ? nil : $0 } ?? "/tmp"
            #if BIND_INSTRUMENTED
            let sink = Sink()
            let row = TracingRun.alternatingCallSites(
                harness: Harness(settings: quick ? .quick : HarnessSettings()), sink: sink,
                tracePath: directory + "/callsites.trace")
            unlink(directory + "/callsites.trace")
            sink.publish()
            print(row.tsv)
            #else
            printError("BindBenchmarks callsites: the instrumented variant only (BIND_BENCH_VARIANT=instrumented)")
            exit(2)
            #endif
        case "contention" where arguments.isEmpty:
            for row in Contention.rows(quick: false) { print(row.tsv) }
        case "layouts" where arguments.isEmpty:
            // Bytes per kept subscription under other storage layouts (plain variant's figures).
            SubscriptionLayouts.printRows()
        case "table":
            let files = Dictionary(uniqueKeysWithValues: arguments.map { ($0, read($0)) })
            TablePrinter.print(files: files, order: arguments)
        default:
            usage()
        }
    }

    private static func run(_ arguments: [String]) {
        var settings = HarnessSettings()
        var baseline: [String: Double] = [:]
        var traceDirectory = "/tmp"
        var index = 0
        while index < arguments.count {
            switch arguments[index] {
            case "--quick":
                settings = .quick
            case "--baseline" where index + 1 < arguments.count:
                index += 1
                baseline = Results.rawValues(ofTSV: read(arguments[index]))
            case "--trace-dir" where index + 1 < arguments.count:
                index += 1
                traceDirectory = arguments[index]
                // The recorder would fail on its first trace, deep in a run: say so now.
                var status = stat()
                guard stat(traceDirectory, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
                    printError("BindBenchmarks: --trace-dir \(traceDirectory): not a directory")
                    exit(1)
                }
            default:
                usage()
            }
            index += 1
        }
        let sink = Sink()
        let harness = Harness(settings: settings)
        #if BIND_INSTRUMENTED
        let results = TracingRun.run(
            harness: harness, sink: sink, baseline: baseline, traceDirectory: traceDirectory)
        #else
        let results = PlainRun.run(harness: harness, sink: sink)
        #endif
        sink.publish()
        print(results.tsv, terminator: "")
    }

    /// Runs one contestant of one speed case alone, for a profiler:
    /// `valgrind --tool=callgrind BindBenchmarks profile update10 Bind 100000`.
    /// With `afterRecording` (a trace path, instrumented variant), a recording is started and stopped
    /// first, as the tracing table does between its "on" and "off" samples.
    private static func profile(case id: String, contestant: String, operations: Int, afterRecording: String?) {
        guard let speedCase = SpeedCases.all.first(where: { $0.id == id }) else {
            printError("no case \(id); cases: \(SpeedCases.all.map(\.id).joined(separator: " "))")
            exit(2)
        }
        let sink = Sink()
        let factory: ((Sink) -> (Int) -> Void)?
        switch contestant {
        case "limit": factory = speedCase.limit
        case "Bind": factory = speedCase.bind
        case "OpenCombine": factory = speedCase.openCombine
        default: factory = nil
        }
        guard let factory else {
            printError("no contestant \(contestant) here; use limit, Bind or OpenCombine")
            exit(2)
        }
        let run = factory(sink)
        #if BIND_INSTRUMENTED
        if let afterRecording {
            try? BindTrace.startRecording(toFile: afterRecording)
            run(1)
            BindTrace.stopRecording()
        }
        #endif
        let start = bind_bench_thread_cpu_ns()
        run(operations)
        let nanoseconds = bind_bench_thread_cpu_ns() - start
        printError("\(Double(nanoseconds) / Double(operations)) ns per operation")
        sink.publish()
    }

    private static func read(_ path: String) -> String {
        guard let file = fopen(path, "r") else {
            printError("BindBenchmarks: cannot read \(path)")
            exit(1)
        }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func printError(_ message: String) {
        let line = Array((message + "\n").utf8)
        line.withUnsafeBytes { _ = write(2, $0.baseAddress, $0.count) }
    }

    private static func usage() -> Never {
        printError(
            "usage: BindBenchmarks run [--quick] [--baseline FILE] [--trace-dir DIR]\n"
                + "       BindBenchmarks table FILE...\n"
                + "       BindBenchmarks profile CASE limit|Bind|OpenCombine OPERATIONS\n"
                + "       BindBenchmarks threads [TRACE-DIRECTORY]   (instrumented variant)\n"
                + "       BindBenchmarks callsites [--quick] [TRACE-DIRECTORY]   (instrumented variant)\n"
                + "       BindBenchmarks contention\n"
                + "       BindBenchmarks layouts")
        exit(2)
    }
}
