@_spi(Harness) import BindAnalysis
@_spi(Harness) import BindTraceModel

/// Turns a trace's events, one at a time, into a timeline: tracks, nested slices, instants and flows
/// (docs/export.md describes what is drawn where).
///
/// Nesting is the replay's (``Replay``): an update, fire or bind is a slice on its thread's track;
/// inside it, a slice for each subscription closure it ran that did something recorded, and inside
/// that, the events the closure caused. The trace records when an event starts, not when a delivery
/// returns, so a slice ends at the last event recorded inside it, and an update, fire or bind that
/// caused nothing recorded is an instant.
///
/// - Complexity: O(1) amortised per event; memory proportional to what is open or alive at once
///   (threads, their open slices, bound subscriptions, open scopes), never to the trace's length. An
///   update also looks at the threads its Output's subscriptions were bound on.
final class TimelineBuilder {
    let replay: Replay
    private let sink: any TimelineSink
    private let threadName: (UInt32) -> String?
    /// The findings, in event order, and the next one to draw.
    private let findings: [Finding]
    private var nextFinding = 0
    private var declaredFindings = false

    private var lanes: [Lane] = []
    private var laneIndex: [UInt32: Int] = [:]
    private var subscriptions: [UInt64: BoundSubscription] = [:]
    /// The flows of bound subscriptions not yet delivered to on another thread: by Output, by the
    /// thread that bound them, by subscription.
    private var undeliveredFlows: [UInt64: [UInt32: [UInt64: UInt64]]] = [:]
    private var scopes: [UInt64: OpenScope] = [:]
    private var nextUUID: UInt64 = TimelineTrack.findings.uuid + 1
    private var nextScopeLane: UInt64 = 1
    private var nextFlow: UInt64 = 1
    private var lastTime: UInt64 = 0
    /// Each live Output's name (``outputName(_:)``), made once rather than per update.
    var outputNames: [UInt64: String] = [:]
    /// The names of subscriptions whose closures caused something (``closureName(_:)``), taken
    /// before the event that may unbind them is applied.
    var subscriptionNames: [UInt64: String] = [:]

    /// A thread's track and the slices open on it, outermost first (the replay's frames).
    private struct Lane {
        let thread: UInt32
        let track: TimelineTrack
        var frames: [OpenFrame] = []
    }

    /// An update, fire or bind still delivering.
    private struct OpenFrame {
        let sequence: UInt64
        /// Not drawn yet: an instant unless something nests in it, then its slice's begin.
        var pending: TimelineEvent?
        /// The latest time recorded inside it: where its slice ends.
        var lastTime: UInt64
        var closure: OpenClosure?
    }

    /// The subscription closure a frame is running, drawn as a slice inside the frame's.
    private struct OpenClosure {
        let subscription: UInt64
        var lastTime: UInt64
    }

    /// Where a subscription was bound: the first update of its Output on another thread (which
    /// delivers to it there) draws an arrow from the bind.
    private struct BoundSubscription {
        let output: UInt64
        let thread: UInt32
    }

    /// A scope's track; its first use on another thread draws an arrow from its beginning.
    private struct OpenScope {
        let track: TimelineTrack
        let thread: UInt32
        let flow: UInt64
        var isFlowOpen = true
    }

    /// - Parameters:
    ///   - findings: the trace's findings (drawn at their events on the "findings" track).
    ///   - processName: the process track's name (the trace's file name).
    ///   - threadName: the recorded name of a thread, once its first event is read.
    init(
        replay: Replay, sink: any TimelineSink, findings: [Finding], processName: String,
        threadName: @escaping (UInt32) -> String?
    ) throws(TimelineWriteError) {
        self.replay = replay
        self.sink = sink
        self.threadName = threadName
        self.findings = findings.sorted { Self.drawnAt($0) < Self.drawnAt($1) }
        try sink.declare(TrackDeclaration(track: .process, name: processName, role: .process))
    }

    // MARK: - Events

