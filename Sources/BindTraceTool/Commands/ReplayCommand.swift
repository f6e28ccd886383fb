import ArgumentParser
import BindAnalysis
import BindOutput
import BindTraceModel

/// `bind-trace replay TRACE…`: the story of the trace, nested by cause, or the state at one moment.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Print what happened, each event indented under the subscription whose closure caused it.",
        discussion: """
            With --at SEQ, print the graph as it was right after event SEQ instead: the Outputs alive, \
            their edges and the subscriptions bound. Filters keep the events (or state) that involve a \
            matching Output.
            """)

    @OptionGroup var traces: TraceOptions

    @Option(help: ArgumentHelp("Show the state right after this event instead of the story.", valueName: "seq"))
    var at: UInt64?

    @Option(name: .customLong("output"), help: ArgumentHelp("Only events of this Output id (repeatable).", valueName: "id"))
    var outputs: [UInt64] = []

    @Option(help: "Only events of Outputs whose label contains this text.")
    var label: String?

    @Option(help: ArgumentHelp("Only events of Outputs or bindings whose site contains this text (File.swift:42).", valueName: "site"))
    var site: String?

    private var isFiltered: Bool { !outputs.isEmpty || label != nil || site != nil }

    func run() throws {
        if at != nil {
            try replay(try traces.single("replay --at"))
            return
        }
        let inputs = try traces.inputs()
        for (index, input) in inputs.enumerated() {
            if inputs.count > 1 {
                if index > 0 { StandardOutput.shared.line() }
                StandardOutput.shared.line("== \(input.path) ==")
            }
            try replay(input.path)
        }
    }

    /// Tells the story of one trace, or prints its state at `--at`.
    private func replay(_ file: String) throws {
        let replay = Replay()
        let reader: TraceReader
        do {
            reader = try TraceReader(path: file)
        } catch {
            throw ToolFailure(path: file, error)
        }
        let progress = ProgressLine(path: file, mode: traces.progress)
        var count: UInt64 = 0
        let story = StoryTeller(replay: replay)
        var reached = at == 0
        do {
            if at == 0 {
                // The state before the first event: nothing.
            } else {
                while let event = try reader.next() {
                    count += 1
                    progress.update(bytesRead: reader.bytesRead, events: count)
                    if let at {
                        replay.apply(event)
                        if event.sequence == at {
                            reached = true
                            break
                        }
                        continue
                    }
                    let line = story.describe(event)
                    replay.apply(event)
                    if !isFiltered || matches(line.outputs, sites: line.sites, labels: story.labels) {
                        StandardOutput.shared.line(story.format(event, line, depth: replay.lastDepth))
                    }
                }
            }
        } catch {
            throw ToolFailure(path: file, error)
        }
        progress.finish()
        for warning in reader.warnings { StandardError.write("bind-trace: \(file): warning: \(warning)") }
        for error in replay.errors.prefix(20) { StandardError.write("bind-trace: \(file): inconsistent trace: \(error)") }
        if let at {
            guard reached else {
                throw ToolFailure("\(file): there is no event \(at) (the trace has \(replay.lastSequence))")
            }
            printState(replay.snapshot())
        }
    }

    private func matches(_ ids: [UInt64], sites: [SourceSite], labels: [UInt64: String] = [:]) -> Bool {
        if !outputs.isEmpty, ids.contains(where: outputs.contains) { return true }
        if let site, sites.contains(where: { $0.description.contains(site) }) { return true }
        if let label {
            return ids.contains { id in
                // The label as it is now: the replay knows it while the Output lives.
                labels[id]?.contains(label) == true
            }
        }
        return false
    }

    private func printState(_ state: GraphState) {
        let out = StandardOutput.shared
        let shownOutputs = state.outputs.filter { output in
            !isFiltered || matches([output.id], sites: [output.site])
                || (label != nil && output.label?.contains(label!) == true)
        }
        let shown = Set(shownOutputs.map(\.id))
        out.line("state after event #\(state.sequence):")
        out.line("Outputs (\(shownOutputs.count)):")
        for output in shownOutputs {
            var line = "  #\(output.id) \(output.displayName) \(output.kind) at \(output.site)"
            line += ", \(output.updateCount) update\(output.updateCount == 1 ? "" : "s")"
            if let preview = output.lastPreview { line += ", last \(preview)" }
            if output.scope != 0, let scope = state.scopes.first(where: { $0.id == output.scope }) {
                line += ", scope '\(scope.name)'"
            }
            if output.isPreexisting { line += ", created before the recording" }
            out.line(line)
        }
        let edges = state.edges.filter { shown.contains($0.source) || shown.contains($0.derived) }
        if !edges.isEmpty {
            out.line("edges (\(edges.count)):")
            for edge in edges {
                let role =
                    switch edge.role {
                    case .operator: "\(edge.operation)"
                    case .currentInner: "flatMap, current inner"
                    case .pastInner: "flatMap, past inner"
                    }
                out.line("  #\(edge.source) → #\(edge.derived) (\(role))")
            }
        }
        let subscriptions = state.subscriptions.filter {
            shown.contains($0.output) || (site != nil && $0.site.description.contains(site!))
        }
        out.line("subscriptions (\(subscriptions.count)):")
        for subscription in subscriptions {
            out.line("  \(subscription.id) on #\(subscription.output) at \(subscription.site) (\(StoryTeller.origin(subscription)))")
        }
        let open = state.scopes.filter { $0.endedAt == nil }
        if !open.isEmpty {
            out.line("open scopes: " + open.map { "'\($0.name)' (#\($0.id))" }.joined(separator: ", "))
        }
    }
}

