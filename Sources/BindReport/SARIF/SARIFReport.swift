import BindAnalysis
import BindText
import BindTraceModel

/// Renders `findings.sarif`: SARIF 2.1.0, as GitHub code scanning and IDE SARIF viewers read it.
struct SARIFReport {
    let content: ReportContent
    let sources: SourceLocationMapping
    let toolVersion: String?

    func render() -> String {
        let kinds = Finding.Kind.allCases
        let rules: [JSONValue] = kinds.map { kind in
            .object([
                ("id", .string(kind.rawValue)),
                ("name", .string(ruleName(kind))),
                ("shortDescription", .object([("text", .string(shortDescription(kind)))])),
                ("fullDescription", .object([("text", .string(kind.explanation))])),
                ("help", .object([("text", .string(kind.explanation))])),
                ("defaultConfiguration", .object([("level", .string(level(kind.severity)))])),
            ])
        }
        let results: [JSONValue] = content.findings.enumerated().map { index, finding in
            let fingerprint = FindingFingerprint.of(finding)
            var members: [(String, JSONValue)] = [
                ("ruleId", .string(finding.kind.rawValue)),
                ("ruleIndex", .number(kinds.firstIndex(of: finding.kind) ?? 0)),
                ("level", .string(level(finding.severity))),
                ("message", .object([("text", .string(finding.message))])),
            ]
            if let site = finding.site { members.append(("locations", .array([location(site, message: nil)]))) }
            if !finding.related.isEmpty {
                let related = finding.related.enumerated().map { index, related in
                    location(related.site, message: related.note, id: index + 1)
                }
                members.append(("relatedLocations", .array(related)))
            }
            // Stable across runs and unrelated edits, so code scanning tells a new finding from an old one.
            members.append(
                ("partialFingerprints", .object([("bindFinding/\(FindingFingerprint.version)", .string(fingerprint))])))
            if content.hasBaseline {
                let known = content.baselinedFingerprints.contains(fingerprint)
                members.append(("baselineState", .string(known ? "unchanged" : "new")))
            }
            var properties: [(String, JSONValue)] = [("event", .number(Int(clamping: finding.event)))]
            if index < content.findingTraces.count {
                properties.append(("traces", .array(content.findingTraces[index].map { .string($0) })))
            }
            do {
                let why = finding.whyCommand(
                    trace: content.trace(ofFindingAt: index), fingerprint: FindingFingerprint.of(finding))
                properties.append(("why", .string(why)))
            }
            if !finding.outputs.isEmpty {
                properties.append(("outputs", .array(finding.outputs.map { .number(Int(clamping: $0)) })))
            }
            if !finding.subscriptions.isEmpty {
                properties.append(("subscriptions", .array(finding.subscriptions.map { .number(Int(clamping: $0)) })))
            }
            members.append(("properties", .object(properties)))
            return .object(members)
        }
        var driver: [(String, JSONValue)] = [("name", .string("bind-trace"))]
        if let toolVersion { driver.append(("version", .string(toolVersion))) }
        driver.append(("rules", .array(rules)))
        var run: [(String, JSONValue)] = [("tool", .object([("driver", .object(driver))]))]
        if let base = sources.uriBaseID, let root = sources.sourceRootURI {
            run.append(("originalUriBaseIds", .object([(base, .object([("uri", .string(root))]))])))
        }
        run.append(("artifacts", .array(artifacts())))
        run.append(("results", .array(results)))
        run.append(("properties", .object([("trace", .string(content.traceFile))])))
        let document: JSONValue = .object([
            ("$schema", .string("https://json.schemastore.org/sarif-2.1.0.json")),
            ("version", .string("2.1.0")),
            ("runs", .array([.object(run)])),
        ])
        return document.prettyText + "\n"
    }

    private func artifacts() -> [JSONValue] {
        var seen: Set<String> = []
        var result: [JSONValue] = []
        for finding in content.findings {
            for site in [finding.site].compactMap({ $0 }) + finding.related.map(\.site) {
                let uri = sources.uri(for: site.file)
                guard seen.insert(uri).inserted else { continue }
                result.append(.object([("location", artifactLocation(uri))]))
            }
        }
        return result
    }

    private func artifactLocation(_ uri: String) -> JSONValue {
        var members: [(String, JSONValue)] = [("uri", .string(uri))]
        if let base = sources.uriBaseID { members.append(("uriBaseId", .string(base))) }
        return .object(members)
    }

    private func location(_ site: SourceSite, message: String?, id: Int? = nil) -> JSONValue {
        var members: [(String, JSONValue)] = []
        if let id { members.append(("id", .number(id))) }
        members.append(
            (
                "physicalLocation",
                .object([
                    ("artifactLocation", artifactLocation(sources.uri(for: site.file))),
                    ("region", .object([("startLine", .number(Int(clamping: max(1, site.line))))])),
                ])
            ))
        members.append(("logicalLocations", .array([.object([("fullyQualifiedName", .string(site.description))])])))
        if let message { members.append(("message", .object([("text", .string(message))]))) }
        return .object(members)
    }

    private func level(_ severity: Finding.Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .note: "note"
        }
    }

    /// `LeakedSubscription`: SARIF's `name` is a PascalCase identifier.
    private func ruleName(_ kind: Finding.Kind) -> String {
        kind.rawValue.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    private func shortDescription(_ kind: Finding.Kind) -> String {
        switch kind {
        case .leakedSubscription: "A subscription outlived the scope that bound it."
        case .leakedOutput: "An Output outlived the scope that created it."
        case .retainCycle: "A bound closure captures its Output's owner strongly: none of them is released."
        case .duplicateBinding: "The same Output is bound several times to the same target from one line."
        case .danglingBinder: "A Binder still receives values after its target is gone."
        case .feedbackCycle: "An Output was updated again while its own update was propagating."
        case .structuralCycle: "Derived Outputs depend on each other in a circle."
        case .glitch: "One update reached a combine or merge through two paths and delivered an inconsistent value."
        case .redundantUpdate: "Updates delivered the value the Output already had."
        case .stoppedCombine: "A combine stopped for good because a source was released while it was bound."
        }
    }
}