    /// Applies `event` to the replay and draws it.
    func add(_ event: TraceEvent) throws(TimelineWriteError) {
        forgetName(changedBy: event.kind)
        if let cause = event.kind.cause { _ = closureName(cause.subscription) }
        var drawing = describe(event.kind)
        // The sequence number `bind-trace replay` and `dump` show, to find the event there.
        drawing?.annotations.append(TimelineAnnotation("event", event.sequence))
        let entersFrame = Self.entersFrame(event.kind)
        replay.apply(event)
        lastTime = max(lastTime, event.time)
        let lane = try laneIndex(for: event.thread)
        if entersFrame { try enter(lane, cause: event.kind.cause, event: event) }
        switch event.kind {
        case .updated(let output, _, _), .fired(let output, _, _):
            guard var update = drawing?.event(.instant, at: event.time, on: lanes[lane].track) else { break }
            update.flowsIn = deliveries(of: output, on: event.thread)
            try open(update, in: lane, event: event)
        case .bound(let binding) where !binding.preexisting:
            guard var bind = drawing?.event(.instant, at: event.time, on: lanes[lane].track) else { break }
            let flow = nextFlow
            nextFlow += 1
            subscriptions[binding.subscription] = BoundSubscription(output: binding.output, thread: event.thread)
            undeliveredFlows[binding.output, default: [:]][event.thread, default: [:]][binding.subscription] = flow
            bind.flowsOut = [flow]
            bind.flowsIn = handOff(scope: binding.scope, to: event.thread)
            try open(bind, in: lane, event: event)
        case .scopeBegan(let id, let parent, _, _):
            try beginScope(id, parent: parent, drawing: drawing, event: event)
        case .scopeEnded(let id):
            if let scope = scopes.removeValue(forKey: id) {
                try sink.write(TimelineEvent(phase: .end, time: event.time, track: scope.track))
            }
        default:
            guard let drawing else { break }
            var instant = drawing.event(.instant, at: event.time, on: lanes[lane].track)
            if let scope = Self.scope(of: event.kind) { instant.flowsIn = handOff(scope: scope, to: event.thread) }
            if case .unbound(let subscription, _, _) = event.kind { unbound(subscription) }
            if case .released(let output) = event.kind {
                undeliveredFlows[output] = nil
                outputNames[output] = nil
            }
            try place(instant, in: lane, nested: entersFrame)
        }
        try drawFindings(through: event.sequence, time: event.time)
    }

    /// Ends every open slice at the last time recorded inside it, draws the findings not drawn yet,
    /// and finishes the sink.
    func finish() throws(TimelineWriteError) {
        for lane in lanes.indices { try close(lane, downTo: 0) }
        for scope in scopes.values.sorted(by: { $0.track.uuid < $1.track.uuid }) {
            try sink.write(TimelineEvent(phase: .end, time: lastTime, track: scope.track))
        }
        scopes = [:]
        try drawFindings(through: .max, time: lastTime)
        try sink.finish()
    }

    // MARK: - Nesting

    /// Whether the replay nests `kind` under its cause (closing the frames its cause is not in):
    /// the rule of `Replay.enter`.
    private static func entersFrame(_ kind: TraceEvent.Kind) -> Bool {
        switch kind {
        case .updated, .fired: true
        case .bound(let binding): !binding.preexisting
        case .outputCreated(let creation): !creation.preexisting
        case .unbound(_, let reason, _): reason != .outputReleased
        default: false
        }
    }

