@_spi(Harness) import BindTraceModel

/// A glitch through a long chain: 'email' (1) reaches 'can submit' (4, a combine) through `length`
/// unlabelled maps made at one line (App/Others.swift:51, ids 100…) and 'valid' (2), and directly through
/// 'long enough' (3). One root update reaches the combine twice, the first time half-updated. With
/// `releasingEverything`, every Output is then released, as a program that cleans up before it exits.
package struct ChainGlitchTrace {
    private var writer = TraceWriter()
    private var nextSubscription: UInt64 = 1

    package init(length: Int, releasingEverything: Bool = false) {
        writer.thread(1, name: "main")
        output(1, .output, "String", file: "App/Form.swift", line: 3, label: "email")
        let chain = (0..<UInt64(length)).map { 100 + $0 }
        for id in chain { output(id, .map, "Int", file: "App/Others.swift", line: 51, label: nil) }
        output(2, .map, "Bool", file: "App/Form.swift", line: 5, label: "valid")
        output(3, .map, "Bool", file: "App/Form.swift", line: 6, label: "long enough")
        output(4, .combine, "(Bool, Bool)", file: "App/Form.swift", line: 7, label: "can submit")
        let path: [UInt64] = [1] + chain + [2, 4]
        var subscriptionInto: [UInt64: UInt64] = [:]
        for (source, derived) in zip(path, path.dropFirst()) { subscriptionInto[derived] = link(source, derived) }
        let direct = link(1, 3)
        let other = link(3, 4)

        let root = writer.event(.updated(output: 1, cause: nil, preview: "ada@example.com"))
        var previous = root
        for id in chain + [2] {
            previous = writer.event(
                .updated(
                    output: id, cause: TraceCause(subscription: subscriptionInto[id]!, event: previous), preview: "1"))
        }
        writer.event(
            .updated(
                output: 4, cause: TraceCause(subscription: subscriptionInto[4]!, event: previous),
                preview: "(true, false)"))
        let second = writer.event(
            .updated(output: 3, cause: TraceCause(subscription: direct, event: root), preview: "true"))
        writer.event(
            .updated(output: 4, cause: TraceCause(subscription: other, event: second), preview: "(true, true)"))
        if releasingEverything {
            for id in [4, 3, 2] + chain.reversed() + [1] { writer.event(.released(output: id)) }
        }
        writer.end()
    }

    package var bytes: [UInt8] { writer.bytes }

    private mutating func output(
        _ id: UInt64, _ kind: OutputKind, _ type: String, file: String, line: UInt, label: String?
    ) {
        writer.event(
            .outputCreated(
                TraceEvent.OutputCreation(
                    output: id, kind: kind, valueType: type, site: SourceSite(file: file, line: line), label: label)))
    }

    /// The edge and the operator's internal subscription; returns the subscription's id.
    private mutating func link(_ source: UInt64, _ derived: UInt64) -> UInt64 {
        let operation: OutputKind = derived == 4 ? .combine : .map
        writer.event(.edge(source: source, derived: derived, operation: operation))
        let subscription = nextSubscription
        nextSubscription += 1
        writer.event(
            .bound(
                TraceEvent.Binding(
                    subscription: subscription, output: source, site: SourceSite(file: "App/Form.swift", line: 9),
                    isInternal: true)))
        return subscription
    }
}
