import BindTraceModel

/// The second pass of `why`: streams the events up to the selected one (and a few after it, for
/// a root's call site) and builds its ``WhyChain``.
///
/// Memory stays flat: it keeps what is alive (Outputs, subscriptions, edges into combines and
/// merges, each Output's last previewed value) and the last ``keptFrames`` updates, fires and binds
/// with their causes, never the whole trace. A chain whose root is older than that (one
/// propagation of more events) is returned from the oldest kept step, marked incomplete.
public struct WhyTracer {
    /// How many recent updates, fires and binds are kept to walk a chain back through.
    public static let keptFrames = 1 << 16
    /// How many events after a root are read to find its call site (written right after it).
    static let callSiteLookahead: UInt64 = 64

    public let target: WhyTarget

    private var outputs: [UInt64: WhyOutput] = [:]
    private var subscriptions: [UInt64: WhySubscription] = [:]
    /// The inputs of each live combine and merge.
    private var sources: [UInt64: [UInt64]] = [:]
    private var lastValue: [UInt64: String] = [:]
    /// Each live Output's last recorded root call site: the recorder writes a `calledAt` only when
    /// a root update comes from another line than the Output's previous one.
    private var lastCall: [UInt64: SourceSite] = [:]
    private var frames: [UInt64: Frame] = [:]
    private var frameOrder: [UInt64] = []
    private var frameCursor = 0
    private var reachedTarget = false
    private var lastSequence: UInt64 = 0
    private var finished: WhyChain?

    public init(target: WhyTarget) {
        self.target = target
        frameOrder.reserveCapacity(1024)
    }

    /// One kept update, fire or bind: the step it will be in a chain, and the event that caused it.
    private struct Frame {
        var step: WhyStep
        var parent: UInt64?
    }

    /// Takes in the next event (`threadName`: the name of its thread, if recorded); returns `true`
    /// when the chain is complete and no further event is needed.
    public mutating func consume(_ event: TraceEvent, threadName: String?) -> Bool {
        lastSequence = event.sequence
        if reachedTarget {
            // A target that is itself a root update: its own `calledAt`, if any, follows it before
            // anything it caused on its thread (another thread's updates may come between).
            if case .calledAt(target.event, let site) = event.kind {
                frames[target.event]?.step.calledAt = site
                return true
            }
            return event.thread == frames[target.event]?.step.thread
                || event.sequence > target.event + Self.callSiteLookahead
        }
        apply(event, threadName: threadName)
        if event.sequence == target.event {
            if frames[event.sequence] == nil { keep(event, action: .other, output: nil, threadName) }
            reachedTarget = true
            return !isRootCall(target.event)
        }
        return false
    }

    /// The chain, once ``consume(_:threadName:)`` has seen the selected event (nil before).
    public func chain() -> WhyChain? {
        guard reachedTarget else { return nil }
        var steps: [WhyStep] = []
        var next: UInt64? = target.event
        var isComplete = true
        var guardCount = 0
        while let sequence = next, guardCount <= Self.keptFrames {
            guardCount += 1
            guard let frame = frames[sequence] else {
                isComplete = false
                break
            }
            steps.append(frame.step)
            next = frame.parent
        }
        steps.reverse()
        let deliveredTo = target.subscription.flatMap { subscriptions[$0] }
        return WhyChain(selected: target.event, steps: steps, isComplete: isComplete, deliveredTo: deliveredTo)
    }

    /// Whether `sequence` is a root update or fire (one that may be followed by its `calledAt`).
    private func isRootCall(_ sequence: UInt64) -> Bool {
        guard let frame = frames[sequence], frame.parent == nil else { return false }
        return frame.step.action == .update || frame.step.action == .fire
    }

    private mutating func apply(_ event: TraceEvent, threadName: String?) {
        switch event.kind {
        case .outputCreated(let creation):
            outputs[creation.output] = WhyOutput(
                id: creation.output, kind: creation.kind, valueType: creation.valueType, site: creation.site,
                label: creation.label)
            if event.sequence == target.event { keep(event, action: .other, output: creation.output, threadName) }
        case .labeled(let output, let label):
            outputs[output]?.label = label
        case .edge(let source, let derived, let operation):
            if operation == .combine || operation == .merge { sources[derived, default: []].append(source) }
        case .bound(let binding):
            subscriptions[binding.subscription] = WhySubscription(
                id: binding.subscription, output: binding.output, site: binding.site, isOperator: binding.isInternal,
                target: binding.target)
            keep(event, action: .bind, output: binding.output, threadName, value: lastValue[binding.output])
        case .updated(let output, let cause, let preview):
            keep(event, action: .update, output: output, threadName, value: preview)
            if cause == nil { frames[event.sequence]?.step.calledAt = lastCall[output] }
            if let preview { lastValue[output] = preview }
        case .fired(let output, let cause, let preview):
            keep(event, action: .fire, output: output, threadName, value: preview)
            if cause == nil { frames[event.sequence]?.step.calledAt = lastCall[output] }
            if let preview { lastValue[output] = preview }
        case .unbound(let subscription, _, _):
            if event.sequence == target.event {
                keep(event, action: .other, output: subscriptions[subscription]?.output, threadName)
            }
            subscriptions[subscription] = nil
        case .released(let output):
            if event.sequence == target.event { keep(event, action: .other, output: output, threadName) }
            outputs[output] = nil
            sources[output] = nil
            lastValue[output] = nil
            lastCall[output] = nil
        case .calledAt(let root, let site):
            frames[root]?.step.calledAt = site
            if let output = frames[root]?.step.output?.id { lastCall[output] = site }
        default:
            if event.sequence == target.event { keep(event, action: .other, output: nil, threadName) }
        }
    }

    /// Keeps the event as a frame, its hop from its cause worked out now (while what it names is alive).
    private mutating func keep(
        _ event: TraceEvent, action: WhyStep.Action, output: UInt64?, _ threadName: String?, value: String? = nil
    ) {
        let cause = event.kind.cause
        var step = WhyStep(
            event: event.sequence, action: action, eventName: event.kind.name, thread: event.thread,
            threadName: threadName, time: event.time, output: output.flatMap { outputs[$0] }, value: value,
            previous: action == .update ? output.flatMap { lastValue[$0] } : nil)
        if let cause {
            let subscription = subscriptions[cause.subscription]
            let derived = output.flatMap { outputs[$0] }
            let isOperator = subscription?.isOperator ?? false
            var contributors: [WhyContributor] = []
            if isOperator, let derived, derived.kind == .combine || derived.kind == .merge {
                let changed = subscription?.output
                for source in sources[derived.id] ?? [] where source != changed {
                    if let input = outputs[source] {
                        contributors.append(WhyContributor(output: input, value: lastValue[source]))
                    }
                }
            }
            step.via = WhyHop(
                subscription: subscription, subscriptionID: cause.subscription,
                operator: isOperator && action != .bind ? derived?.kind : nil, contributors: contributors)
        }
        frames[event.sequence] = Frame(step: step, parent: cause?.event)
        if frameOrder.count < Self.keptFrames {
            frameOrder.append(event.sequence)
        } else {
            frames[frameOrder[frameCursor]] = nil
            frameOrder[frameCursor] = event.sequence
            frameCursor = (frameCursor + 1) % Self.keptFrames
        }
    }
}