    /// Closes the slices the replay closed for this event, then opens the closure slice of its cause.
    private func enter(_ lane: Int, cause: TraceCause?, event: TraceEvent) throws(TimelineWriteError) {
        let depth = replay.lastDepth
        try close(lane, downTo: depth)
        guard depth > 0, let cause, let top = lanes[lane].frames.indices.last else { return }
        guard lanes[lane].frames[top].sequence == cause.event else {
            // Never expected: the replay's frames and these are closed by the same events.
            return try close(lane, downTo: 0)
        }
        try ensureParentDrawn(lane)
        if let closure = lanes[lane].frames[top].closure {
            if closure.subscription == cause.subscription { return }
            try sink.write(TimelineEvent(phase: .end, time: closure.lastTime, track: lanes[lane].track))
            lanes[lane].frames[top].lastTime = max(lanes[lane].frames[top].lastTime, closure.lastTime)
        }
        try sink.write(
            TimelineEvent(
                phase: .begin, time: event.time, track: lanes[lane].track, name: closureName(cause.subscription),
                category: "closure", annotations: [TimelineAnnotation("subscription", cause.subscription)]))
        lanes[lane].frames[top].closure = OpenClosure(subscription: cause.subscription, lastTime: event.time)
    }

    /// Opens the frame of an update, fire or bind: drawn as an instant when it closes with nothing
    /// inside, as a slice's begin as soon as something nests in it.
    private func open(_ instant: TimelineEvent, in lane: Int, event: TraceEvent) throws(TimelineWriteError) {
        try ensureParentDrawn(lane)
        touch(lane, event.time)
        lanes[lane].frames.append(OpenFrame(sequence: event.sequence, pending: instant, lastTime: event.time))
    }

    /// Draws `event` inside the open slices of its lane when the replay nests it, else as it comes.
    private func place(_ event: TimelineEvent, in lane: Int, nested: Bool) throws(TimelineWriteError) {
        if nested {
            try ensureParentDrawn(lane)
            touch(lane, event.time)
        }
        try sink.write(event)
    }

    /// Draws the innermost open bind as a slice's begin, now that something nests in it.
    private func ensureParentDrawn(_ lane: Int) throws(TimelineWriteError) {
        guard let top = lanes[lane].frames.indices.last, var pending = lanes[lane].frames[top].pending else { return }
        pending.phase = .begin
        lanes[lane].frames[top].pending = nil
        try sink.write(pending)
    }

    /// Records that something happened at `time` inside the innermost open slice.
    private func touch(_ lane: Int, _ time: UInt64) {
        guard let top = lanes[lane].frames.indices.last else { return }
        if lanes[lane].frames[top].closure != nil {
            lanes[lane].frames[top].closure!.lastTime = time
        } else {
            lanes[lane].frames[top].lastTime = time
        }
    }

    /// Ends the slices of `lane` above `depth`, innermost first, each at the last time inside it.
    private func close(_ lane: Int, downTo depth: Int) throws(TimelineWriteError) {
        let track = lanes[lane].track
        while lanes[lane].frames.count > depth, let frame = lanes[lane].frames.popLast() {
            var last = frame.lastTime
            if let closure = frame.closure {
                try sink.write(TimelineEvent(phase: .end, time: closure.lastTime, track: track))
                last = max(last, closure.lastTime)
            }
            if let pending = frame.pending {
                try sink.write(pending)
            } else {
                try sink.write(TimelineEvent(phase: .end, time: last, track: track))
            }
            touch(lane, last)
        }
    }

    // MARK: - Tracks

    private func laneIndex(for thread: UInt32) throws(TimelineWriteError) -> Int {
        if let index = laneIndex[thread] { return index }
        let ordinal = lanes.count + 1
        let track = TimelineTrack(uuid: allocateUUID(), group: .threads, lane: UInt64(ordinal))
        let name = threadName(thread).map(Narrator.shortened) ?? "thread \(thread)"
        try sink.declare(TrackDeclaration(track: track, name: name, role: .thread(ordinal: Int32(ordinal))))
        lanes.append(Lane(thread: thread, track: track))
        laneIndex[thread] = lanes.count - 1
        return lanes.count - 1
    }

    private func allocateUUID() -> UInt64 {
        defer { nextUUID += 1 }
        return nextUUID
    }

