@_spi(Harness) import BindAnalysis
@_spi(Harness) import BindGraph
@_spi(Harness) import BindTraceModel

/// How ``ReportContent/build(fromTrace:options:)`` reads a trace into a report.
package struct TraceReportOptions: Sendable {
    /// What to judge (`atExit`, `focusScope`); `stateAt` and `keepsReleasedOutputs` are ignored.
    package var analysis: AnalysisOptions
    /// How the graph is drawn (the same builder as `bind-trace graph`).
    package var graph: TraceGraphBuilder
    package var graphLayout: GraphLayout
    /// At most this many Output nodes are drawn, those with findings first, as `bind-trace graph
    /// --max-nodes` draws (the summary says how many were left out): `sfdp` needs about 10 s for 4,000
    /// nodes and 30 s for 10,000 on a small machine (docs/graph-rendering.md).
    package var maximumGraphNodes: Int
    /// At most this many timeline rows: labelled Outputs first, then the busiest unlabelled ones.
    package var maximumTimelineRows: Int
    /// At most this many unlabelled Outputs in the timeline.
    package var unlabelledTimelineRows: Int
    /// Updates kept per timeline row (evenly sampled beyond it; the row keeps the full count).
    package var updatesPerRow: Int
    /// The report's heading; `nil` for "Bind trace: FILE".
    package var title: String?
    /// Draw Outputs released before the end too (faded). Memory then grows with every Output ever
    /// created, so this is for small traces.
    package var includesReleasedOutputs: Bool
    /// Draw the graph and read the trace a second time for the timeline and the event table. Off for
    /// one trace among many (the report of a whole run shows findings, figures and a graph per process).
    package var includesDetails = true
    /// Draw the graph even without the details (the report of a whole run draws one per process).
    package var includesGraph = false

    package init(
        analysis: AnalysisOptions = AnalysisOptions(), graph: TraceGraphBuilder = TraceGraphBuilder(),
        graphLayout: GraphLayout = .automatic, maximumGraphNodes: Int = 4_000, maximumTimelineRows: Int = 200,
        unlabelledTimelineRows: Int = 12, updatesPerRow: Int = 1_000, title: String? = nil,
        includesReleasedOutputs: Bool = false
    ) {
        self.includesReleasedOutputs = includesReleasedOutputs
        self.analysis = analysis
        self.graph = graph
        self.graphLayout = graphLayout
        self.maximumGraphNodes = maximumGraphNodes
        self.maximumTimelineRows = maximumTimelineRows
        self.unlabelledTimelineRows = unlabelledTimelineRows
        self.updatesPerRow = updatesPerRow
        self.title = title
    }
}

/// A report read from a trace, with what the reading found besides the report.
package struct TraceReport: Sendable {
    package var content: ReportContent
    /// The graph at the end, for a report of several traces to merge by site (``SiteMergedGraph``);
    /// set it to `nil` once merged, so a run's states are not all kept.
    package var finalState: GraphState?
    /// Reader warnings (a trace cut short) and the trace's inconsistencies, for standard error.
    package var warnings: [TraceWarning]
    package var traceErrors: [TraceError]
    package var traceErrorCount: Int
    /// Why the graph is missing from the report (too big, Graphviz failed); `nil` when it is there.
    package var graphNote: String?
    /// What the graph shows (`52 Outputs as 26 nodes …`), when drawn.
    package var graphDescription: String?
    /// Whether the trace ended with its end record.
    package var isComplete: Bool
    /// The trace's figures.
    package var summary: TraceSummary
    /// Whether the trace named the analysis's focus scope (true without one).
    package var sawFocusScope = true
}

/// Called for every event read while building a report: which pass over the trace (1 or 2), the
/// reader (its ``TraceReader/bytesRead``) and the events read so far in this pass. For progress lines.
package typealias TraceReadObserver = (_ pass: Int, _ reader: TraceReader, _ events: UInt64) -> Void

