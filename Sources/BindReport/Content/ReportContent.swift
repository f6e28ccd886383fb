import BindAnalysis
import BindDiff

/// Everything a report shows, already computed from a trace.
///
/// The writers only render: whoever reads the trace (the `bind-trace` command line, a test) fills
/// this in. Every string in it may come from the trace and is treated as untrusted text.
///
/// ```swift
/// var content = ReportContent(title: "Sign-in", traceFile: "app.trace")
/// content.summary = [.init(label: "events", value: "1,204")]
/// content.findings = findings
/// try ReportWriter.write(content, to: "report")
/// ```
@_spi(Harness) public struct ReportContent: Sendable {
    /// The page's heading.
    public var title: String
    /// The trace the report was made from, as the user named it.
    public var traceFile: String
    /// Figures shown at the top: events, Outputs, subscriptions, duration, ….
    public var summary: [SummaryFigure]
    /// The trace in which the finding at `index` of ``findings`` was seen (the first one, for a run
    /// of several): the one its `why` command line names.
    public func trace(ofFindingAt index: Int) -> String {
        index < findingTraces.count ? findingTraces[index].first ?? traceFile : traceFile
    }

    /// The findings, in the order they are shown.
    public var findings: [Finding]
    /// The graph as an SVG document (rendered by BindGraph), or `nil` when there is none.
    public var graphSVG: String?
    /// One row per labelled or busy Output for the marble timeline.
    public var timeline: [TimelineRow]
    /// The events shown in the event table (already bounded, see ``EventTable/Builder``).
    public var events: EventTable
    /// For each finding (same index), the traces (processes) that saw it, when the report covers
    /// several traces; empty otherwise.
    public var findingTraces: [[String]] = []
    /// `bind-trace why`'s chain of each finding's event, as text lines, by event (one trace only).
    public var findingChains: [UInt64: [String]] = [:]
    /// What keeps each leak alive (``ReferencePath``), by the finding's ``FindingFingerprint``.
    public var keptAliveBy: [String: String] = [:]
    /// Fingerprints (``FindingFingerprint``) of findings a baseline accepts: reported as known
    /// (SARIF `baselineState` "unchanged", JUnit skipped), and they do not fail the run.
    public var baselinedFingerprints: Set<String> = []
    /// Whether a baseline was given (SARIF then marks every other finding "new").
    public var hasBaseline = false
    /// When each Output in the graph lived, by trace id: the page's time slider redraws the graph
    /// as it stood after any event (the Outputs `bind-trace graph --at` would draw). Empty: no slider.
    public var outputLifetimes: [UInt64: OutputLifetime] = [:]
    /// The last event of the trace: the slider's end.
    public var lastEvent: UInt64 = 0
    /// The event right after which the graph was drawn, when not the end (the busiest moment of a trace
    /// with no Output alive at its end): the slider starts there.
    public var graphDrawnAt: UInt64?
    /// What the graph shows, above it (`Outputs at the end (event #535)`); the slider rewrites it.
    public var graphCaption: String?
    /// Each subscriber node's subscriptions, by node id (`o12-s1x2y`): a finding about a subscription
    /// outlines its subscriber's node.
    public var subscriberNodes: [String: [UInt64]] = [:]
    /// What the page lists when an Output's node is clicked (its name, updates and bindings), by Output id.
    public var outputDetails: [UInt64: OutputDetail] = [:]
    /// For a report of several traces: each process's graph (its trace's name and SVG), drawn as
    /// still pictures where a single trace's report has its one interactive graph.
    public var processGraphs: [ProcessGraph] = []
    /// For a report of several traces: all processes' graphs as one, Outputs merged by creation site
    /// and kind (``SiteMergedGraph``), shown before ``processGraphs``.
    public var mergedGraphSVG: String?
    /// What changed since a base run (`report --base`): the "Changes since BASE" section, and its picture.
    package var changes: RunDiff?
    package var changesSVG: String?
    /// What happened at each finding's event and what directly caused it, by event number (until
    /// `why` can tell the whole chain).
    public var findingEvents: [UInt64: EventContext] = [:]

    /// Whether `finding` is accepted by the baseline.
    public func isBaselined(_ finding: Finding) -> Bool {
        !baselinedFingerprints.isEmpty && baselinedFingerprints.contains(FindingFingerprint.of(finding))
    }

    public init(
        title: String, traceFile: String, summary: [SummaryFigure] = [], findings: [Finding] = [],
        graphSVG: String? = nil, timeline: [TimelineRow] = [], events: EventTable = EventTable()
    ) {
        self.title = title
        self.traceFile = traceFile
        self.summary = summary
        self.findings = findings
        self.graphSVG = graphSVG
        self.timeline = timeline
        self.events = events
    }
}

/// The events an Output was created and released at (sequence numbers); `released` is `nil` for
/// one alive at the end. It is alive right after event *s* when `created ≤ s` and `released > s`.
@_spi(Harness) public struct OutputLifetime: Hashable, Sendable {
    public var created: UInt64
    public var released: UInt64?

