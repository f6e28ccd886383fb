// `import BindAnalysis` is the whole analysis API: the trace's values that its results name —
// `SourceSite`, `TraceReadError`, `TraceWarning` and (re-exported by BindTraceModel) `OutputKind` — come
// with it, so a program that judges traces needs one product and one import.
@_exported import BindTraceModel
