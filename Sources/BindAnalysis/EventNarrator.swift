@_spi(Harness) import BindTraceModel

/// Tells a trace's events one line each, naming Outputs, subscriptions and scopes as ``Narrator``
/// does, so `bind-trace replay`'s story and the report's event table read the same.
///
/// Feed it every event in order: it keeps the names of live Outputs, subscriptions and scopes (and
/// forgets them when they end), so its memory follows what is alive, not the trace's length. Every
/// string from the trace is quoted shortened (``Narrator/shortened(_:)``): a trace is untrusted, and
/// a line per event must not copy a long label each time.
package struct EventNarrator {
    /// One event told.
    package struct Line {
        /// `update 'email' (String) = "ada"`.
        package var text: String
        /// The Outputs the event involves (for filters).
        package var outputs: [UInt64]
        /// The sites the event involves: the Output's creation, the bind, the causing subscription.
        package var sites: [SourceSite]
        /// `via subscription 3 bound at App/View.swift:20`: the subscription whose closure caused it.
        package var via: String?
        /// The labels of the Outputs involved, before or after the event (a release's, a relabel's).
        package var labels: [String] = []
    }

    private struct OutputEntry {
        var kind: OutputKind
        var valueType: String
        var site: SourceSite
        var label: String?
        var name: String { Narrator.name(kind: kind, valueType: valueType, site: site, label: label) }
    }

    private struct SubscriptionEntry {
        var output: UInt64
        var site: SourceSite
        var what: String
    }

    private var outputs: [UInt64: OutputEntry] = [:]
    private var subscriptions: [UInt64: SubscriptionEntry] = [:]
    private var scopes: [UInt64: String] = [:]
    /// Names for Outputs from elsewhere, asked first: a replay's, for a narrator that does not see
    /// every event (the live page tells only each batch's newest).
    private let outputNames: ((UInt64) -> String?)?

    package init() { outputNames = nil }

    /// A narrator that names Outputs by `outputNames` first (then by what it has seen created).
    package init(outputNames: @escaping (UInt64) -> String?) { self.outputNames = outputNames }

    /// Tells `event` with the names things have before it, then remembers what it creates or ends.
    package mutating func tell(_ event: TraceEvent) -> Line {
        var line = describe(event.kind)
        if let cause = event.kind.cause, let subscription = subscriptions[cause.subscription] {
            line.via = "via subscription \(cause.subscription) bound at \(subscription.site)"
            line.sites.append(subscription.site)
        }
        line.labels = line.outputs.compactMap { outputs[$0]?.label }
        remember(event.kind)
        line.labels += line.outputs.compactMap { outputs[$0]?.label }
        return line
    }

    // The kinds whose line is more than a template (EventKinds.toml, `narration = "custom"`); the
    // generated `describe(_:)` (Generated/EventNarrator+Kinds.swift) calls these.

    func describeOutputCreated(_ creation: TraceEvent.OutputCreation) -> Line {
        let entry = OutputEntry(
            kind: creation.kind, valueType: creation.valueType, site: creation.site, label: creation.label)
        // An unlabelled Output's name says where it was made already.
        let name = creation.label == nil ? entry.name : "\(entry.name) at \(creation.site)"
        // A capture beginning during a recording announces again what this trace already created.
        let text =
            !creation.preexisting
            ? "create \(name)\(scopeText(creation.scope))"
            : outputs[creation.output] != nil
                ? "existing \(name) (announced again as a capture begins; created earlier in this trace)"
                : "existing \(name) (created before the recording)"
        return Line(text: text, outputs: [creation.output], sites: [creation.site])
    }

    func describeBound(_ binding: TraceEvent.Binding) -> Line {
        let what = Self.what(binding)
        let again = subscriptions[binding.subscription] != nil ? " (announced again; bound earlier in this trace)" : ""
        let text =
            binding.preexisting
            ? "existing subscription \(binding.subscription) (\(what)) on \(name(binding.output)) from \(binding.site)"
                + again
            : "bind subscription \(binding.subscription) (\(what)) to \(name(binding.output)) at \(binding.site)"
                + scopeText(binding.scope)
        return Line(text: text, outputs: [binding.output], sites: [binding.site])
    }

    func describeUnbound(subscription: UInt64, reason: UnbindReason, cause: TraceCause?) -> Line {
        let entry = subscriptions[subscription]
        return Line(
            text: "unbind subscription \(subscription)" + (entry.map { " from \(name($0.output))" } ?? "")
                + " (\(reason))",
            outputs: entry.map { [$0.output] } ?? [], sites: entry.map { [$0.site] } ?? [])
    }

    func describeDangling(subscription: UInt64) -> Line {
        let entry = subscriptions[subscription]
        return Line(
            text: "deliver through subscription \(subscription)"
                + (entry.map { " (\($0.what)) bound at \($0.site)" } ?? "") + " to a Binder target that is gone",
            outputs: entry.map { [$0.output] } ?? [], sites: entry.map { [$0.site] } ?? [])
    }

    func describeCaptured(subscription: UInt64, captures: [TraceEvent.Capture]) -> Line {
        let held = captures.flatMap { $0.holds.map(\.output) }
        return Line(
            text: "subscription \(subscription)'s closure \(Narrator.captures(captures) { name($0) })",
            outputs: held, sites: [])
    }

    func describeResumed(delivery: TraceCause?, cause: TraceCause?) -> Line {
        let what = delivery.map { "the delivery of event \($0.event) to subscription \($0.subscription)" }
        return Line(
            text: "resume \(what ?? "a delivery begun before the trace"), deferred past Bind's nesting limit",
            outputs: [], sites: [])
    }

    private mutating func remember(_ kind: TraceEvent.Kind) {
        switch kind {
        case .outputCreated(let creation):
            outputs[creation.output] = OutputEntry(
                kind: creation.kind, valueType: creation.valueType, site: creation.site, label: creation.label)
        case .released(let output):
            outputs[output] = nil
        case .labeled(let output, let label):
            outputs[output]?.label = label
        case .bound(let binding):
            subscriptions[binding.subscription] = SubscriptionEntry(
                output: binding.output, site: binding.site, what: Self.what(binding))
        case .unbound(let subscription, _, _):
            subscriptions[subscription] = nil
        case .scopeBegan(let id, _, let name, _):
            scopes[id] = name
        case .scopeEnded(let id):
            scopes[id] = nil
        default:
            break
        }
    }

    /// `closure`, `Binder to Label`, or `operator` for an operator's own subscription.
    private static func what(_ binding: TraceEvent.Binding) -> String {
        if binding.isInternal { return "operator" }
        return binding.target.map { "Binder to \(Narrator.shortened(Narrator.name(of: $0)))" } ?? "closure"
    }

    func name(_ output: UInt64) -> String {
        outputNames?(output) ?? outputs[output]?.name ?? Narrator.unknownOutput(output)
    }

    func site(of output: UInt64) -> [SourceSite] {
        outputs[output].map { [$0.site] } ?? []
    }

    func scopeText(_ scope: UInt64) -> String {
        scope == 0 ? "" : " in scope \(scopeName(scope))"
    }

    func scopeName(_ id: UInt64) -> String {
        scopes[id].map { "'\(Narrator.shortened($0))' (#\(id))" } ?? "#\(id)"
    }

    /// ` = "ada"`; an empty preview (an empty string) would read as nothing at all.
    func shown(_ preview: String?) -> String {
        guard let preview else { return "" }
        return " = " + (preview.isEmpty ? "\"\" (empty)" : Narrator.shortened(preview))
    }
}