/// Turns events into lines of the story.
final class StoryTeller {
    struct Line {
        var text: String
        /// The Outputs the event involves, for filters.
        var outputs: [UInt64]
        var sites: [SourceSite]
        var via: String?
    }

    let replay: Replay
    /// Labels of live Outputs, for `--label` (kept here: the filter runs after the event is applied,
    /// when a released Output is gone from the replay).
    private(set) var labels: [UInt64: String] = [:]

    /// Indentation stops growing at this depth; deeper lines say their depth instead (`… depth 1,024`),
    /// so a 100,000-deep causal chain prints in output linear in its events.
    static let maximumIndentDepth = 32

    init(replay: Replay) { self.replay = replay }

    /// Describes `event` with the names the Outputs have before it is applied.
    func describe(_ event: TraceEvent) -> Line {
        var line: Line
        switch event.kind {
        case .outputCreated(let creation):
            let name = OutputStateName.name(creation)
            if let label = creation.label { labels[creation.output] = label }
            line = Line(
                text: creation.preexisting
                    ? "existing \(name) from \(creation.site) (created before the recording)"
                    : "create \(name) at \(creation.site)\(scopeText(creation.scope))",
                outputs: [creation.output], sites: [creation.site])
        case .edge(let source, let derived, let operation):
            line = Line(text: "\(name(derived)) is \(operation) of \(name(source))", outputs: [source, derived], sites: [])
        case .innerSwitch(let flatMap, let inner):
            line = Line(text: "\(name(flatMap)) now forwards \(name(inner))", outputs: [flatMap, inner], sites: [])
        case .bound(let binding):
            let what =
                binding.isInternal ? "operator" : binding.target.map { "Binder to \($0.type)" } ?? "closure"
            line = Line(
                text: binding.preexisting
                    ? "existing subscription \(binding.subscription) (\(what)) on \(name(binding.output)) from \(binding.site)"
                    : "bind subscription \(binding.subscription) (\(what)) to \(name(binding.output)) at \(binding.site)"
                        + scopeText(binding.scope),
                outputs: [binding.output], sites: [binding.site])
        case .updated(let output, _, let preview):
            line = Line(
                text: "update \(name(output))" + (preview.map { " = \($0)" } ?? ""), outputs: [output],
                sites: siteOf(output))
        case .fired(let output, _, let preview):
            line = Line(
                text: "fire \(name(output))" + (preview.map { " = \($0)" } ?? ""), outputs: [output], sites: siteOf(output))
        case .unbound(let subscription, let reason, _):
            let state = replay.subscriptionState(subscription)
            line = Line(
                text: "unbind subscription \(subscription)" + (state.map { " from \(name($0.output))" } ?? "") + " (\(reason))",
                outputs: state.map { [$0.output] } ?? [], sites: state.map { [$0.site] } ?? [])
        case .dangling(let subscription):
            let state = replay.subscriptionState(subscription)
            line = Line(
                text: "deliver to a gone \(state?.target?.type ?? "target") through subscription \(subscription)"
                    + (state.map { " bound at \($0.site)" } ?? ""),
                outputs: state.map { [$0.output] } ?? [], sites: state.map { [$0.site] } ?? [])
        case .released(let output):
            line = Line(text: "release \(name(output))", outputs: [output], sites: siteOf(output))
            labels[output] = nil
        case .scopeBegan(let id, _, let name, let site):
            line = Line(text: "begin scope '\(name)' (#\(id)) at \(site)", outputs: [], sites: [site])
        case .scopeEnded(let id):
            line = Line(text: "end scope #\(id)", outputs: [], sites: [])
        case .mark(let name, _):
            line = Line(text: "mark '\(name)'", outputs: [], sites: [])
        case .labeled(let output, let label):
            line = Line(text: "label \(name(output)) '\(label)'", outputs: [output], sites: siteOf(output))
            labels[output] = label
        case .subscriptionContained(let subscription, let container):
            line = Line(text: "add subscription \(subscription) to container #\(container)", outputs: [], sites: [])
        case .handleReleased(let subscription):
            line = Line(text: "release the handle of subscription \(subscription) (still bound)", outputs: [], sites: [])
        }
        if let cause = event.kind.cause, let subscription = replay.subscriptionState(cause.subscription) {
            line.via = "via \(subscription.id) at \(subscription.site)"
            line.sites.append(subscription.site)
        }
        return line
    }

