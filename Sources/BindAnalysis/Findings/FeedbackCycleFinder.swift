@_spi(Harness) import BindTraceModel

/// Finds `feedback-cycle`: an Output updated again while its own update is still propagating on the
/// same thread, through one or more subscriptions.
///
/// Checked only when the updated Output has an open frame (a counter on the Output), so the scan
/// of the thread's stack never runs on the hot path. Each loop is reported once, whichever Output
/// it was entered from and however often it ran: loops are told apart by their source lines.
struct FeedbackCycleFinder {
    /// One hop of a loop: an Output, and the subscription whose closure carried the update on.
    struct Step: Hashable {
        let outputSite: SourceSite?
        let subscriptionSite: SourceSite?
    }

    private struct Hop {
        let output: UInt64
        let outputName: String
        let outputSite: SourceSite?
        let subscription: UInt64
        let subscriptionSite: SourceSite?
        let subscriptionIsInternal: Bool
        let throughBind: Bool
    }

    private struct Loop {
        /// Starting with the hop whose subscription is the finding's site.
        var hops: [Hop]
        var depth: Int
        var runs: Int
        var lastRun: UInt64
        let sequence: UInt64
    }

    private var loops: [[Step]: Loop] = [:]
    private var order: [[Step]] = []

    mutating func check(
        _ node: OutputNode, cause: TraceCause, stack: UnsafeBufferPointer<Frame>, sequence: UInt64, replay: Replay
    ) {
        guard let start = stack.lastIndex(where: { $0.kind == .update && $0.output === node }) else { return }
        var hops: [Hop] = []
        hops.reserveCapacity(stack.count - start)
        for index in start..<stack.count {
            let frame = stack[index]
            let subscriptionID = index + 1 < stack.count ? stack[index + 1].causeSubscription : cause.subscription
            let subscription = replay.subscription(id: subscriptionID)
            hops.append(
                Hop(
                    output: frame.outputID,
                    outputName: frame.output?.narrated ?? Narrator.unknownOutput(frame.outputID),
                    outputSite: frame.output?.site, subscription: subscriptionID,
                    subscriptionSite: subscription?.site, subscriptionIsInternal: subscription?.isInternal ?? false,
                    throughBind: frame.kind == .bind))
        }
        let inFocus = hops.contains { hop in
            replay.output(id: hop.output)?.inFocus == true || replay.subscription(id: hop.subscription)?.inFocus == true
        }
        guard inFocus else { return }
        // The open updates of this Output, plus this one: a counter, not a scan, so a runaway loop
        // tens of thousands deep stays linear. (It counts every thread's open updates of the
        // Output; another thread updating it at the very same time adds to the depth.)
        let depth = node.openFrames + 1
        // A run is everything under one top-level event; a loop is counted once per run.
        let run = stack.first?.sequence ?? sequence
        // Rotate so the loop starts at its reported subscription: the same loop entered anywhere gets one key.
        let chosen = Self.reportedHop(hops)
        let rotated = Array(hops[chosen...] + hops[..<chosen])
        let key = rotated.map { Step(outputSite: $0.outputSite, subscriptionSite: $0.subscriptionSite) }
        if var loop = loops[key] {
            loop.depth = max(loop.depth, depth)
            if loop.lastRun != run {
                loop.runs += 1
                loop.lastRun = run
            }
            loops[key] = loop
        } else {
            loops[key] = Loop(hops: rotated, depth: depth, runs: 1, lastRun: run, sequence: sequence)
            order.append(key)
        }
    }

    /// The user's bind with the smallest site, else the smallest site: the same for every entry point.
    private static func reportedHop(_ hops: [Hop]) -> Int {
        func rank(_ hop: Hop) -> (Int, SourceSite) {
            (hop.subscriptionIsInternal ? 1 : 0, hop.subscriptionSite ?? SourceSite(file: "\u{10FFFF}", line: .max))
        }
        var best = 0
        for index in hops.indices.dropFirst() where rank(hops[index]) < rank(hops[best]) { best = index }
        return best
    }

    func findings() -> [Finding] {
        order.compactMap { key in
            guard let loop = loops[key] else { return nil }
            let hops = loop.hops
            // hops[0]'s subscription updates hops[1]'s Output (or, for a loop of one, hops[0]'s own).
            let names = (hops.dropFirst() + hops.prefix(1)).map(\.outputName)
            let path = Narrator.path(names + [names[0]])
            let subscriptions = hops.count == 1 ? "1 subscription" : "\(hops.count) subscriptions"
            var related: [Finding.Related] = []
            for index in hops.indices {
                let next = hops[(index + 1) % hops.count]
                if let site = next.outputSite {
                    related.append(Finding.Related(site: site, note: "\(next.outputName) is created here"))
                }
                if index + 1 < hops.count, let site = next.subscriptionSite {
                    let how = next.subscriptionIsInternal ? "operator's subscription" : "bound here"
                    let through = hops[(index + 2) % hops.count].outputName
                    related.append(Finding.Related(site: site, note: "\(how): it updates \(through)"))
                }
            }
            let first = hops[0]
            let target = hops.count > 1 ? hops[1].outputName : first.outputName
            return Finding(
                kind: .feedbackCycle,
                message:
                    "\(target) is updated again while its own update is still propagating: \(path), "
                    + "through \(subscriptions), depth \(loop.depth)"
                    + (loop.runs > 1 ? " (in \(loop.runs) separate updates)" : ""),
                site: first.subscriptionSite, related: related, outputs: hops.map(\.output),
                subscriptions: hops.map(\.subscription), event: loop.sequence)
        }
    }
}