extension ReportContent {
    /// Reads the trace at `path` twice, in memory bounded by what is alive at once: the first pass
    /// replays it for findings, summary, graph and the choice of timeline rows; the second collects
    /// those rows' updates and a sample of the events (``EventTable/Builder``).
    ///
    /// ```swift
    /// let report = try ReportContent.build(fromTrace: "app.trace")
    /// try ReportWriter.write(report.content, to: "bind-report")
    /// ```
    /// - Parameter observer: called for every event read (progress).
    /// - Throws: ``TraceReadError`` when the trace cannot be opened or read.
    /// - Complexity: O(*n*) in events; memory O(live Outputs + timeline rows × `updatesPerRow` + table rows).
    package static func build(
        fromTrace path: String, options: TraceReportOptions = TraceReportOptions(), observer: TraceReadObserver? = nil
    ) throws(TraceReadError) -> TraceReport {
        let first = try ReplayPass.read(path, options: options, observer: observer)
        var content = ReportContent(
            title: options.title ?? "Bind trace: \(fileName(path))", traceFile: path, findings: first.findings)
        let draws = options.includesDetails || options.includesGraph
        let moment =
            try draws
            ? DrawnMoment.choose(path, end: first.state, events: first.summary.events, options: options) : nil
        let picture =
            moment.map { drawGraph(moment: $0, findings: first.findings, options: options) }
            ?? GraphPicture(note: "not drawn")
        let drawnState = moment?.state ?? first.state
        content.graphSVG = picture.svg
        content.subscriberNodes = picture.graph?.subscriberNodes ?? [:]
        content.graphCaption = moment?.caption
        content.graphDrawnAt = moment?.sequence
        for finding in first.findings {
            if let path = ReferencePath.describe(finding, in: first.state) {
                content.keptAliveBy[FindingFingerprint.of(finding)] = path
            }
        }
        if picture.svg != nil {
            var bindings: [UInt64: [SubscriptionState]] = [:]
            for subscription in drawnState.subscriptions where !subscription.isInternal {
                bindings[subscription.output, default: []].append(subscription)
            }
            for output in drawnState.outputs {
                content.outputLifetimes[output.id] = OutputLifetime(
                    created: output.createdAt, released: output.releasedAt ?? moment?.releases[output.id])
                let bound = bindings[output.id] ?? []
                content.outputDetails[output.id] = OutputDetail(
                    name: output.displayName, site: output.site.description, updates: output.updateCount,
                    lastValue: output.lastPreview.map(Narrator.shortened),
                    bindings: bound.prefix(OutputDetail.maxBindings).map { "\($0.site) (subscription \($0.id))" },
                    bindingCount: bound.count)
            }
            content.lastEvent = first.summary.events
        }
        if options.includesDetails {
            let details = try DetailPass.read(
                path, rows: first.timelineRows, findings: first.findings, nodes: Set(content.outputDetails.keys),
                options: options, observer: observer)
            for (output, updates) in details.recentUpdates { content.outputDetails[output]?.recentUpdates = updates }
            content.timeline = details.timeline
            content.events = details.events
            content.findingEvents = details.findingEvents
            content.findingChains = details.chains
        }
        content.summary = figures(
            summary: first.summary, findings: first.findings, graphNote: picture.note, graph: picture.graph)
        var report = TraceReport(
            content: content, finalState: first.state, warnings: first.warnings, traceErrors: first.traceErrors,
            traceErrorCount: first.traceErrorCount, graphNote: picture.note, graphDescription: picture.description,
            isComplete: first.summary.isComplete, summary: first.summary)
        report.sawFocusScope = first.sawFocusScope
        return report
    }

    /// Pass 1: replay; offer every Output to the timeline just before it is released, and at the end.
    private struct ReplayPass {
        var findings: [Finding]
        var summary: TraceSummary
        var state: GraphState
        var timelineRows: [TimelineCandidates.Candidate]
        var warnings: [TraceWarning]
        var traceErrors: [TraceError]
        var traceErrorCount: Int
        var sawFocusScope: Bool

        static func read(_ path: String, options: TraceReportOptions, observer: TraceReadObserver?)
            throws(TraceReadError) -> ReplayPass
        {
            var analysis = options.analysis
            analysis.stateAt = nil
            analysis.keepsReleasedOutputs = options.includesReleasedOutputs
            let reader = try TraceReader(path: path)
            let replay = Replay(options: analysis, reading: reader)
            var candidates = TimelineCandidates(
                labelled: options.maximumTimelineRows,
                unlabelled: min(options.unlabelledTimelineRows, options.maximumTimelineRows))
            var count: UInt64 = 0
            while let event = try reader.next() {
                if case .released(let id) = event.kind, let output = replay.outputState(id) { candidates.offer(output) }
                replay.apply(event)
                count += 1
                observer?(1, reader, count)
            }
            let findings = replay.finish()
            let summary = replay.summary(isComplete: reader.isComplete, findings: findings)
            let state = replay.snapshot()
            for output in state.outputs where !output.isReleased { candidates.offer(output) }
            return ReplayPass(
                findings: findings, summary: summary, state: state,
                timelineRows: candidates.chosen(limit: options.maximumTimelineRows), warnings: reader.warnings,
                traceErrors: replay.errors, traceErrorCount: replay.errorCount,
                sawFocusScope: analysis.focusScope == nil || replay.sawFocusScope)
        }
    }

