import Bind
@_spi(Harness) import BindAnalysis
import BindTesting
import BindTraceModel
import Foundation
import Testing

@testable import AppCorpus

enum Corpus {
    /// `kind@File.swift:line` for each `// expect: kind` marker in `path`, each
    /// `// expect-with-handles: kind` marker when the trace records `Subscription` handles, and each
    /// `// expect-with-values: kind` marker when it records value previews.
    static func expectations(in path: String, recordsHandles: Bool = false, recordsValues: Bool = false) throws
        -> [String]
    {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let file = (path as NSString).lastPathComponent
        var expected: [String] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard
                let range = line.range(of: "// expect: ")
                    ?? (recordsHandles ? line.range(of: "// expect-with-handles: ") : nil)
                    ?? (recordsValues ? line.range(of: "// expect-with-values: ") : nil)
            else { continue }
            for kind in line[range.upperBound...].split(separator: ",") {
                expected.append("\(kind.trimmingCharacters(in: .whitespaces))@\(file):\(index + 1)")
            }
        }
        return expected.sorted()
    }

    /// The path each `// kept alive by: <path>` comment in `path` expects for the leak on the line
    /// below it, by that line's number (`{line}` in the comment stands for it).
    static func keptAlivePaths(in path: String) throws -> [Int: String] {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        var paths: [Int: String] = [:]
        for (index, line) in lines.enumerated() {
            guard let range = line.range(of: "// kept alive by: ") else { continue }
            let leakLine = index + 2
            paths[leakLine] = line[range.upperBound...].replacingOccurrences(of: "{line}", with: "\(leakLine)")
        }
        return paths
    }

    /// `path` with each subscription's and container's trace id as `N`: ids depend on what else the
    /// process recorded.
    static func withoutIDs(_ path: String) -> String {
        path.replacingOccurrences(
            of: #"(subscription|SubscriptionContainer) \d+"#, with: "$1 N", options: .regularExpression)
    }

    /// Records `program` in memory and judges it as `bind-trace check` does, on its own events.
    static func findings(of program: CorpusProgram.Type, buggy: Bool) async throws
        -> (sites: [String], findings: [Finding], recordsHandles: Bool)
    {
        let (sites, findings, recordsHandles, _) = try await analysis(of: program, buggy: buggy)
        return (sites, findings, recordsHandles)
    }

    /// ``findings(of:buggy:)`` with the final graph state, for what keeps each leak alive.
    static func analysis(of program: CorpusProgram.Type, buggy: Bool) async throws
        -> (sites: [String], findings: [Finding], recordsHandles: Bool, state: GraphState)
    {
        let recording = try #require(await BindTrace.capture("\(program)") { await program.run(buggy: buggy) })
        let result = try TraceAnalyzer.analyze(recording)
        #expect(result.traceErrors.isEmpty, "the recorder writes a consistent trace: \(result.traceErrors)")
        // Wasted-update notes are judged on value previews, a process-wide switch another suite of this
        // process may flip while the capture runs: the recorded corpus (a process per program) judges them.
        let findings = result.findings.filter { $0.kind != .redundantUpdate }
        let sites = findings.map { finding in
            let file = finding.site.map { ($0.file as NSString).lastPathComponent } ?? "?"
            return "\(finding.kind.rawValue)@\(file):\(finding.site?.line ?? 0)"
        }
        let recordsHandles = result.summary.eventsByKind.contains {
            $0.kind == "handleReleased" || $0.kind == "subscriptionContained"
        }
        return (sites.sorted(), findings, recordsHandles, result.state)
    }
}
