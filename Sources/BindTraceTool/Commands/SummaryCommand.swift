import ArgumentParser
import BindAnalysis
import BindText
import BindTraceModel

/// `bind-trace summary TRACE…`: what each trace holds, in numbers.
struct SummaryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "summary",
        abstract: "Count events by kind and Outputs by kind, list the busiest sites, and the duration.",
        discussion: """
            With several traces (one per process), one block per trace. Exits 0 whatever the findings \
            and however complete the traces: run check to gate on them.
            """)

    @OptionGroup var arguments: AnalysisArguments

    /// Accepted by 1.0, though `summary` never gates: kept so that scripts still run, with a warning.
    @Flag(name: .customLong("allow-incomplete"), help: .hidden)
    var deprecatedAllowIncomplete = false

    func run() throws {
        if deprecatedAllowIncomplete {
            StandardError.write(
                "bind-trace: warning: summary --allow-incomplete is deprecated and does nothing: summary never gates "
                    + "(it exits 0 however complete the traces)")
        }
        let run = try arguments.analyze(kinds: Set(Finding.Kind.allCases))
        run.reportProblems()
        switch arguments.format {
        case .json:
            var report = FindingReport(run: run).json()
            if case .object(var members) = report {
                if run.traces.count == 1 { members.append(("trace", json(run.traces[0].result.summary))) }
                members.append(
                    (
                        "processes",
                        .array(
                            run.traces.map { trace in
                                .object([("file", .string(trace.path)), ("trace", json(trace.result.summary))])
                            })
                    ))
                report = .object(members)
            }
            StandardOutput.shared.jsonLine(report.compactText)
        case .text:
            for (index, trace) in run.traces.enumerated() {
                if index > 0 { StandardOutput.shared.line() }
                printText(trace.result.summary, path: trace.path)
            }
        }
    }

    private func printText(_ summary: TraceSummary, path: String) {
        let out = StandardOutput.shared
        let seconds = Double(summary.duration) / 1e9
        out.line(
            "\(path): \(Narrator.count(summary.events, "event")) in \(formatted(seconds)) s on "
                + "\(Narrator.count(UInt64(summary.threads), "thread"))\(summary.isComplete ? "" : " (incomplete)")")
        out.line("events by kind:")
        for (kind, count) in summary.eventsByKind { out.line("  \(pad(kind, 14)) \(count)") }
        out.line("Outputs by kind:")
        for (kind, count) in summary.outputsByKind { out.line("  \(pad(kind.description, 18)) \(count)") }
        if !summary.topSites.isEmpty {
            out.line("top sites by updates:")
            for site in summary.topSites {
                out.line(
                    "  \(site.site): \(Narrator.count(site.updates, "update")) (\(Narrator.count(site.outputs, "Output")))"
                )
            }
        }
        if !summary.redundantUpdates.isEmpty {
            out.line("wasted updates (a value equal to the one before, by preview), most first:")
            for row in summary.redundantUpdates {
                out.line(
                    "  \(row.site): \(row.output): \(row.updates) redundant, \(row.downstreamUpdates) downstream "
                        + "(first: event \(row.firstEvent))")
            }
        }
        out.line(
            "alive at the end: \(Narrator.count(UInt64(summary.liveOutputs), "Output")), "
                + Narrator.count(UInt64(summary.boundSubscriptions), "subscription"))
        let findings = summary.findingsByKind.map { "\($0.count) \($0.kind.rawValue)" }
        out.line("findings: \(findings.isEmpty ? "none" : findings.joined(separator: ", "))")
        if summary.traceErrors > 0 { out.line("inconsistencies: \(summary.traceErrors)") }
    }

    private func json(_ summary: TraceSummary) -> JSONValue {
        .object([
            ("events", .uint(summary.events)),
            ("eventsByKind", .object(summary.eventsByKind.map { ($0.kind, .uint($0.count)) })),
            ("outputsByKind", .object(summary.outputsByKind.map { ($0.kind.description, .uint($0.count)) })),
            (
                "topSites",
                .array(
                    summary.topSites.map {
                        .object([
                            ("file", .string($0.site.file)), ("line", .uint(UInt64($0.site.line))),
                            ("updates", .uint($0.updates)), ("outputs", .uint($0.outputs)),
                        ])
                    })
            ),
            (
                "redundantUpdates",
                .array(
                    summary.redundantUpdates.map {
                        .object([
                            ("file", .string($0.site.file)), ("line", .uint(UInt64($0.site.line))),
                            ("output", .string($0.output)), ("updates", .uint($0.updates)),
                            ("downstreamUpdates", .uint($0.downstreamUpdates)), ("firstEvent", .uint($0.firstEvent)),
                        ])
                    })
            ),
            ("durationNanoseconds", .uint(summary.duration)),
            ("threads", .uint(UInt64(summary.threads))),
            ("liveOutputs", .number(summary.liveOutputs)),
            ("boundSubscriptions", .int(Int64(summary.boundSubscriptions))),
        ])
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    private func formatted(_ seconds: Double) -> String {
        let milliseconds = Int((seconds * 1000).rounded())
        let fraction = String(milliseconds % 1000)
        return "\(milliseconds / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }
}
