import ArgumentParser
import BindAnalysis
import BindReport
import BindText
import BindTraceModel

/// Prints the findings of a run for editors, CI logs and scripts, and chooses the exit status:
/// 3 when a trace could not be read whole (unless `--allow-incomplete`), else 1 when a finding not
/// in the baseline remains that `--fail-on` counts (warnings and errors; notes only with `note`), else 0.
struct FindingReport {
    let run: TraceRun
    var baseline: Baseline?
    var allowIncomplete = false
    /// Which findings fail the run: by default warnings and errors, not notes.
    var failOn: FailOn = .warning

    /// The findings that count against the run (not in the baseline).
    var failing: [MergedFinding] { run.findings.filter { baseline?.contains($0) != true } }
    var baselined: [MergedFinding] { run.findings.filter { baseline?.contains($0) == true } }

    /// Prints the report and throws `ExitCode(3)` or `ExitCode(1)` as described above.
    func print(format: OutputFormat) throws {
        run.reportProblems(allowIncomplete: allowIncomplete)
        switch format {
        case .text: printText()
        case .json: StandardOutput.shared.jsonLine(json().compactText)
        }
        try exitStatus()
    }

    /// Throws the status the run ends with (see the type's summary). A note alone never fails.
    func exitStatus() throws {
        if !allowIncomplete && !run.incompleteTraces.isEmpty { throw ExitCode(3) }
        if failOn.fails(failing.map(\.finding)) { throw ExitCode(1) }
    }

    private func printText() {
        let out = StandardOutput.shared
        let several = run.traces.count > 1
        for merged in failing {
            let finding = merged.finding
            out.line(finding.compilerStyle)
            for related in finding.related {
                out.line("    \(related.site.file):\(related.site.line): note: \(related.note)")
            }
            if several { out.line("    note: \(Self.seenIn(merged, of: run.traces.count))") }
            if let path = keptAliveBy(merged) { out.line("    note: kept alive by: \(path)") }
            if let why = Self.whyCommand(merged) { out.line("    note: explain it: \(why)") }
        }
        let events = run.traces.reduce(UInt64(0)) { $0 + $1.result.summary.events }
        let subject = several ? "\(run.traces.count) traces" : run.traces[0].path
        let known = baselined.isEmpty ? "" : "; \(baselined.count) more in the baseline"
        if failing.isEmpty {
            out.line(
                "bind-trace: \(subject): no findings\(baselined.isEmpty ? "" : " not in the baseline") (\(Narrator.count(events, "event"))\(known))"
            )
        } else {
            let byKind = Dictionary(grouping: failing, by: \.finding.kind).sorted { $0.key < $1.key }
            let counts = byKind.map { "\($0.value.count) \($0.key.rawValue)" }
            let total = failing.count == 1 ? "1 finding" : "\(failing.count) findings"
            out.line(
                "bind-trace: \(subject): \(total) (\(counts.joined(separator: ", "))) in \(Narrator.count(events, "event"))\(known)"
            )
        }
    }

    /// What keeps a leak alive (``ReferencePath``), in the first trace that saw it.
    func keptAliveBy(_ merged: MergedFinding) -> String? {
        guard let path = merged.traces.first, let trace = run.traces.first(where: { $0.path == path }) else {
            return nil
        }
        return ReferencePath.describe(merged.finding, in: trace.result.state)
    }

    /// The `bind-trace why` command line for the finding's event in the first trace that saw it.
    static func whyCommand(_ merged: MergedFinding) -> String? {
        merged.traces.first.map {
            merged.finding.whyCommand(trace: $0, fingerprint: FindingFingerprint.of(merged.finding))
        }
    }

    /// `seen in 2 of 5 traces: app-12.trace, app-13.trace`.
    static func seenIn(_ merged: MergedFinding, of total: Int) -> String {
        let names = merged.traces.prefix(5).map { $0.split(separator: "/").last.map(String.init) ?? $0 }
        let more = merged.traces.count > 5 ? ", …" : ""
        return "seen in \(merged.traces.count) of \(total) traces: \(names.joined(separator: ", "))\(more)"
    }

    func json() -> JSONValue {
        .object([
            ("findings", .array(run.findings.map { json($0) })),
            ("summary", summaryJSON()),
            ("traces", .array(run.traces.map(Self.json))),
            ("traceErrors", .array(run.traces.flatMap { $0.result.traceErrors.map(Self.json) })),
            (
                "warnings",
                .array(
                    run.traces.flatMap { trace in
                        trace.result.warnings.map {
                            .object([
                                ("file", .string(trace.path)), ("offset", .number($0.offset)),
                                ("message", .string($0.message)),
                            ])
                        }
                    })
            ),
            // Binds no scope could judge (docs/analysis.md, "Scopes across threads"): never findings.
            (
                "notes",
                .array(
                    run.traces.flatMap { trace in
                        trace.result.notes.map {
                            .object([
                                ("file", .string(trace.path)),
                                (
                                    "site",
                                    .object([("file", .string($0.site.file)), ("line", .uint(UInt64($0.site.line)))])
                                ),
                                ("message", .string($0.message)), ("event", .uint($0.event)),
                            ])
                        }
                    })
            ),
        ])
    }

