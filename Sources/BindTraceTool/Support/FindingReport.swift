import BindOutput
import ArgumentParser
import BindAnalysis
import BindTraceModel

/// Prints findings for editors, CI logs and scripts, and chooses the exit status.
struct FindingReport {
    let path: String
    let result: AnalysisResult

    /// Prints the report and throws `ExitCode(1)` when there are findings.
    func print(format: OutputFormat) throws {
        result.reportProblems(path: path)
        switch format {
        case .text: printText()
        case .json: StandardOutput.shared.jsonLine(json().compactText)
        }
        if !result.findings.isEmpty { throw ExitCode(1) }
    }

    private func printText() {
        let out = StandardOutput.shared
        for finding in result.findings {
            out.line(finding.compilerStyle)
            for related in finding.related {
                out.line("    \(related.site.file):\(related.site.line): note: \(related.note)")
            }
        }
        let events = "\(result.summary.events) events"
        if result.findings.isEmpty {
            out.line("bind-trace: \(path): no findings (\(events))")
        } else {
            let counts = result.summary.findingsByKind.map { "\($0.count) \($0.kind.rawValue)" }
            let total = result.findings.count == 1 ? "1 finding" : "\(result.findings.count) findings"
            out.line("bind-trace: \(path): \(total) (\(counts.joined(separator: ", "))) in \(events)")
        }
    }

    func json() -> JSONValue {
        .object([
            ("findings", .array(result.findings.map(Self.json))),
            ("summary", summaryJSON()),
            ("traceErrors", .array(result.traceErrors.map(Self.json))),
            ("warnings", .array(result.warnings.map { .object([("offset", .int(Int64($0.offset))), ("message", .string($0.message))]) })),
        ])
    }

    private func summaryJSON() -> JSONValue {
        let summary = result.summary
        return .object([
            ("file", .string(path)),
            ("events", .uint(summary.events)),
            ("findings", .int(Int64(result.findings.count))),
            ("byKind", .object(summary.findingsByKind.map { ($0.kind.rawValue, .int(Int64($0.count))) })),
            ("errors", .int(Int64(result.findings.filter { $0.severity == .error }.count))),
            ("warnings", .int(Int64(result.findings.filter { $0.severity == .warning }.count))),
            ("traceErrors", .int(Int64(summary.traceErrors))),
            ("complete", .bool(summary.isComplete)),
            ("durationNanoseconds", .uint(summary.duration)),
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
            ("offset", .int(Int64(error.offset))), ("message", .string(error.message)),
        ])
    }
}
