import BindAnalysis
import BindText
import BindTraceModel

// `bind-trace diff --format json`: one object, schema in docs/schemas/diff.schema.json.

extension RunDiff {
    /// The version of the JSON form; it changes when a member changes meaning or goes.
    package static var jsonVersion: Int { 1 }

    package var json: JSONValue {
        .object([
            ("version", .number(Self.jsonVersion)),
            ("base", Self.json(base)),
            ("head", Self.json(head)),
            (
                "threshold",
                .object([("ratio", .double(threshold.ratio)), ("minimumIncrease", .uint(threshold.minimumIncrease))])
            ),
            (
                "findings",
                .object([
                    ("new", .array(newFindings.map(Self.json))),
                    ("fixed", .array(fixedFindings.map(Self.json))),
                    ("unchanged", .array(unchangedFindings.map(Self.json))),
                ])
            ),
            (
                "sites",
                .object([
                    ("added", .array(addedSites.map { Self.json($0, counts: head.counts(of: $0)) })),
                    ("removed", .array(removedSites.map { Self.json($0, counts: base.counts(of: $0)) })),
                    ("changed", .array(changedSites.map(Self.json))),
                ])
            ),
            (
                "edges",
                .object([
                    ("added", .array(addedEdges.map(Self.json))),
                    ("removed", .array(removedEdges.map(Self.json))),
                ])
            ),
            (
                "summary",
                .object([
                    ("newFindings", .number(newFindings.count)), ("fixedFindings", .number(fixedFindings.count)),
                    ("unchangedFindings", .number(unchangedFindings.count)), ("grownSites", .number(grown.count)),
                    ("addedSites", .number(addedSites.count)), ("removedSites", .number(removedSites.count)),
                    ("addedEdges", .number(addedEdges.count)), ("removedEdges", .number(removedEdges.count)),
                    ("complete", .bool(base.incomplete.isEmpty && head.incomplete.isEmpty)),
                ])
            ),
        ])
    }

    private static func json(_ side: DiffSide) -> JSONValue {
        .object([
            ("name", .string(side.name)),
            ("files", .array(side.paths.map { .string($0) })),
            ("events", .uint(side.events)),
            ("complete", .bool(side.incomplete.isEmpty)),
            (
                "incomplete",
                .array(side.incomplete.map { .object([("file", .string($0.path)), ("reason", .string($0.reason))]) })
            ),
        ])
    }

    private static func json(_ finding: DiffFinding) -> JSONValue {
        let finding0 = finding.finding
        return .object([
            ("fingerprint", .string(finding.fingerprint)),
            ("kind", .string(finding0.kind.rawValue)),
            ("severity", .string(finding0.severity.rawValue)),
            ("message", .string(finding0.message)),
            ("site", finding0.site.map(json) ?? .null),
        ])
    }

    static func json(_ site: SourceSite) -> JSONValue {
        .object([("file", .string(site.file)), ("line", .uint(UInt64(site.line)))])
    }

    private static func json(_ output: SiteProfile.OutputSite) -> JSONValue {
        .object([
            ("kind", .string(output.kind.description)), ("valueType", .string(output.valueType)),
            ("label", output.label.map { .string($0) } ?? .null), ("site", json(output.site)),
        ])
    }

    private static func json(_ site: DiffSite) -> [(String, JSONValue)] {
        var members: [(String, JSONValue)] = [
            ("role", .string(site.role)), ("name", .string(site.name)), ("site", json(site.location)),
        ]
        switch site {
        case .output(let output): members.append(("output", json(output)))
        case .binding(let binding):
            members.append(("output", json(binding.output)))
            switch binding.subscriber {
            case .closure: members.append(("subscriber", .string("closure")))
            case .binder(let type): members.append(("subscriber", .string("binder:" + type)))
            }
        }
        return members
    }

    private static func json(_ site: DiffSite, counts: SiteCounts) -> JSONValue {
        .object(json(site) + [("counts", json(counts))])
    }

    static func json(_ counts: SiteCounts) -> JSONValue {
        .object(SiteMetric.allCases.map { ($0.rawValue, .uint(counts[$0])) })
    }

    private static func json(_ change: SiteChange) -> JSONValue {
        let metrics = SiteMetric.allCases.map { metric -> (String, JSONValue) in
            (
                metric.rawValue,
                .object([
                    ("base", .uint(change.base[metric])), ("head", .uint(change.head[metric])),
                    ("ratio", change.ratio(metric).map { .double($0) } ?? .null),
                    ("grown", .bool(change.grown.contains(metric))),
                ])
            )
        }
        return .object(
            json(change.site) + [
                ("grown", .array(change.grown.map { .string($0.rawValue) })), ("metrics", .object(metrics)),
            ])
    }

    private static func json(_ edge: SiteProfile.Edge) -> JSONValue {
        .object([
            ("operation", .string(edge.operation.description)), ("name", .string(edge.name)),
            ("source", json(edge.source)), ("derived", json(edge.derived)),
        ])
    }
}

extension DiffSide {
    /// The counts of `site` in this run (zero when it has none).
    package func counts(of site: DiffSite) -> SiteCounts {
        switch site {
        case .output(let output): profile.outputs[output] ?? SiteCounts()
        case .binding(let binding): profile.bindings[binding] ?? SiteCounts()
        }
    }
}
