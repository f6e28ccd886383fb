@_spi(Harness) import BindTraceModel

/// The second pass of `why`: streams the events up to the selected one (and, for a root, the few
/// after it that may hold its call site) and builds its ``WhyChain``.
///
/// Deliveries are synchronous, so the chain of an event is its thread's open frames when it
/// happens: a stack per thread (an event caused by P closes every frame above P; one with no cause
/// closes them all), as the replay keeps. Memory stays flat: what is alive (Outputs, subscriptions,
/// the inputs of combines and merges, each Output's last previewed value and call site) and the open
/// frames, never the trace. A cause that is no longer open (a step Bind deferred past 128 nested
/// steps, or one from before the trace began) ends the chain there, marked incomplete.
package struct WhyTracer {
    /// How many events after a root update are read to find its call site (written right after it,
    /// before anything it causes on its thread; other threads' updates may come between).
    static let callSiteLookahead: UInt64 = 64
    /// The most open frames kept per thread: a deeper chain (only a hostile trace makes one: Bind
    /// defers past 128 nested steps) loses its oldest half, and is shown incomplete.
    package static let maximumDepth = 100_000
    /// The parent of a frame opened again by a `resumed` event: one not kept, so its chain is incomplete.
    static let unknownParent = UInt64.max

    /// The events to explain, by sequence number.
    package let targets: [UInt64: WhyTarget]

    private var outputs: [UInt64: WhyOutput] = [:]
    private var subscriptions: [UInt64: WhySubscription] = [:]
    /// The inputs of each live combine and merge.
    private var sources: [UInt64: [UInt64]] = [:]
    private var lastValue: [UInt64: String] = [:]
    /// Each live Output's last recorded root call site: the recorder writes a `calledAt` only when
    /// a root update comes from another line than the Output's previous one.
    private var lastCall: [UInt64: SourceSite] = [:]
    /// Open frames, one stack per thread. Thread numbers come from the (untrusted) trace: found
    /// through a dictionary, the last one cached, so a trace of many threads costs no scan.
    private var slots: [UInt32: Int] = [:]
    private var lastThread: (thread: UInt32, slot: Int)?
    private var stacks: [[Frame]] = []
    /// The chains built so far, by selected event.
    package private(set) var chains: [UInt64: WhyChain] = [:]
    /// Targets that are root updates, by event, with their thread: their own `calledAt`, if any,
    /// follows them, before anything they cause on their thread (other threads' updates may come
    /// between), and corrects a call site carried forward.
    private var pendingRoots: [UInt64: UInt32] = [:]
    private var lastTarget: UInt64

    /// A tracer for one event (`bind-trace why`).
    package init(target: WhyTarget) {
        self.init(targets: [target])
    }

    /// A tracer for several events in one pass (the report's folded chains).
    package init(targets: [WhyTarget]) {
        self.targets = Dictionary(targets.map { ($0.event, $0) }, uniquingKeysWith: { first, _ in first })
        lastTarget = targets.map(\.event).max() ?? 0
    }

    /// One open update, fire or bind: numbers, and strings only when the trace has values, so
    /// opening and closing one costs no reference counting; named when a chain is built.
    private struct Frame {
        let event: UInt64
        /// The event that caused it (0: a root).
        let parent: UInt64
        let action: WhyStep.Action
        let output: UInt64
        let causeSubscription: UInt64
        let thread: UInt32
        let time: UInt64
        let value: String?
        let previous: String?
        var calledAt: SourceSite?
        /// For a combine or merge reached through an operator: its other inputs and their values then.
        var contributors: [(output: UInt64, value: String?)] = []
        /// The event's kind name, for an event that is not an update, fire or bind.
        var otherName: String?
    }

    /// Takes in the next event (`threadName`: the name of its thread, if recorded); returns `true`
    /// when every chain is complete and no further event is needed.
    package mutating func consume(_ event: TraceEvent, threadName: @autoclosure () -> String?) -> Bool {
        if !pendingRoots.isEmpty { settleRoots(after: event) }
        if event.sequence <= lastTarget {
            apply(event)
            if let target = targets[event.sequence] {
                let chain = chain(at: event, target: target, threadName: threadName())
                chains[event.sequence] = chain
                if let root = chain.steps.first, chain.isComplete, root.event == event.sequence,
                    root.action == .update || root.action == .fire
                {
                    pendingRoots[event.sequence] = event.thread
                }
            }
        }
        return event.sequence >= lastTarget && pendingRoots.isEmpty
    }

    /// The chain of the one target, once ``consume(_:threadName:)`` has seen it (nil before).
    package func chain() -> WhyChain? { chains.values.first }

    /// Whether an update or fire so far carried a preview (the trace records values).
    private var recordsValues = false

    /// The operators whose Output takes the value delivered to them unchanged: the step after a
    /// bind through one of them shows the value the bind delivered.
    private static let forwardingOperators: Set<OutputKind> = [.ignoringDuplicates, .filter, .merge]

    /// Gives the pending roots their own call site when `event` is it; forgets those past it.
    private mutating func settleRoots(after event: TraceEvent) {
        if case .calledAt(let root, let site) = event.kind, pendingRoots[root] != nil {
            chains[root]?.steps[0].calledAt = site
            pendingRoots[root] = nil
        }
        pendingRoots = pendingRoots.filter { root, thread in
            event.thread != thread && event.sequence <= root + Self.callSiteLookahead
        }
    }

    private mutating func chain(at event: TraceEvent, target: WhyTarget, threadName: String?) -> WhyChain {
        var frames = stacks[slot(of: event.thread)]
        if case .dangling(let subscription) = event.kind {
            return danglingChain(at: event, subscription: subscription, frames: frames, threadName: threadName)
        }
        if frames.last?.event != event.sequence {
            // Not an update, fire or bind: its causes, then the event itself.
            if let cause = event.kind.cause {
                while let top = frames.last, top.event != cause.event { frames.removeLast() }
            } else {
                frames.removeAll()
            }
            let output: UInt64 =
                switch event.kind {
                case .outputCreated(let creation): creation.output
                case .released(let output), .labeled(let output, _): output
                case .unbound(let subscription, _, _): subscriptions[subscription]?.output ?? 0
                default: 0
                }
            var frame = frame(
                for: event, cause: event.kind.cause, action: .other, output: output, value: nil, previous: nil)
            frame.otherName = event.kind.name
            frames.append(frame)
        }
        // Each frame must be caused by the one below it; the bottom one must be a root.
        var start = frames.count - 1
        while start > 0 && frames[start].parent == frames[start - 1].event { start -= 1 }
        var steps = frames[start...].map { step(of: $0, threadName: $0.thread == event.thread ? threadName : nil) }
        // A bind delivers its Output's current value, which the trace holds only once the Output was
        // updated; an operator that forwards it unchanged shows it in the next step.
        for index in steps.indices.dropLast() where steps[index].action == .bind && steps[index].value == nil {
            let next = steps[index + 1]
            if let operation = next.via?.operator, Self.forwardingOperators.contains(operation) {
                steps[index].value = next.value
            }
        }
        let deliveredTo = target.subscription.flatMap { subscriptions[$0] }
        return WhyChain(
            selected: event.sequence, steps: steps, isComplete: frames[start].parent == 0, deliveredTo: deliveredTo,
            recordsValues: recordsValues)
    }

    /// The chain of a delivery to a Binder whose target is gone: the update or fire that delivered
    /// the value (its chain first), then a step through the Binder's subscription naming the target.
    ///
    /// A `dangling` record carries no cause: Bind writes it inside the delivering update's frame, on
    /// its thread, so that update is the innermost open update or fire of the Binder's Output (as the
    /// replay finds it). With none open (a hostile trace, or one that began mid-delivery) the chain is
    /// the dangling step alone, marked incomplete.
    private mutating func danglingChain(
        at event: TraceEvent, subscription id: UInt64, frames: [Frame], threadName: String?
    ) -> WhyChain {
        let subscription = subscriptions[id]
        var frames = frames
        let delivering = subscription.flatMap { subscription in
            frames.lastIndex { $0.output == subscription.output && ($0.action == .update || $0.action == .fire) }
        }
        if let delivering { frames.removeSubrange((delivering + 1)...) } else { frames.removeAll() }
        var frame = Frame(
            event: event.sequence, parent: delivering.map { frames[$0].event } ?? 0, action: .other,
            output: subscription?.output ?? 0, causeSubscription: id, thread: event.thread, time: event.time,
            value: delivering.flatMap { frames[$0].value }, previous: nil)
        frame.otherName = event.kind.name
        frames.append(frame)
        var start = frames.count - 1
        while start > 0 && frames[start].parent == frames[start - 1].event { start -= 1 }
        var steps = frames[start...].map { step(of: $0, threadName: $0.thread == event.thread ? threadName : nil) }
        // Named through its subscription even when no delivering update was found.
        steps[steps.count - 1].via =
            steps[steps.count - 1].via
            ?? WhyHop(subscription: subscription, subscriptionID: id, operator: nil, contributors: [])
        steps[steps.count - 1].reachedGoneTarget = true
        return WhyChain(
            selected: event.sequence, steps: steps, isComplete: delivering != nil && frames[start].parent == 0,
            recordsValues: recordsValues)
    }

    /// The step a frame is in a chain, named with what is alive now (the chain's Outputs and
    /// subscriptions are: they are delivering).
    private func step(of frame: Frame, threadName: String?) -> WhyStep {
        let name: String =
            switch frame.action {
            case .update: "updated"
            case .fire: "fired"
            case .bind: "bound"
            case .other: frame.otherName ?? "event"
            }
        var step = WhyStep(
            event: frame.event, action: frame.action, eventName: name, thread: frame.thread, threadName: threadName,
            time: frame.time, output: outputs[frame.output], value: frame.value, previous: frame.previous,
            calledAt: frame.calledAt)
        if frame.parent != 0 {
            let subscription = subscriptions[frame.causeSubscription]
            let isOperator = subscription?.isOperator ?? false
            step.via = WhyHop(
                subscription: subscription, subscriptionID: frame.causeSubscription,
                operator: isOperator && frame.action != .bind ? outputs[frame.output]?.kind : nil,
                contributors: frame.contributors.compactMap { input in
                    outputs[input.output].map { WhyContributor(output: $0, value: input.value) }
                })
        }
        return step
    }

    private mutating func apply(_ event: TraceEvent) {
        switch event.kind {
        case .outputCreated(let creation):
            outputs[creation.output] = WhyOutput(
                id: creation.output, kind: creation.kind, valueType: creation.valueType, site: creation.site,
                label: creation.label)
        case .labeled(let output, let label):
            outputs[output]?.label = label
        case .edge(let source, let derived, let operation):
            if operation == .combine || operation == .merge { sources[derived, default: []].append(source) }
        case .bound(let binding):
            subscriptions[binding.subscription] = WhySubscription(
                id: binding.subscription, output: binding.output, site: binding.site, isOperator: binding.isInternal,
                target: binding.target)
            open(event, cause: binding.cause, action: .bind, output: binding.output, value: lastValue[binding.output])
        case .updated(let output, let cause, let preview):
            open(event, cause: cause, action: .update, output: output, value: preview)
            if let preview {
                lastValue[output] = preview
                recordsValues = true
            }
        case .fired(let output, let cause, let preview):
            open(event, cause: cause, action: .fire, output: output, value: preview)
            if let preview {
                lastValue[output] = preview
                recordsValues = true
            }
        case .unbound(let subscription, _, _):
            // A target's chain names it: dropped after the target only.
            if targets[event.sequence] == nil { subscriptions[subscription] = nil }
        case .released(let output):
            if targets[event.sequence] == nil {
                outputs[output] = nil
                sources[output] = nil
                lastValue[output] = nil
                lastCall[output] = nil
            }
        case .resumed(let delivery, let cause):
            // A delivery Bind deferred past its nesting limit goes on inside `cause`: its frame is
            // open again. The frames that caused it closed long ago and are not kept (memory stays
            // flat), so a chain through it starts there, marked incomplete.
            let index = slot(of: event.thread)
            if let cause {
                while let top = stacks[index].last, top.event != cause.event { stacks[index].removeLast() }
            } else {
                stacks[index].removeAll(keepingCapacity: true)
            }
            if let delivery, let subscription = subscriptions[delivery.subscription] {
                stacks[index].append(
                    Frame(
                        event: delivery.event, parent: Self.unknownParent,
                        action: outputs[subscription.output]?.kind == .relay ? .fire : .update,
                        output: subscription.output, causeSubscription: 0, thread: event.thread, time: event.time,
                        value: lastValue[subscription.output], previous: nil))
            }
        case .calledAt(let root, let site):
            // Written before the root's deliveries: its frame is its thread's innermost.
            let index = slot(of: event.thread)
            if let top = stacks[index].last, top.event == root {
                stacks[index][stacks[index].count - 1].calledAt = site
                lastCall[top.output] = site
            }
        default:
            break
        }
    }

    /// Opens the frame of an update, fire or bind on its thread, closing those its cause says ended.
    /// Frames are compared in place (a copy of one costs a retain per string it may hold).
    private mutating func open(
        _ event: TraceEvent, cause: TraceCause?, action: WhyStep.Action, output: UInt64, value: String?
    ) {
        let index = slot(of: event.thread)
        if let cause {
            while !stacks[index].isEmpty && stacks[index][stacks[index].count - 1].event != cause.event {
                stacks[index].removeLast()
            }
        } else {
            stacks[index].removeAll(keepingCapacity: true)
        }
        if stacks[index].count >= Self.maximumDepth { stacks[index].removeFirst(Self.maximumDepth / 2) }
        var frame = frame(
            for: event, cause: cause, action: action, output: output, value: value,
            previous: action == .update && value != nil ? lastValue[output] : nil)
        if cause == nil && action != .bind { frame.calledAt = lastCall[output] }
        stacks[index].append(frame)
    }

    /// The frame of `event`; a combine's or merge's other inputs are noted now, with their values
    /// then. Mutating only so that calling it never copies the tracer.
    private mutating func frame(
        for event: TraceEvent, cause: TraceCause?, action: WhyStep.Action, output: UInt64, value: String?,
        previous: String?
    ) -> Frame {
        var frame = Frame(
            event: event.sequence, parent: cause?.event ?? 0, action: action, output: output,
            causeSubscription: cause?.subscription ?? 0, thread: event.thread, time: event.time, value: value,
            previous: previous)
        if let cause, !sources.isEmpty, let inputs = sources[output],
            let subscription = subscriptions[cause.subscription], subscription.isOperator
        {
            frame.contributors = inputs.filter { $0 != subscription.output }.map { ($0, lastValue[$0]) }
        }
        return frame
    }

    /// The index of `thread`'s stack, made on first use.
    private mutating func slot(of thread: UInt32) -> Int {
        if let last = lastThread, last.thread == thread { return last.slot }
        let slot: Int
        if let known = slots[thread] {
            slot = known
        } else {
            slot = stacks.count
            slots[thread] = slot
            stacks.append([])
        }
        lastThread = (thread, slot)
        return slot
    }
}