    /// `#12  0.001234  t1  ····update 'name' (String)   ← via 3 at App/View.swift:20`
    func format(_ event: TraceEvent, _ line: Line, depth: Int) -> String {
        let sequence = "#\(event.sequence)"
        let paddedSequence = sequence + String(repeating: " ", count: max(1, 9 - sequence.count))
        let seconds = Double(event.time) / 1e9
        let time = String(Int(seconds)) + "." + fraction(seconds)
        var indent = String(repeating: "  ", count: min(depth, Self.maximumIndentDepth))
        if depth > Self.maximumIndentDepth { indent += "… depth \(Self.grouped(depth)) " }
        let via = line.via.map { "   ← \($0)" } ?? ""
        return "\(paddedSequence)\(time)  t\(event.thread)  \(indent)\(line.text)\(via)"
    }

    /// `1024` as `1,024`.
    static func grouped(_ number: Int) -> String { NumberText.grouped(number) }

    private func fraction(_ seconds: Double) -> String {
        let micros = Int(((seconds - Double(Int(seconds))) * 1e6).rounded()) % 1_000_000
        let text = String(micros)
        return String(repeating: "0", count: 6 - text.count) + text
    }

    private func name(_ output: UInt64) -> String {
        replay.outputState(output)?.displayName ?? "Output #\(output)"
    }

    private func siteOf(_ output: UInt64) -> [SourceSite] {
        replay.outputState(output).map { [$0.site] } ?? []
    }

    private func scopeText(_ scope: UInt64) -> String {
        scope == 0 ? "" : " in scope #\(scope)"
    }

    static func origin(_ subscription: SubscriptionState) -> String {
        if subscription.isInternal { return "operator" }
        if let target = subscription.target { return "Binder to \(target.type)" }
        return "closure"
    }
}

/// Names an Output from its creation event, before the replay knows it.
enum OutputStateName {
    static func name(_ creation: TraceEvent.OutputCreation) -> String {
        if let label = creation.label { return "'\(label)' (\(creation.valueType)) #\(creation.output)" }
        switch creation.kind {
        case .output: return "Output #\(creation.output) (\(creation.valueType))"
        case .relay: return "Relay #\(creation.output) (\(creation.valueType))"
        default: return "\(creation.kind) #\(creation.output) (\(creation.valueType))"
        }
    }
}