    private func beginScope(_ id: UInt64, parent: UInt64, drawing: Drawing?, event: TraceEvent)
        throws(TimelineWriteError)
    {
        if let reopened = scopes.removeValue(forKey: id) {
            // A scope id begun again while open (a damaged trace): the first one ends here.
            try sink.write(TimelineEvent(phase: .end, time: event.time, track: reopened.track))
        }
        guard let drawing else { return }
        let track = TimelineTrack(uuid: allocateUUID(), group: .scopes, lane: nextScopeLane)
        nextScopeLane += 1
        try sink.declare(
            TrackDeclaration(
                track: track, name: drawing.name, role: .scope(parent: scopes[parent]?.track ?? .process)))
        let flow = nextFlow
        nextFlow += 1
        var begin = drawing.event(.begin, at: event.time, on: track)
        begin.flowsOut = [flow]
        begin.flowsIn = handOff(scope: parent, to: event.thread)
        try sink.write(begin)
        scopes[id] = OpenScope(track: track, thread: event.thread, flow: flow)
    }

    /// The flows to end at an update of `output` on `thread`: those of its subscriptions bound on
    /// other threads that no update delivered to on another thread yet. Each flow ends once.
    private func deliveries(of output: UInt64, on thread: UInt32) -> [UInt64] {
        guard var byThread = undeliveredFlows[output], byThread.keys.contains(where: { $0 != thread }) else {
            return []
        }
        var flows: [UInt64] = []
        for (bindThread, bySubscription) in byThread where bindThread != thread {
            flows += bySubscription.values
            byThread[bindThread] = nil
        }
        undeliveredFlows[output] = byThread.isEmpty ? nil : byThread
        return flows.sorted()
    }

    private func unbound(_ subscription: UInt64) {
        subscriptionNames[subscription] = nil
        guard let bound = subscriptions.removeValue(forKey: subscription) else { return }
        undeliveredFlows[bound.output]?[bound.thread]?[subscription] = nil
        if undeliveredFlows[bound.output]?[bound.thread]?.isEmpty == true {
            undeliveredFlows[bound.output]?[bound.thread] = nil
        }
        if undeliveredFlows[bound.output]?.isEmpty == true { undeliveredFlows[bound.output] = nil }
    }

    /// The flow to end at an event of `scope` on `thread`: the scope's arrow, the first time it is
    /// used on a thread other than the one it began on.
    private func handOff(scope id: UInt64, to thread: UInt32) -> [UInt64] {
        guard id != 0, var scope = scopes[id], scope.isFlowOpen, scope.thread != thread else { return [] }
        scope.isFlowOpen = false
        scopes[id] = scope
        return [scope.flow]
    }

    private static func scope(of kind: TraceEvent.Kind) -> UInt64? {
        switch kind {
        case .outputCreated(let creation): creation.scope
        case .mark(_, let scope): scope
        default: nil
        }
    }

    // MARK: - Findings

    /// The event a finding is drawn at: its own, or the end of the trace when it names none.
    private static func drawnAt(_ finding: Finding) -> UInt64 { finding.event == 0 ? .max : finding.event }

    private func drawFindings(through sequence: UInt64, time: UInt64) throws(TimelineWriteError) {
        while nextFinding < findings.count, Self.drawnAt(findings[nextFinding]) <= sequence {
            let finding = findings[nextFinding]
            nextFinding += 1
            if !declaredFindings {
                declaredFindings = true
                try sink.declare(TrackDeclaration(track: .findings, name: "findings", role: .findings))
            }
            var annotations = [TimelineAnnotation("message", finding.message)]
            if let site = finding.site {
                annotations.append(TimelineAnnotation("site", Narrator.shortened(site.description)))
            }
            if finding.event != 0 { annotations.append(TimelineAnnotation("event", finding.event)) }
            if !finding.outputs.isEmpty {
                annotations.append(
                    TimelineAnnotation("outputs", finding.outputs.map(String.init).joined(separator: ",")))
            }
            if !finding.subscriptions.isEmpty {
                annotations.append(
                    TimelineAnnotation("subscriptions", finding.subscriptions.map(String.init).joined(separator: ",")))
            }
            try sink.write(
                TimelineEvent(
                    phase: .instant, time: time, track: .findings, name: finding.kind.rawValue,
                    category: "finding", annotations: annotations))
        }
    }
}
