import ArgumentParser
@_spi(Harness) import BindAnalysis
import BindText
@_spi(Harness) import BindTraceModel

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

    @Option(
        name: .customLong("output-id"),
        help: ArgumentHelp("Only events of the Output with this id (repeatable).", valueName: "id"))
    var outputIDs: [UInt64] = []

    /// The 1.0 spelling: `--output` names the file to write in every other command, so the
    /// selector is `--output-id` now. Kept working, with a warning.
    @Option(name: .customLong("output"), help: .hidden)
    var deprecatedOutputs: [UInt64] = []

    private var outputs: [UInt64] { outputIDs + deprecatedOutputs }

    @Option(help: "Only events of Outputs whose label contains this text.")
    var label: String?

    @Option(
        help: ArgumentHelp(
            "Only events of Outputs or bindings whose site contains this text (File.swift:42).", valueName: "site"))
    var site: String?

    private var isFiltered: Bool { !outputs.isEmpty || label != nil || site != nil }

    func run() throws {
        if !deprecatedOutputs.isEmpty {
            StandardError.write(
                "bind-trace: warning: replay --output is deprecated (--output names the file to write elsewhere); "
                    + "use --output-id ID")
        }
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
        var story = StoryTeller()
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
                    if !isFiltered || matches(line.outputs, sites: line.sites, labels: line.labels) {
                        StandardOutput.shared.line(story.format(event, line, depth: replay.lastDepth))
                    }
                }
            }
        } catch {
            throw ToolFailure(path: file, error)
        }
        progress.finish()
        for warning in reader.warnings { StandardError.write("bind-trace: \(file): warning: \(warning)") }
        for error in replay.errors.prefix(20) {
            StandardError.write("bind-trace: \(file): inconsistent trace: \(error)")
        }
        if let at {
            guard reached else {
                throw ToolFailure("\(file): there is no event \(at) (the trace has \(replay.lastSequence))")
            }
            printState(replay.snapshot())
        }
    }

    /// Whether an event or an Output passes the filters; `labels` are those of the Outputs involved.
    private func matches(_ ids: [UInt64], sites: [SourceSite], labels: [String]) -> Bool {
        if !outputs.isEmpty, ids.contains(where: outputs.contains) { return true }
        if let site, sites.contains(where: { $0.description.contains(site) }) { return true }
        if let label { return labels.contains { $0.contains(label) } }
        return false
    }

    private func printState(_ state: GraphState) {
        let out = StandardOutput.shared
        let shownOutputs = state.outputs.filter { output in
            !isFiltered || matches([output.id], sites: [output.site], labels: output.label.map { [$0] } ?? [])
        }
        let shown = Set(shownOutputs.map(\.id))
        out.line("state after event #\(state.sequence):")
        out.line("Outputs (\(shownOutputs.count)):")
        for output in shownOutputs {
            // An unlabelled Output's name already says its kind and where it was made.
            var line = "  #\(output.id) \(output.displayName)"
            if output.label != nil { line += ", \(output.kind) at \(output.site)" }
            line += ", \(output.updateCount) update\(output.updateCount == 1 ? "" : "s")"
            if let preview = output.lastPreview { line += ", last \(Narrator.shortened(preview))" }
            if output.scope != 0, let scope = state.scopes.first(where: { $0.id == output.scope }) {
                line += ", scope '\(Narrator.shortened(scope.name))'"
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
            out.line(
                "  \(subscription.id) on #\(subscription.output) at \(subscription.site) (\(StoryTeller.origin(subscription)))"
            )
        }
        let open = state.scopes.filter { $0.endedAt == nil }
        if !open.isEmpty {
            out.line(
                "open scopes: " + open.map { "'\(Narrator.shortened($0.name))' (#\($0.id))" }.joined(separator: ", "))
        }
    }
}

/// Formats the story's lines: the events told by ``EventNarrator``, indented by their causal depth.
struct StoryTeller {
    private var narrator = EventNarrator()

    /// Indentation stops growing at this depth; deeper lines say their depth instead (`… depth 1,024`),
    /// so a 100,000-deep causal chain prints in output linear in its events.
    static let maximumIndentDepth = 32

    /// Tells `event` with the names things have before it.
    mutating func describe(_ event: TraceEvent) -> EventNarrator.Line { narrator.tell(event) }

    /// `#12  0.001234  t1  ····update 'name' (String)   ← via 3 at App/View.swift:20`
    func format(_ event: TraceEvent, _ line: EventNarrator.Line, depth: Int) -> String {
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

    static func origin(_ subscription: SubscriptionState) -> String {
        subscription.isInternal ? "operator" : Narrator.what(target: subscription.target)
    }
}
