@_spi(Harness) import BindAnalysis
import BindText
@_spi(Harness) import BindTraceModel

/// `bind-trace why --format json`: a ``WhyChain`` as one JSON document. docs/cli.md ("why") gives
/// the schema; a test validates the output against it.
enum WhyJSON {
    /// The schema's version: raised when a member changes meaning or goes.
    static let version = 1

    static func document(_ chain: WhyChain, trace: String) -> JSONValue {
        .object([
            ("version", .number(version)),
            ("trace", .string(trace)),
            ("event", .uint(chain.selected)),
            ("complete", .bool(chain.isComplete)),
            ("chain", .array(chain.steps.map(step))),
            ("deliveredTo", chain.deliveredTo.map(subscription) ?? .null),
        ])
    }

    private static func step(_ step: WhyStep) -> JSONValue {
        .object([
            ("event", .uint(step.event)),
            ("action", .string(step.action.rawValue)),
            ("kind", .string(step.eventName)),
            ("thread", .uint(UInt64(step.thread))),
            ("threadName", step.threadName.map { .string($0) } ?? .null),
            ("timeNanoseconds", .uint(step.time)),
            ("output", step.output.map(output) ?? .null),
            ("value", step.value.map { .string($0) } ?? .null),
            ("previous", step.previous.map { .string($0) } ?? .null),
            ("calledAt", step.calledAt.map { .string($0.description) } ?? .null),
            ("via", step.via.map(hop) ?? .null),
        ])
    }

    private static func output(_ output: WhyOutput) -> JSONValue {
        .object([
            ("id", .uint(output.id)),
            ("name", .string(output.name)),
            ("kind", .string("\(output.kind)")),
            ("valueType", .string(output.valueType)),
            ("site", .string(output.site.description)),
            ("label", output.label.map { .string($0) } ?? .null),
        ])
    }

    private static func subscription(_ subscription: WhySubscription) -> JSONValue {
        .object([
            ("id", .uint(subscription.id)),
            ("output", .uint(subscription.output)),
            ("boundAt", .string(subscription.site.description)),
            ("isOperator", .bool(subscription.isOperator)),
            ("target", subscription.target.map { .string($0.type) } ?? .null),
        ])
    }

    private static func hop(_ hop: WhyHop) -> JSONValue {
        .object([
            ("subscription", .uint(hop.subscriptionID)),
            ("boundAt", hop.subscription.map { .string($0.site.description) } ?? .null),
            ("target", hop.subscription?.target.map { .string($0.type) } ?? .null),
            ("operator", hop.operator.map { .string("\($0)") } ?? .null),
            (
                "contributors",
                .array(
                    hop.contributors.map { contributor in
                        .object([
                            ("output", output(contributor.output)),
                            ("value", contributor.value.map { .string($0) } ?? .null),
                        ])
                    })
            ),
        ])
    }
}
