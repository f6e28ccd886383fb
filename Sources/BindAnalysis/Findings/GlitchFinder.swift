import BindTraceModel

/// Finds `glitch`: one root update reaching a combine or merge more than once in one propagation,
/// through two or more paths that enter it by different inputs (the diamond `a → b`, `a → c`,
/// `combine(b, c)`). Every delivery but the
/// last carried a value made of one new input and stale others: its subscribers saw an
/// inconsistent, intermediate value.
///
/// A merge has no latest-of-each to pair: only its deliveries that carry state count. One entering
/// from a Relay (directly, or through maps, filters and merges of it) is an event, and two events reaching a
/// merge are two events (one tap logged as analytics and navigation), not a stale value and a
/// final one. Combines are judged on every delivery.
///
/// The propagation is the thread's open frames: its root is the outermost one (the update or bind
/// no subscription caused). Checked only for updates of combines and merges that have a cause, so
/// the hot path costs one comparison of the Output's kind. Reported once per (root Output's site,
/// combine's site), with how many propagations glitched; the event is the first inconsistent
/// delivery, so `bind-trace why --event N` shows its path.
struct GlitchFinder {
    /// One combine's deliveries within the propagation currently reaching it.
    private struct Propagation {
        let root: UInt64
        var deliveries: Int
        var firstEvent: UInt64
        var firstValue: String?
        var lastValue: String?
        var paths: [[UInt64]]
        var pathNames: [[String]]
        /// Each kept path's entry into the combine and length: a delivery whose pair is known takes
        /// a known path, told without copying its stack (a deep one costs thousands of entries).
        var pathKeys: [PathKey]
        /// The Outputs that delivered to the combine: two or more make a diamond (one, reached
        /// again, is a loop: the feedback-cycle rule's).
        var inputs: Set<UInt64>
        /// Named when the propagation starts: the root's node may be gone when it ends.
        let rootOutput: (name: String, site: SourceSite)?
        let rootCall: SourceSite?
        let combine: (name: String, site: SourceSite)
    }

    /// What one glitch (a root site and a combine site) has shown so far.
    private struct Glitch {
        var combineName: String
        var combineSite: SourceSite
        var rootName: String
        var rootSite: SourceSite
        var rootCall: SourceSite?
        var firstEvent: UInt64
        var inconsistent: String?
        var final: String?
        var pathNames: [[String]]
        var outputs: [UInt64]
        var propagations = 1
        var deliveries: Int
    }

    /// A path's input into the combine and its length.
    private struct PathKey: Equatable {
        let input: UInt64
        let depth: Int
    }

    private struct Key: Hashable {
        let root: SourceSite
        let combine: SourceSite
    }

    private var current: [UInt64: Propagation] = [:]
    private var glitches: [Key: Glitch] = [:]
    private var order: [Key] = []
    /// Each Output's last recorded root call site (the recorder writes one only when the line
    /// changes, so it carries forward).
    private var callSites: [UInt64: SourceSite] = [:]

    /// The root updates of `output` are called at `site` from now on.
    mutating func calledAt(output: UInt64, site: SourceSite) {
        callSites[output] = site
    }

    /// An update of the combine or merge `node`, caused through the frames `stack` (outermost first).
    mutating func updated(_ node: OutputNode, stack: UnsafeBufferPointer<Frame>, sequence: UInt64, value: String?) {
        // Only what the analysis focuses on (a test's own scope): other tests' propagations are theirs.
        guard node.inFocus, let rootFrame = stack.first else { return }
        if node.kind == .merge && Self.carriesEvent(stack) { return }
        let root = rootFrame.sequence
        let input = stack.last?.outputID ?? 0
        let key = PathKey(input: input, depth: stack.count)
        if var propagation = current[node.id], propagation.root == root {
            propagation.deliveries += 1
            propagation.lastValue = value
            propagation.inputs.insert(input)
            // Hot path of deep propagations: the stack is read only for a path not seen yet.
            if propagation.paths.count < 4 && !propagation.pathKeys.contains(key) {
                propagation.pathKeys.append(key)
                propagation.paths.append(Self.path(stack, node))
                propagation.pathNames.append(names(stack, node))
            }
            current[node.id] = propagation
            return
        }
        if let ended = current[node.id] { judge(ended) }
        current[node.id] = Propagation(
            root: root, deliveries: 1, firstEvent: sequence, firstValue: value, lastValue: value,
            paths: [Self.path(stack, node)], pathNames: [names(stack, node)], pathKeys: [key], inputs: [input],
            rootOutput: rootFrame.output.map { ($0.narrated, $0.site) },
            rootCall: rootFrame.kind == .update ? callSites[rootFrame.outputID] : nil,
            combine: (node.narrated, node.site))
    }

