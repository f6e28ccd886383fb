@_spi(Harness) import BindAnalysis
@_spi(Harness) import BindReport
@_spi(Harness) import BindTraceModel

/// One trace (one process) read and judged.
struct TraceAnalysis {
    let path: String
    var result: AnalysisResult
    /// Why the trace cannot be trusted whole (cut short, no end record, lost or skipped records);
    /// `nil` when it was read whole.
    let incompleteness: String?
    /// Its per-site counts, when the run was read with `tallying` (`bind-trace diff`).
    var profile: SiteProfile? = nil
}

/// A finding seen in one or more traces of a run, merged by kind, site and what it is about.
struct MergedFinding {
    var finding: Finding
    /// ``FindingFingerprint``: the same in every process and run.
    let fingerprint: String
    /// The traces that saw it, in the order they were read.
    var traces: [String]
}

/// The traces of one run (every process of a test run, every CI shard), judged together.
struct TraceRun {
    var traces: [TraceAnalysis] = []
    /// Findings of every trace, merged by ``FindingFingerprint``, in site order.
    var findings: [MergedFinding] = []

    var incompleteTraces: [TraceAnalysis] { traces.filter { $0.incompleteness != nil } }

    /// Reads and analyses `inputs` one after another (memory: one trace's live state at a time, plus
    /// the findings). A file found in a directory or by a pattern that is not a trace is skipped with
    /// a warning; any other unreadable trace, or traces of different format versions, throw.
    /// - Parameter tallying: also count each trace site by site (``SiteTally``), in the same pass.
    static func analyze(
        _ inputs: [TraceInputs.Input], options: AnalysisOptions, progress: ProgressMode, tallying: Bool = false
    ) throws(ToolFailure) -> TraceRun {
        var run = TraceRun()
        var firstVersion: (path: String, major: UInt16, minor: UInt16)?
        for input in inputs {
            let reader: TraceReader
            do {
                reader = try TraceReader(path: input.path)
            } catch TraceReadError.truncatedHeader(let length) where !input.isExplicit {
                // In a run's directory, a process that died before its first flush: a trace with nothing
                // in it, and incomplete. (A file named on its own is an error, as any unreadable file.)
                run.traces.append(
                    TraceAnalysis(
                        path: input.path, result: TraceAnalyzer.analyze(events: [], options: options),
                        incompleteness: "cut short before its header (\(length) of 16 bytes)",
                        profile: tallying ? SiteProfile() : nil))
                continue
            } catch TraceReadError.notATrace where !input.isExplicit {
                StandardError.write("bind-trace: \(input.path): warning: skipped: not a Bind trace")
                continue
            } catch {
                throw ToolFailure(path: input.path, error)
            }
            let version = reader.version
            if let first = firstVersion, (first.major, first.minor) != (version.major, version.minor) {
                throw ToolFailure(
                    "\(input.path): trace format \(version.major).\(version.minor) differs from "
                        + "\(first.major).\(first.minor) of \(first.path); read traces of one format version together")
            }
            if firstVersion == nil { firstVersion = (input.path, version.major, version.minor) }
            run.traces.append(
                try analyze(input.path, reader: reader, options: options, progress: progress, tallying: tallying))
        }
        if run.traces.isEmpty {
            throw ToolFailure("\(inputs.map(\.path).joined(separator: " ")): no Bind trace among these files")
        }
        try requireFocusScope(
            options.focusScope, paths: run.traces.map(\.path), named: run.traces.contains(where: \.result.sawFocusScope)
        )
        run.findings = merge(run.traces)
        return run
    }

    /// A mistyped `--scope` judges nothing: an error naming the traces, never a run without findings.
    static func requireFocusScope(_ scope: UInt64?, paths: [String], named: Bool) throws(ToolFailure) {
        guard let scope, !named else { return }
        throw ToolFailure(
            "\(paths.joined(separator: " ")): no scope \(scope) in \(paths.count == 1 ? "this trace" : "these traces") "
                + "(scope ids are those of dump's scopeBegan events)")
    }

    private static func analyze(
        _ path: String, reader: TraceReader, options: AnalysisOptions, progress: ProgressMode, tallying: Bool
    ) throws(ToolFailure) -> TraceAnalysis {
        let progressLine = ProgressLine(path: path, mode: progress)
        var result: AnalysisResult
        let tally = tallying ? SiteTally() : nil
        do {
            defer { progressLine.finish() }
            func progressed(_ batch: EventBatch, _ events: UInt64) {
                progressLine.update(bytesRead: batch.bytesRead, events: events)
            }
            if let tally {
                result = try TraceAnalyzer.analyze(reader: reader, options: options, tally: tally, progress: progressed)
            } else {
                result = try TraceAnalyzer.analyze(reader: reader, options: options, progress: progressed)
            }
        } catch {
            throw ToolFailure(path: path, error)
        }
        result.warnings = reader.warnings
        result.summary.isComplete = reader.isComplete
        let incompleteness = incompleteness(warnings: reader.warnings, isComplete: reader.isComplete)
        return TraceAnalysis(
            path: path, result: result, incompleteness: incompleteness, profile: tally?.profile())
    }

    /// Why a trace was not read whole, from what its reader reports: its warnings (a trace cut short,
    /// records skipped or lost) and a missing end record; `nil` when it was read whole.
    static func incompleteness(warnings: [TraceWarning], isComplete: Bool) -> String? {
        if !warnings.isEmpty { return warnings.map(\.message).joined(separator: "; ") }
        if !isComplete { return "no end record: the process did not stop normally (killed, crashed or still running)" }
        return nil
    }

    private static func merge(_ traces: [TraceAnalysis]) -> [MergedFinding] {
        merge(traces.map { ($0.path, $0.result.findings) })
    }

    /// The findings of every trace merged by ``FindingFingerprint``, in site order, each with the
    /// traces that saw it.
    static func merge(_ traces: [(path: String, findings: [Finding])]) -> [MergedFinding] {
        var index: [String: Int] = [:]
        var merged: [MergedFinding] = []
        for (path, findings) in traces {
            for finding in findings {
                let fingerprint = FindingFingerprint.of(finding)
                if let existing = index[fingerprint] {
                    if merged[existing].traces.last != path { merged[existing].traces.append(path) }
                } else {
                    index[fingerprint] = merged.count
                    merged.append(MergedFinding(finding: finding, fingerprint: fingerprint, traces: [path]))
                }
            }
        }
        return merged.sorted { Finding.siteOrder($0.finding, $1.finding) }
    }
}
