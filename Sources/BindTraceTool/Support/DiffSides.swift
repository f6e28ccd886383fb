import BindAnalysis
import BindDiff

/// One side of `bind-trace diff` (or of `report --base`): a trace, a run's directory or a pattern,
/// read as one run (``TraceRun``) with every finding kind and its per-site counts, in one pass per trace.
enum DiffSides {
    /// Reads `arguments` (expanded as every command expands its traces) and judges and counts it.
    ///
    /// - Throws: ``ToolFailure`` naming the file: a path that does not exist, a file that is not a
    ///   trace, traces of different format versions.
    static func read(_ arguments: [String], options: AnalysisOptions, progress: ProgressMode) throws(ToolFailure)
        -> (side: DiffSide, run: TraceRun)
    {
        let run = try TraceRun.analyze(
            try TraceInputs.expand(arguments), options: options, progress: progress, tallying: true)
        var profile = SiteProfile()
        for trace in run.traces { profile.merge(trace.profile ?? SiteProfile()) }
        let side = DiffSide(
            name: arguments.joined(separator: " "), paths: run.traces.map(\.path),
            events: run.traces.reduce(0) { $0 + $1.result.summary.events },
            incomplete: run.traces.compactMap { trace in trace.incompleteness.map { (trace.path, $0) } },
            findings: run.findings.map { DiffFinding(fingerprint: $0.fingerprint, finding: $0.finding) },
            profile: profile)
        return (side, run)
    }
}

extension DiffSides {
    /// Reports each trace's problems on standard error, one line each, and whether any was not read whole.
    static func reportProblems(_ run: TraceRun, side: String, allowIncomplete: Bool) {
        for trace in run.traces {
            trace.result.reportProblems(path: trace.path)
            if let reason = trace.incompleteness {
                StandardError.write(
                    "bind-trace: \(trace.path): incomplete trace (\(side)): \(reason); its counts and findings "
                        + "may be missing" + (allowIncomplete ? "" : " (exit 3; --allow-incomplete accepts it)"))
            }
        }
    }
}
