import BindTraceModel

/// A ``WhyChain`` as lines of text: `bind-trace why`'s output and the report's folded chain.
///
/// ```
/// why event 42: update of 'status' (String), 3 steps from the root
/// root #17 on thread 1 (main): update(withValue:) called at SignInSample/SignInScreen.swift:19
///      'email' (String): "" → "ada@example.com"
///   ↳ #18 on thread 1 (main) via map at SignInViewModel.swift:12 (subscription 4)
///      map → Bool at SignInViewModel.swift:12: "false" → "true"
/// ```
package enum WhyText {
    /// The chain, one line per entry; strings from the trace are shortened (the caller escapes).
    package static func lines(_ chain: WhyChain) -> [String] {
        var lines: [String] = []
        let last = chain.steps.last
        let what = last.map(title) ?? "event"
        lines.append("why event \(chain.selected): \(what), \(distance(chain))")
        if !chain.isComplete {
            lines.append(
                "(earlier steps are not in the trace: the root came before its start, Bind deferred a step "
                    + "of a chain more than 128 deep, or the chain is over \(WhyTracer.maximumDepth) deep)")
        }
        for (index, step) in chain.steps.enumerated() {
            lines.append(header(of: step, isRoot: index == 0 && chain.isComplete))
            lines.append("     " + change(of: step, recordsValues: chain.recordsValues))
            if let via = step.via, !via.contributors.isEmpty {
                let changed = chain.steps.indices.contains(index - 1) ? chain.steps[index - 1].output?.name : nil
                var text = "     " + (changed.map { "input \($0) changed; " } ?? "")
                text += "only contributed: "
                text += via.contributors.map { "\($0.output.name) = \(quoted($0.value))" }.joined(separator: ", ")
                lines.append(text)
            }
        }
        if let subscription = chain.deliveredTo {
            lines.append("  ↳ delivered to the \(subscription.name) (subscription \(subscription.id))")
        }
        return lines
    }

    /// How far the selected event is from the root, in hops: `the root itself`, `1 step from the
    /// root`, `3 steps from the root`; a chain cut short counts from its oldest step kept.
    private static func distance(_ chain: WhyChain) -> String {
        let hops = UInt64(max(chain.steps.count - 1, 0))
        guard chain.isComplete else {
            return hops == 0
                ? "the oldest step the trace keeps" : "\(Narrator.count(hops, "step")) from the oldest step kept"
        }
        return hops == 0
            ? "the root itself (no subscription caused it)" : "\(Narrator.count(hops, "step")) from the root"
    }

    private static func header(of step: WhyStep, isRoot: Bool) -> String {
        let thread = "thread \(step.thread)" + (step.threadName.map { " (\(Narrator.shortened($0)))" } ?? "")
        if isRoot {
            var text = "root #\(step.event) on \(thread): "
            switch step.action {
            case .update: text += "update(withValue:)"
            case .fire: text += "fire()"
            case .bind: text += "bind"
            case .other: text += step.eventName
            }
            if let site = step.calledAt {
                text += " called at \(site)"
            } else if step.action == .update || step.action == .fire {
                text += " (call site not recorded)"
            }
            return text
        }
        var text = "  ↳ #\(step.event) on \(thread)"
        if let via = step.via {
            if let operation = via.operator, let output = step.output {
                text += " via \(operation) at \(Narrator.place(output.site))"
            } else if let subscription = via.subscription {
                text += " via the \(subscription.name)"
            }
            text += " (subscription \(via.subscriptionID))"
        }
        return text
    }

    /// What the selected event was, for the first line: `update of 'status' (String)`.
    private static func title(_ step: WhyStep) -> String {
        if step.reachedGoneTarget {
            return
                "dangling: \(step.output?.name ?? "an Output") delivered to a Binder whose \(targetName(step)) is gone"
        }
        return actionName(step) + (step.output.map { " of \($0.name)" } ?? "")
    }

    /// The type of the Binder target a dangling step's subscription delivers to (`target` if unknown).
    private static func targetName(_ step: WhyStep) -> String {
        step.via?.subscription?.target.map { Narrator.name(of: $0) } ?? "target"
    }

    private static func change(of step: WhyStep, recordsValues: Bool) -> String {
        if step.reachedGoneTarget {
            let binder =
                step.via?.subscription.map { "the \($0.name)" }
                ?? "subscription \(step.via?.subscriptionID ?? 0) (its bind is not in the trace)"
            return "dangling: \(binder) received \(quoted(step.value)), but its \(targetName(step)) was already "
                + "released: the value went nowhere, and the Binder is still bound"
        }
        let name = step.output?.name ?? step.eventName
        switch step.action {
        case .update, .fire:
            // No earlier value recorded (the first update, or previews off): the new value alone.
            guard let previous = step.previous else { return "\(name): \(quoted(step.value))" }
            return "\(name): \(quoted(previous)) → \(quoted(step.value))"
        case .bind:
            // With values recorded, a bind without one delivered the value the Output was made with
            // (never updated since): the recorder sees updates, not creations' values.
            if step.value == nil, recordsValues {
                return "bind to \(name), delivering the value it was created with (not in the trace: only "
                    + "updates record values, and it was not updated before)"
            }
            return "bind to \(name), delivering its current value \(quoted(step.value))"
        case .other:
            return step.eventName + (step.output.map { " of \($0.name)" } ?? "")
        }
    }

    /// `update`, `fire`, `bind`, or the event's kind name.
    private static func actionName(_ step: WhyStep) -> String {
        step.action == .other ? step.eventName : step.action.rawValue
    }

    /// A value preview quoted and shortened, or a note that the trace has none.
    static func quoted(_ value: String?) -> String {
        guard let value else { return "(value not recorded)" }
        return "\"\(Narrator.shortened(value))\""
    }
}
