@_spi(Harness) import BindAnalysis
import BindReport
import BindText
import BindTraceModel

/// `bind-trace why TRACE --finding N|FINGERPRINT`: the life of one finding (``FindingStory``), then
/// the causal chain of the event that explains it best.
extension WhyCommand {
    func explainFinding(_ selector: String, in path: String) throws {
        let (finding, state) = try self.finding(selector, in: path)
        var story = FindingStory(finding)
        try stream(path) { event in
            story.consume(event)
            return false
        }
        story.finish()
        let keptAliveBy = ReferencePath.describe(finding, in: state)
        let chain = story.explainedEvent == 0 ? nil : try? trace(WhyTarget(event: story.explainedEvent), in: path)
        switch format {
        case .text:
            for line in Self.lines(story, keptAliveBy: keptAliveBy, chain: chain) {
                StandardOutput.shared.line(line)
            }
        case .json:
            let document = JSONValue.object([
                ("version", .number(WhyJSON.version)),
                ("trace", .string(path)),
                ("fingerprint", .string(FindingFingerprint.of(finding))),
                ("kind", .string(finding.kind.rawValue)),
                ("site", finding.site.map { .string($0.description) } ?? .null),
                ("message", .string(finding.message)),
                (
                    "life",
                    .array(
                        story.moments.map { moment in
                            .object([
                                ("event", .uint(moment.event)), ("text", .string(moment.text)),
                                ("site", moment.site.map { .string($0.description) } ?? .null),
                            ])
                        })
                ),
                ("updatesAfterScope", .uint(story.updatesAfterScope.count)),
                ("keptAliveBy", keptAliveBy.map { .string($0) } ?? .null),
                ("fix", .string(story.fix)),
                ("chain", chain.map { WhyJSON.document($0, trace: path) } ?? .null),
            ])
            StandardOutput.shared.jsonLine(document.compactText)
        }
    }

    /// The finding a selector names: its number in `check`'s list (from 1), or its fingerprint; with
    /// the state at the end of the trace. Findings judged at exit (`check --at-exit`) are looked up
    /// too, after the others.
    private func finding(_ selector: String, in path: String) throws -> (Finding, GraphState) {
        var counts: [Int] = []
        for atExit in [false, true] {
            var options = AnalysisOptions()
            options.atExit = atExit
            let result: AnalysisResult
            do throws(TraceReadError) {
                result = try TraceAnalyzer.analyze(path: path, options: options)
            } catch {
                throw ToolFailure(path: path, error)
            }
            let findings = result.findings
            if let number = Int(selector) {
                guard number >= 1, number <= findings.count else {
                    if atExit { break }
                    counts.append(findings.count)
                    continue
                }
                return (findings[number - 1], result.state)
            }
            if let found = findings.first(where: { FindingFingerprint.of($0) == selector.lowercased() }) {
                return (found, result.state)
            }
            counts.append(findings.count)
        }
        let known = counts.first ?? 0
        if Int(selector) != nil {
            throw ToolFailure(
                "\(path): there is no finding \(selector) (the trace has \(known); they are numbered from 1)")
        }
        throw ToolFailure(
            "\(path): no finding has the fingerprint '\(Narrator.shortened(selector))' (bind-trace check \(path) "
                + "--format json lists each finding's fingerprint)")
    }

    static func lines(_ story: FindingStory, keptAliveBy: String?, chain: WhyChain?) -> [String] {
        let finding = story.finding
        var lines = [finding.compilerStyle, "", "its life:"]
        for moment in story.moments {
            lines.append("  #\(moment.event): \(moment.text)")
        }
        if story.moments.count == FindingStory.maximumMoments { lines.append("  … (more not shown)") }
        let after = story.updatesAfterScope
        if after.count > 0 {
            lines.append(
                "  after its scope ended it received \(Narrator.count(after.count, "update")) "
                    + "(events #\(after.first)…#\(after.last))")
        }
        if let keptAliveBy { lines += ["", "kept alive by: \(keptAliveBy)"] }
        lines += ["", "fix: \(story.fix)"]
        if let chain {
            lines += ["", "how event \(chain.selected) came about:"]
            lines += WhyText.lines(chain).map { "  " + $0 }
        }
        return lines
    }
}