    /// Pass 2: the chosen Outputs' updates, the sampled event table, the findings' events with their
    /// direct causes, and the findings' `why` chains.
    private struct DetailPass {
        var timeline: [TimelineRow]
        var events: EventTable
        var findingEvents: [UInt64: EventContext]
        var chains: [UInt64: [String]]
        /// The last updates of the Outputs whose details the page lists.
        var recentUpdates: [UInt64: [TimelineRow.Update]]

        /// How many recent events' lines are kept to tell a finding's cause (a cause is a delivery
        /// still running, so usually recent; an older one is named by its number only).
        static var recentLines: Int { 4096 }
        /// How many findings get their `why` chain folded into the report (the first ones shown).
        static let explainedFindings = 50

        static func read(
            _ path: String, rows chosen: [TimelineCandidates.Candidate], findings: [Finding], nodes: Set<UInt64>,
            options: TraceReportOptions, observer: TraceReadObserver?
        ) throws(TraceReadError) -> DetailPass {
            let wanted = Set(findings.map(\.event).filter { $0 != 0 })
            var contexts: [UInt64: EventContext] = [:]
            var recent = [(sequence: UInt64, text: String)](repeating: (0, ""), count: recentLines)
            let reader = try TraceReader(path: path)
            let targets = findings.prefix(explainedFindings).filter { $0.event != 0 }.map { WhyTarget(event: $0.event) }
            var tracer = WhyTracer(targets: targets)
            var lastUpdates: [UInt64: [TimelineRow.Update]] = [:]
            var rows: [UInt64: TimelineRowBuilder] = [:]
            for output in chosen { rows[output.id] = TimelineRowBuilder(output, capacity: options.updatesPerRow) }
            var table = EventTable.Builder()
            var narrator = EventNarrator()
            var count: UInt64 = 0
            while let event = try reader.next() {
                switch event.kind {
                case .updated(let output, _, let preview), .fired(let output, _, let preview):
                    let update = TimelineRow.Update(
                        time: event.time, sequence: event.sequence, preview: preview.map(Narrator.shortened))
                    rows[output]?.add(update)
                    if nodes.contains(output) {
                        var last = lastUpdates[output, default: []]
                        last.append(update)
                        if last.count > OutputDetail.maxRecentUpdates { last.removeFirst() }
                        lastUpdates[output] = last
                    }
                default:
                    break
                }
                let line = narrator.tell(event)
                table.add(
                    EventRow(
                        sequence: event.sequence, time: event.time, thread: event.thread, kind: event.kind.name,
                        description: line.text, cause: event.kind.cause?.event))
                if wanted.contains(event.sequence) {
                    let cause = event.kind.cause?.event
                    let slot = cause.map { recent[Int($0 % UInt64(recentLines))] }
                    contexts[event.sequence] = EventContext(
                        event: event.sequence, text: line.text, via: line.via, cause: cause,
                        causeText: slot.flatMap { $0.sequence == cause ? $0.text : nil })
                }
                recent[Int(event.sequence % UInt64(recentLines))] = (event.sequence, line.text)
                if !targets.isEmpty { _ = tracer.consume(event, threadName: reader.threadNames[event.thread]) }
                count += 1
                observer?(2, reader, count)
            }
            return DetailPass(
                timeline: chosen.compactMap { rows[$0.id]?.row }, events: table.table, findingEvents: contexts,
                chains: tracer.chains.mapValues { chain in
                    var chain = chain
                    chain.causedBeforeStart(reader.eventsCausedBeforeStart)
                    return WhyText.lines(chain)
                }, recentUpdates: lastUpdates)
        }
    }