    /// The combine or merge `id` is gone: its last propagation is judged now.
    // Hot path (every release): an empty table is not hashed into, and most traces have no combines.
    mutating func released(_ id: UInt64) {
        if !callSites.isEmpty { callSites[id] = nil }
        guard !current.isEmpty, let propagation = current.removeValue(forKey: id) else { return }
        judge(propagation)
    }

    private mutating func judge(_ propagation: Propagation) {
        guard propagation.deliveries >= 2, propagation.inputs.count >= 2, let root = propagation.rootOutput else {
            return
        }
        let combine = propagation.combine
        let key = Key(root: root.site, combine: combine.site)
        if var known = glitches[key] {
            known.propagations += 1
            glitches[key] = known
            return
        }
        order.append(key)
        glitches[key] = Glitch(
            combineName: combine.name, combineSite: combine.site, rootName: root.name, rootSite: root.site,
            rootCall: propagation.rootCall, firstEvent: propagation.firstEvent,
            inconsistent: propagation.firstValue, final: propagation.lastValue, pathNames: propagation.pathNames,
            outputs: Array(Set(propagation.paths.joined())).sorted(), deliveries: propagation.deliveries)
    }

    /// Whether the delivery made through `stack` (its last frame is the Output entering the merge)
    /// is an event: the nearest Output up the path that is not a map, filter, merge or
    /// `ignoringDuplicates` (each passes on what its input carries) is a Relay.
    private static func carriesEvent(_ stack: UnsafeBufferPointer<Frame>) -> Bool {
        for frame in stack.reversed() {
            switch frame.output?.kind {
            case .relay: return true
            case .map, .filter, .merge, .ignoringDuplicates: continue
            default: return false
            }
        }
        return false
    }

    /// The Outputs of a path: the stack's, then the combine's.
    private static func path(_ stack: UnsafeBufferPointer<Frame>, _ node: OutputNode) -> [UInt64] {
        var path: [UInt64] = []
        path.reserveCapacity(stack.count + 1)
        for frame in stack { path.append(frame.outputID) }
        path.append(node.id)
        return path
    }

    /// How many Outputs of a path are named at most: the root, then the last ones before the
    /// combine. A path thousands of steps deep would cost a name per step per propagation, and
    /// make a finding no one reads.
    static let namedPathSteps = 8

    /// The path's names: every one, or past ``namedPathSteps`` the root, how many are left out, and
    /// the last ones.
    private func names(_ stack: UnsafeBufferPointer<Frame>, _ node: OutputNode) -> [String] {
        func name(_ frame: Frame) -> String { frame.output?.narrated ?? Narrator.unknownOutput(frame.outputID) }
        guard stack.count > Self.namedPathSteps else { return stack.map(name) + [node.narrated] }
        let last = stack[(stack.count - Self.namedPathSteps + 2)...]
        let skipped = stack.count - last.count - 1
        return [name(stack[0]), "… \(Narrator.count(UInt64(skipped), "step")) …"] + last.map(name) + [node.narrated]
    }

    /// Every glitch, the propagations still open judged as they stand.
    mutating func findings() -> [Finding] {
        for (_, propagation) in current.sorted(by: { $0.key < $1.key }) { judge(propagation) }
        current = [:]
        return order.compactMap { key in
            guard let glitch = glitches[key] else { return nil }
            let times = Narrator.count(UInt64(glitch.propagations), "update")
            let shown = glitch.inconsistent.map { "\"\(Narrator.shortened($0))\"" } ?? "an intermediate value"
            let final = glitch.final.map { " before the final \"\(Narrator.shortened($0))\"" } ?? ""
            let message =
                "one update of \(glitch.rootName) reaches \(glitch.combineName) "
                + "\(glitch.deliveries) times through \(glitch.pathNames.count) paths: its subscribers see "
                + "\(shown)\(final) (\(times) of the root glitched this way)"
            var related = glitch.pathNames.enumerated().map { index, names in
                Finding.Related(
                    site: glitch.combineSite, note: "path \(index + 1): " + Narrator.path(names))
            }
            related.insert(Finding.Related(site: glitch.rootSite, note: "\(glitch.rootName) is created here"), at: 0)
            if let call = glitch.rootCall {
                related.insert(Finding.Related(site: call, note: "the root update is called here"), at: 0)
            }
            return Finding(
                kind: .glitch, message: message, site: glitch.combineSite, related: related, outputs: glitch.outputs,
                event: glitch.firstEvent)
        }
    }
}
