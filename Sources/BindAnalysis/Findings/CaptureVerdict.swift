@_spi(Harness) import BindTraceModel

/// What a subscription's recorded captures say about it keeping its Output alive: the fact the
/// retain-cycle rule is judged by when the trace has it (format 1.4, docs/analysis.md).
///
/// A closure keeps its Output alive in a cycle exactly when something it captures strongly holds,
/// through strong stored properties, that Output or one it derives from (an operator's source
/// holds what it derives). A closure that captures its owner only weakly or `unowned`, or captures
/// nothing that holds the Output, closes no cycle.
enum CaptureVerdict {
    /// The trace has no captures for it (an older trace, a binding made before the recording).
    case notRecorded
    /// `capture` holds `held`, which leads to the Output the closure is bound to.
    case closesCycle(capture: TraceEvent.Capture, held: TraceEvent.Capture.HeldOutput)
    /// Nothing it captures could be read, and nothing read closes a cycle.
    case unreadable
    /// What it captures keeps none of it alive.
    case keepsNothing

    init(_ subscription: SubscriptionNode, replay: Replay) {
        guard let captures = subscription.captures else {
            self = .notRecorded
            return
        }
        let bound = subscription.output
        for capture in captures where capture.strength == .strong {
            for held in capture.holds
            where held.output == bound || Self.derives(bound, from: held.output, replay: replay) {
                self = .closesCycle(capture: capture, held: held)
                return
            }
        }
        self = captures.contains { $0.strength == .unknown } ? .unreadable : .keepsNothing
    }

    /// "holds .viewModel.isBookmarked ('isBookmarked' (Bool)), the Output the closure is bound to",
    /// or, when the held Output is a source of the bound one, "… which 'count' derives from".
    static func pathText(held: TraceEvent.Capture.HeldOutput, heldName: String, bound: UInt64, boundName: String)
        -> String
    {
        let whose = held.output == bound ? "the Output the closure is bound to" : "which \(boundName) derives from"
        guard !held.path.isEmpty else { return "is \(heldName) itself, \(whose)" }
        return "holds \(Narrator.shortened(held.path)) (\(heldName)), \(whose)"
    }

    var closesCycle: Bool {
        if case .closesCycle = self { true } else { false }
    }

    /// Whether `output` is derived from `source` through live operator edges (or a flatMap's
    /// current inner): then `source` holds it. At most 64 Outputs are visited.
    static func derives(_ output: UInt64, from source: UInt64, replay: Replay) -> Bool {
        var pending = [output]
        var seen: Set<UInt64> = [output]
        while let current = pending.popLast(), seen.count <= 64 {
            guard let node = replay.output(id: current) else { continue }
            for edge in node.incoming where edge.role != .pastInner {
                if edge.source == source { return true }
                if seen.insert(edge.source).inserted { pending.append(edge.source) }
            }
        }
        return false
    }
}