    private static func figures(summary: TraceSummary, findings: [Finding], graphNote: String?, graph: TraceGraph?)
        -> [SummaryFigure]
    {
        let created = summary.outputsByKind.reduce(UInt64(0)) { $0 + $1.count }
        // Short values: the page lays figures out as tiles (it adds the error and warning counts itself).
        var figures: [SummaryFigure] = [
            .init(label: "events", value: ReportNumber.grouped(summary.events)),
            .init(label: "duration", value: ReportNumber.duration(nanoseconds: summary.duration)),
            .init(label: "threads", value: ReportNumber.grouped(summary.threads)),
            .init(label: "Outputs created", value: ReportNumber.grouped(created)),
            .init(label: "Outputs alive at the end", value: ReportNumber.grouped(summary.liveOutputs)),
            .init(label: "subscriptions bound at the end", value: ReportNumber.grouped(summary.boundSubscriptions)),
            .init(label: "findings", value: ReportNumber.grouped(findings.count)),
        ]
        if summary.traceErrors > 0 {
            figures.append(.init(label: "trace inconsistencies", value: ReportNumber.grouped(summary.traceErrors)))
        }
        if !summary.isComplete { figures.append(.init(label: "trace cut short (no end record)", value: "incomplete")) }
        if let graphNote {
            figures.append(.init(label: "graph \(graphNote)", value: "no graph"))
        } else if let graph {
            let drawn = graph.outputCount - graph.omittedOutputs
            figures.append(
                .init(
                    label: "graph nodes for \(ReportNumber.grouped(drawn)) Outputs"
                        + (graph.collapsedNodeCount > 0 ? ", repeats drawn once ×N" : "")
                        + (graph.omittedOutputs > 0
                            ? " (\(ReportNumber.grouped(graph.omittedOutputs)) left out, those with findings first "
                                + "kept: --max-nodes)" : ""),
                    value: ReportNumber.grouped(graph.document.nodes.count - TraceGraphBuilder.legendNodeCount)))
        }
        return figures
    }

    private static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}

/// The Outputs the timeline shows: every labelled one that updated (up to the row limit, busiest
/// first), plus the busiest unlabelled ones. Bounded: each list is trimmed whenever it doubles.
struct TimelineCandidates {
    struct Candidate {
        var id: UInt64
        var label: String?
        var kind: OutputKind
        var valueType: String
        var site: SourceSite
        var updates: UInt64
    }

    private let labelledLimit: Int
    private let unlabelledLimit: Int
    private var labelled: [Candidate] = []
    private var unlabelled: [Candidate] = []

    init(labelled: Int, unlabelled: Int) {
        labelledLimit = max(0, labelled)
        unlabelledLimit = max(0, unlabelled)
    }

    mutating func offer(_ output: OutputState) {
        guard output.updateCount > 0 else { return }
        let candidate = Candidate(
            id: output.id, label: output.label, kind: output.kind, valueType: output.valueType, site: output.site,
            updates: output.updateCount)
        if output.label != nil {
            Self.add(candidate, to: &labelled, limit: labelledLimit)
        } else {
            Self.add(candidate, to: &unlabelled, limit: unlabelledLimit)
        }
    }

    /// Labelled first, then unlabelled; each in creation order (ids ascend).
    func chosen(limit: Int) -> [Candidate] {
        let first = Self.trimmed(labelled, limit: labelledLimit)
        let rest = Self.trimmed(unlabelled, limit: min(unlabelledLimit, max(0, limit - first.count)))
        return first.sorted { $0.id < $1.id } + rest.sorted { $0.id < $1.id }
    }

    private static func add(_ candidate: Candidate, to list: inout [Candidate], limit: Int) {
        guard limit > 0 else { return }
        list.append(candidate)
        if list.count >= 2 * limit { list = trimmed(list, limit: limit) }
    }

    /// The busiest `limit`, ties to the older Output.
    private static func trimmed(_ list: [Candidate], limit: Int) -> [Candidate] {
        guard list.count > limit else { return list }
        return Array(list.sorted { ($1.updates, $0.id) < ($0.updates, $1.id) }.prefix(limit))
    }
}

/// Collects one timeline row's updates, evenly sampled beyond `capacity`.
struct TimelineRowBuilder {
    private let name: String
    private let kind: String
    private var sample: StrideSample<TimelineRow.Update>
    private var total = 0

    init(_ candidate: TimelineCandidates.Candidate, capacity: Int) {
        name = Narrator.name(
            kind: candidate.kind, valueType: candidate.valueType, site: candidate.site, label: candidate.label)
        kind = candidate.kind.description
        sample = StrideSample(capacity: capacity)
    }

    mutating func add(_ update: TimelineRow.Update) {
        total += 1
        sample.add(update)
    }

    var row: TimelineRow { TimelineRow(name: name, kind: kind, updates: sample.elements, totalUpdates: total) }
}
