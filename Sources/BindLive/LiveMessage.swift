@_spi(Harness) import BindAnalysis
import BindText
import BindTraceModel

/// The state of one followed trace as a live page receives it: one JSON object, bounded in size
/// (``LiveLimits``), sent whole whenever the trace changed.
///
/// A page that connects late, or that fell behind, gets the same object: the current state is the
/// summary, so a server never queues more than one message per trace for a page. Every string from the
/// trace is JSON-escaped here and placed as text by the page (`textContent`), never as markup.
package enum LiveMessage {
    /// `{"trace":…,"status":…,"counters":…,"outputs":[…],"edges":[…],"findings":[…],"events":[…]}`.
    package static func state(of follower: TraceFollower, index: Int, name: String) -> String {
        let limits = follower.limits
        let graph = follower.snapshot()
        // The newest Outputs (by creation), shown in creation order.
        let outputs =
            graph.outputs.count > limits.outputs
            ? Array(graph.outputs.sorted { $0.createdAt < $1.createdAt }.suffix(limits.outputs)) : graph.outputs
        let shown = Set(outputs.map(\.id))
        let edges = graph.edges.filter { shown.contains($0.source) && shown.contains($0.derived) }.prefix(limits.edges)
        var bound: [UInt64: Int] = [:]
        for subscription in graph.subscriptions {
            bound[subscription.output, default: 0] += 1
        }
        let counters = follower.counters
        let object: JSONValue = .object([
            ("trace", .number(index)),
            ("name", .string(name)),
            ("run", .number(follower.run)),
            ("segment", follower.segment.map { .uint($0) } ?? .null),
            ("status", .string(follower.status.word)),
            ("statusText", .string(follower.sentence)),
            ("sequence", .uint(graph.sequence)),
            (
                "counters",
                .object([
                    ("events", .uint(counters.events)),
                    ("outputs", .number(counters.liveOutputs)),
                    ("subscriptions", .number(counters.boundSubscriptions)),
                    ("findings", .number(counters.findings)),
                    ("outputsShown", .number(outputs.count)),
                ])
            ),
            (
                "outputs",
                .array(
                    outputs.map { output in
                        .object([
                            ("id", .uint(output.id)),
                            ("name", .string(Narrator.name(of: output))),
                            ("kind", .string("\(output.kind)")),
                            ("site", .string("\(output.site)")),
                            ("updates", .uint(output.updateCount)),
                            ("value", output.lastPreview.map { .string(Narrator.shortened($0)) } ?? .null),
                            ("subscriptions", .number(bound[output.id] ?? 0)),
                        ])
                    })
            ),
            (
                "edges",
                .array(
                    edges.map { edge in
                        .object([
                            ("source", .uint(edge.source)), ("derived", .uint(edge.derived)),
                            ("operation", .string("\(edge.operation)")), ("role", .string(edge.role.rawValue)),
                        ])
                    })
            ),
            (
                "findings",
                .array(
                    follower.findings.prefix(limits.findings).map { finding in
                        .object([
                            ("kind", .string(finding.kind.rawValue)),
                            ("severity", .string(finding.severity.rawValue)),
                            ("site", finding.site.map { .string("\($0)") } ?? .null),
                            ("message", .string(finding.message)),
                            ("event", .uint(finding.event)),
                        ])
                    })
            ),
            (
                "events",
                .array(
                    follower.recent.lines.map { line in
                        .object([
                            ("sequence", .uint(line.sequence)), ("kind", .string(line.kind)),
                            ("text", .string(line.text)),
                        ])
                    })
            ),
            ("warnings", .array(follower.warnings.map { .string($0) })),
        ])
        return object.compactText
    }
}