    private func summaryJSON() -> JSONValue {
        let findings = run.findings.map(\.finding)
        let byKind = Dictionary(grouping: failing, by: \.finding.kind).sorted { $0.key < $1.key }
        var members: [(String, JSONValue)] = []
        if run.traces.count == 1 { members.append(("file", .string(run.traces[0].path))) }
        members += [
            ("files", .array(run.traces.map { .string($0.path) })),
            ("events", .uint(run.traces.reduce(0) { $0 + $1.result.summary.events })),
            ("findings", .number(failing.count)),
            ("baselined", .number(baselined.count)),
            ("byKind", .object(byKind.map { ($0.key.rawValue, .number($0.value.count)) })),
            ("errors", .number(findings.filter { $0.severity == .error }.count)),
            ("warnings", .number(findings.filter { $0.severity == .warning }.count)),
            ("notes", .number(findings.filter { $0.severity == .note }.count)),
            ("traceErrors", .number(run.traces.reduce(0) { $0 + $1.result.summary.traceErrors })),
            ("complete", .bool(run.incompleteTraces.isEmpty)),
            ("durationNanoseconds", .uint(run.traces.map(\.result.summary.duration).max() ?? 0)),
        ]
        return .object(members)
    }

    private func json(_ merged: MergedFinding) -> JSONValue {
        guard case .object(var members) = Self.json(merged.finding) else { return .null }
        members += [
            ("fingerprint", .string(merged.fingerprint)),
            ("baselined", .bool(baseline?.contains(merged) == true)),
            ("traces", .array(merged.traces.map { .string($0) })),
            ("why", Self.whyCommand(merged).map { .string($0) } ?? .null),
            ("keptAliveBy", keptAliveBy(merged).map { .string($0) } ?? .null),
        ]
        return .object(members)
    }

    static func json(_ trace: TraceAnalysis) -> JSONValue {
        .object([
            ("file", .string(trace.path)), ("events", .uint(trace.result.summary.events)),
            ("findings", .number(trace.result.findings.count)), ("complete", .bool(trace.incompleteness == nil)),
            ("incomplete", trace.incompleteness.map { .string($0) } ?? .null),
        ])
    }

    static func json(_ finding: Finding) -> JSONValue {
        .object([
            ("kind", .string(finding.kind.rawValue)),
            ("severity", .string(finding.severity.rawValue)),
            ("message", .string(finding.message)),
            ("site", finding.site.map(json) ?? .null),
            (
                "related",
                .array(
                    finding.related.map { related in
                        .object([
                            ("file", .string(related.site.file)), ("line", .uint(UInt64(related.site.line))),
                            ("note", .string(related.note)),
                        ])
                    })
            ),
            ("outputs", .array(finding.outputs.map { .uint($0) })),
            ("subscriptions", .array(finding.subscriptions.map { .uint($0) })),
            ("event", .uint(finding.event)),
        ])
    }

    static func json(_ site: SourceSite) -> JSONValue {
        .object([("file", .string(site.file)), ("line", .uint(UInt64(site.line)))])
    }

    static func json(_ error: TraceError) -> JSONValue {
        .object([
            ("kind", .string(error.kind.rawValue)), ("event", .uint(error.sequence)),
            ("offset", .number(error.offset)), ("message", .string(error.message)),
        ])
    }
}

extension TraceRun {
    /// Prints each trace's warnings, inconsistencies and, for gates, why it is incomplete, to
    /// standard error, one line each.
    func reportProblems(allowIncomplete: Bool? = nil) {
        for trace in traces {
            trace.result.reportProblems(path: trace.path)
            guard let allowIncomplete, let reason = trace.incompleteness else { continue }
            if !allowIncomplete {
                StandardError.write(
                    "bind-trace: \(trace.path): incomplete trace: \(reason); findings may be missing or false "
                        + "(exit 3; --allow-incomplete judges it anyway)")
            } else if trace.result.warnings.isEmpty {
                StandardError.write("bind-trace: \(trace.path): warning: incomplete trace: \(reason)")
            }
        }
    }
}

extension AnalysisResult {
    /// Prints warnings, notes and trace errors to standard error, one line each.
    func reportProblems(path: String) {
        for warning in warnings {
            StandardError.write("bind-trace: \(path): warning: \(warning)")
        }
        // Notes are not findings (they fail no gate): shown beside the trace's other remarks.
        for note in notes {
            StandardError.write("bind-trace: \(path): \(note.compilerStyle)")
        }
        for error in traceErrors.prefix(20) {
            StandardError.write("bind-trace: \(path): inconsistent trace: \(error)")
        }
        let more = summary.traceErrors - min(traceErrors.count, 20)
        if more > 0 {
            StandardError.write("bind-trace: \(path): \(more) more inconsistencies not shown")
        }
    }
}
