// The bridge from a capture (in the runtime `Bind`) to the analysis; it lives here so that the reader side
// (BindTraceModel, BindAnalysis, BindGraph, BindReport) and `bind-trace` never link `Bind` and its recorder.
import Bind
import BindAnalysis
@_spi(Harness) import BindTraceModel

extension TraceAnalyzer {
    /// Analyses a capture, judging only what its body did: other threads record into the same
    /// capture, so `AnalysisOptions.focusScope` defaults to the capture's scope.
    ///
    /// ```swift
    /// let recording = BindTrace.capture { screen.show(); screen.close() }
    /// let result = try TraceAnalyzer.analyze(recording!)
    /// #expect(result.findings.isEmpty)
    /// ```
    /// - Throws: `TraceReadError` (from BindTraceModel) when the recording cannot be decoded.
    public static func analyze(_ recording: BindTrace.Recording, options: AnalysisOptions = AnalysisOptions())
        throws(TraceReadError) -> AnalysisResult
    {
        var options = options
        if options.focusScope == nil { options.focusScope = recording.scope }
        return try analyze(reader: TraceReader(bytes: recording.bytes), options: options)
    }

    /// The findings of a capture, judging what belongs to `scope` (by default the capture's own scope).
    public static func findings(in recording: BindTrace.Recording, scope: UInt64? = nil, atExit: Bool = false)
        throws(TraceReadError) -> [Finding]
    {
        try analyze(recording, options: AnalysisOptions(atExit: atExit, focusScope: scope ?? recording.scope)).findings
    }
}
