import Bind
import BindAnalysis
import BindTesting
import BindTraceModel
import Testing

/// Analyses a capture, judging only what its body did (other tests record into it too).
func analyze(_ recording: BindTrace.Recording?, atExit: Bool = false) throws -> AnalysisResult {
    let recording = try #require(recording, "this build records traces")
    let result = try TraceAnalyzer.analyze(recording, options: AnalysisOptions(atExit: atExit))
    #expect(result.traceErrors == [], "the recorder writes consistent traces")
    return result
}

/// The findings as `kind@line`, for comparisons that read like the program under test.
func kindsAndLines(_ result: AnalysisResult) -> [String] {
    result.findings.map { "\($0.kind.rawValue)@\($0.site?.line ?? 0)" }
}

/// A view with a property to bind to, like a label in a reused cell.
final class Label: BindableCompatible {
    var text = ""
}
