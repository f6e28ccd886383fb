import BindAnalysis
import BindDiff

/// One side of `bind-trace diff` (or of `report --base`): a trace, a run's directory or a pattern,
/// read as one run (``TraceRun``) with every finding kind and its per-site counts, in one pass per trace.
enum DiffSides {
    /// Reads `argument` (expanded as every command expands its traces) and judges and counts it.
    ///
    /// - Throws: ``ToolFailure`` naming the file: a path that does not exist, a file that is not a
    ///   trace, traces of different format versions.
    static func read(_ argument: String, options: AnalysisOptions, progress: ProgressMode) throws(ToolFailure)
        -> (side: DiffSide, run: TraceRun)
    {
        let run = try TraceRun.analyze(
            try TraceInputs.expand([argument]), options: options, progress: progress, tallying: true)
        var profile = SiteProfile()
        for trace in run.traces { profile.merge(trace.profile ?? SiteProfile()) }
        let side = DiffSide(
            name: argument, paths: run.traces.map(\.path),
            events: run.traces.reduce(0) { $0 + $1.result.summary.events },
            incomplete: run.traces.compactMap { trace in trace.incompleteness.map { (trace.path, $0) } },
            findings: run.findings.map { DiffFinding(fingerprint: $0.fingerprint, finding: $0.finding) },
            profile: profile)
        return (side, run)
    }
}