    public init(created: UInt64, released: UInt64? = nil) {
        self.created = created
        self.released = released
    }
}

/// An Output as the page lists it when its node is clicked: what it is, how often it changed and
/// its last value, and the bindings to it still bound at the end (by the line that bound them).
@_spi(Harness) public struct OutputDetail: Hashable, Sendable {
    /// `#3 'email' (String)`, as `replay` names it.
    public var name: String
    /// Where it was created.
    public var site: String
    public var updates: UInt64
    /// The last value's preview, when one was recorded.
    public var lastValue: String?
    /// The lines that bound its subscriptions alive at the end, at most ``maxBindings``.
    public var bindings: [String]
    /// All its subscriptions alive at the end (can exceed `bindings.count`).
    public var bindingCount: Int
    /// Its last updates (at most ``maxRecentUpdates``, oldest first), each with its event, so the page
    /// can take the reader to them in the event table.
    public var recentUpdates: [TimelineRow.Update] = []

    /// Recent updates kept per Output.
    public static let maxRecentUpdates = 5

    /// Bindings listed per Output: a node with thousands of subscribers stays a short list.
    public static let maxBindings = 20

    public init(
        name: String, site: String, updates: UInt64, lastValue: String? = nil, bindings: [String] = [],
        bindingCount: Int? = nil
    ) {
        self.name = name
        self.site = site
        self.updates = updates
        self.lastValue = lastValue
        self.bindings = bindings
        self.bindingCount = bindingCount ?? bindings.count
    }
}

/// The graph of one process of a run, for the report of several traces.
@_spi(Harness) public struct ProcessGraph: Hashable, Sendable {
    /// The trace's file name.
    public var trace: String
    public var svg: String

    public init(trace: String, svg: String) {
        self.trace = trace
        self.svg = svg
    }
}

/// One event told in a line, with the event that directly caused it (the delivery whose closure
/// made it), as `bind-trace replay` tells them.
@_spi(Harness) public struct EventContext: Hashable, Sendable {
    public var event: UInt64
    /// `update 'email' (String) = "ada"`.
    public var text: String
    /// `via subscription 3 bound at App/View.swift:20`, when a closure caused it.
    public var via: String?
    /// The update, fire or bind that was delivering to that closure.
    public var cause: UInt64?
    /// That event told in a line, when it was still known (recent enough) when this one was read.
    public var causeText: String?

    public init(event: UInt64, text: String, via: String? = nil, cause: UInt64? = nil, causeText: String? = nil) {
        self.event = event
        self.text = text
        self.via = via
        self.cause = cause
        self.causeText = causeText
    }
}

/// A labelled figure of the summary: `events` → `1,204`.
@_spi(Harness) public struct SummaryFigure: Hashable, Sendable {
    public var label: String
    public var value: String

    public init(label: String, value: String) {
        self.label = label
        self.value = value
    }
}

/// The updates of one Output, for one row of the marble timeline.
@_spi(Harness) public struct TimelineRow: Hashable, Sendable {
    /// One update or fire.
    public struct Update: Hashable, Sendable {
        /// Nanoseconds since the trace started.
        public var time: UInt64
        public var sequence: UInt64
        /// A short rendering of the value, when the trace recorded one.
        public var preview: String?

        public init(time: UInt64, sequence: UInt64, preview: String? = nil) {
            self.time = time
            self.sequence = sequence
            self.preview = preview
        }
    }

    /// The Output's label, or a name made from its kind and site.
    public var name: String
    /// The Output's kind as a word: `output`, `relay`, `map`, ….
    public var kind: String
    /// The updates kept for drawing; may be a sample of ``totalUpdates``.
    public var updates: [Update]
    /// How many updates the Output had in the trace (at least `updates.count`).
    public var totalUpdates: Int

    public init(name: String, kind: String, updates: [Update], totalUpdates: Int? = nil) {
        self.name = name
        self.kind = kind
        self.updates = updates
        self.totalUpdates = max(totalUpdates ?? updates.count, updates.count)
    }
}

/// One row of the event table.
@_spi(Harness) public struct EventRow: Hashable, Sendable {
    public var sequence: UInt64
    /// Nanoseconds since the trace started.
    public var time: UInt64
    public var thread: UInt32
    /// The event's name: `bound`, `updated`, ….
    public var kind: String
    /// What happened, in words: `output 12 'email' updated to "a@b"`.
    public var description: String
    /// The event that directly caused this one (the delivery whose closure made it), when there was one.
    /// The page follows these links through the table's rows to tell a selected event's chain.
    public var cause: UInt64?

    public init(
        sequence: UInt64, time: UInt64, thread: UInt32, kind: String, description: String, cause: UInt64? = nil
    ) {
        self.sequence = sequence
        self.time = time
        self.thread = thread
        self.kind = kind
        self.description = description
        self.cause = cause
    }
}
