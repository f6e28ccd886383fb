#if Tracing
import Bind
import BindAnalysis
import BindTesting
import BindTraceModel
import Foundation
import Testing

@testable import AppCorpus

enum Corpus {
    /// `kind@File.swift:line` for each `// expect: kind` marker in `path`, and each
    /// `// expect-with-handles: kind` marker when the trace records `Subscription` handles.
    static func expectations(in path: String, recordsHandles: Bool = false) throws -> [String] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let file = (path as NSString).lastPathComponent
        var expected: [String] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard
                let range = line.range(of: "// expect: ")
                    ?? (recordsHandles ? line.range(of: "// expect-with-handles: ") : nil)
            else { continue }
            for kind in line[range.upperBound...].split(separator: ",") {
                expected.append("\(kind.trimmingCharacters(in: .whitespaces))@\(file):\(index + 1)")
            }
        }
        return expected.sorted()
    }

    /// Records `program` in memory and judges it as `bind-trace check` does, on its own events.
    static func findings(of program: CorpusProgram.Type, buggy: Bool) async throws
        -> (sites: [String], findings: [Finding], recordsHandles: Bool)
    {
        let recording = try #require(await BindTrace.capture("\(program)") { await program.run(buggy: buggy) })
        let result = try TraceAnalyzer.analyze(recording)
        #expect(result.traceErrors.isEmpty, "the recorder writes a consistent trace: \(result.traceErrors)")
        let sites = result.findings.map { finding in
            let file = finding.site.map { ($0.file as NSString).lastPathComponent } ?? "?"
            return "\(finding.kind.rawValue)@\(file):\(finding.site?.line ?? 0)"
        }
        let recordsHandles = result.summary.eventsByKind.contains {
            $0.kind == "handleReleased" || $0.kind == "subscriptionContained"
        }
        return (sites.sorted(), result.findings, recordsHandles)
    }
}
#endif
