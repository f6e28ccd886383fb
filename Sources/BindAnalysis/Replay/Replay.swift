@_spi(Harness) import BindTraceModel

/// Rebuilds the binding graph event by event, as it was at every moment of a trace.
///
/// Feed it the events of a trace in order with ``apply(_:)``; between two events, query the state
/// (``outputs``, ``subscriptions``, ``edges``, ``snapshot()``); call ``finish()`` after the last
/// event to get the findings. Inconsistencies become ``errors``, never crashes.
///
/// ```swift
/// let replay = Replay()
/// let reader = try TraceReader(path: "app.trace")
/// while let event = try reader.next() {
///     replay.apply(event)
///     if event.sequence == 1200 { print(replay.snapshot().outputs.count, "Outputs alive at #1200") }
/// }
/// let findings = replay.finish()
/// ```
///
/// Causes give exact nesting: each thread has a stack of open frames (updates, fires and binds still
/// delivering). An event caused by frame *P* closes the frames above *P*; an event without a cause
/// closes every frame of its thread. ``lastDepth`` is the nesting of the latest event.
///
/// - Complexity: memory proportional to what is alive at once (Outputs, subscriptions, open frames,
///   scopes something alive belongs to), not to the trace's length. Each event costs O(1) expected,
///   except bounded scans on rare events (feedback loops, releases with edges).
@_spi(Harness) public final class Replay {
    package let options: AnalysisOptions
    // Hot state: exclusivity is not checked at run time (the replay is single-threaded and never
    // re-enters itself); the checks cost a fifth of the replay, and a tenth of a bind.
    /// Inconsistencies found so far (at most ``AnalysisOptions/maximumTraceErrors``; see ``errorCount``).
    @exclusivity(unchecked) public internal(set) var errors: [TraceError] = []
    /// Every inconsistency found, including those not kept in ``errors``.
    @exclusivity(unchecked) public internal(set) var errorCount = 0
    /// The sequence number of the latest event applied.
    @exclusivity(unchecked) public internal(set) var lastSequence: UInt64 = 0
    /// How deep the latest event is nested in deliveries on its thread (0: top level).
    @exclusivity(unchecked) package internal(set) var lastDepth = 0
    /// Counts and durations for ``TraceSummary``.
    @exclusivity(unchecked) package internal(set) var statistics = TraceStatistics()

    /// The texts nodes refer to by symbol.
    let symbols = SymbolTable()
    let outputTable = IDTable<OutputNode>()
    let subscriptionTable = IDTable<SubscriptionNode>()
    /// Open scopes, and placeholders for scopes that began before the recording.
    let scopeTable = IDTable<ScopeNode>()
    /// Released Outputs and outputs released while kept (``AnalysisOptions/keepsReleasedOutputs``).
    @exclusivity(unchecked) var releasedOutputs = IDHistory()
    var keptReleased: [UInt64: OutputNode] = [:]
    @exclusivity(unchecked) var endedSubscriptions = IDHistory()
    /// The last `dangling` record counted as a delivery: its event, subscription and Output. The
    /// recorder writes one right before the bind of a new Binder target at a dead target's address,
    /// as a note, not a delivery (`Replay.applyBound` takes it back).
    @exclusivity(unchecked) var lastDangling: (sequence: UInt64, subscription: UInt64, output: UInt64) = (0, 0, 0)
    /// Subscription nodes nothing refers to any more, for the next binds (see ``SubscriptionNode``).
    /// Each holds one retain.
    @exclusivity(unchecked) var subscriptionPool: [Unmanaged<SubscriptionNode>] = []
    /// Released Output nodes nothing refers to any more, for the next creations (see ``OutputNode``).
    @exclusivity(unchecked) var outputPool: [Unmanaged<OutputNode>] = []
    /// Emptied lists of ended scopes (``ScopeNode/subscriptions``), for the next scopes.
    @exclusivity(unchecked) var spareSubscriptionLists: [[SubscriptionNode]] = []
    /// At most this many nodes wait in each pool: what a burst of unbinds or releases frees beyond it is freed.
    static var poolLimit: Int { 1024 }
    /// Open frames, by thread number.
    let frameStacks = FrameStacks()
    /// The open frames of each thread seen, outermost first (a copy, for tests and diagnostics).
    var stacks: [UInt32: [Frame]] {
        Dictionary(uniqueKeysWithValues: frameStacks.threads.map { ($0, frameStacks.frames($0)) })
    }
    /// Released Outputs that open frames still refer to: frames do not retain their Output (a
    /// retain and release per update), so these are kept alive here until their last frame closes.
    @exclusivity(unchecked) var releasedWithOpenFrames: [ObjectIdentifier: OutputNode] = [:]

    @exclusivity(unchecked) var feedbackCycles = FeedbackCycleFinder()
    @exclusivity(unchecked) var glitches = GlitchFinder()
    @exclusivity(unchecked) var redundantUpdates = RedundantUpdateFinder()
    @exclusivity(unchecked) var duplicateBindings = DuplicateBindingFinder()
    @exclusivity(unchecked) var danglingBinders = DanglingBinderFinder()
    @exclusivity(unchecked) var structuralCycles = StructuralCycleFinder()
    @exclusivity(unchecked) var stoppedCombines = StoppedCombineFinder()
    /// Abandoned subscriptions that kept receiving values after their scope ended, until their
    /// Output was released (``LeakFinder`` reports them with those still bound at the end).
    @exclusivity(unchecked) var lateLeaks: [(node: SubscriptionNode, deliveries: UInt64, duration: UInt64)] = []
    /// Derived Outputs an outer source kept alive after their scope ended for longer than the scope's
    /// own work, then released before the end (``LeakFinder`` reports them as leaked Outputs): the
    /// first of each operator line, and how many more (memory stays per line, not per Output).
    @exclusivity(unchecked) var lateOutputLeaks: [SiteKey: (first: LateOutputLeak, count: Int)] = [:]
    /// Binder bindings no handle could end that went with their Output's release, by target and bind
    /// line: the first and last such release. A target whose binding goes with its Output each time
    /// (a cell replacing the row view model it holds) is bound to what its owner owns.
    @exclusivity(unchecked) var releasedWithOutput: [BindingGroup.Key: (first: UInt64, last: UInt64)] = [:]
    /// Bind lines of closures, their handles dropped, that went with their Output's release: what
    /// such a closure captures did not keep its Output alive, so it is no retain cycle's keeper
    /// (``LeakFinder``: a cell's closure to the row view model it made and later replaced).
    @exclusivity(unchecked) var droppedClosuresReleasedWithOutput: Set<SiteKey> = []
    /// Whether the trace named ``AnalysisOptions/focusScope`` (began it, or referred to it): a
    /// focus the trace never names judges nothing, which a gate must not take for "no findings".
    @exclusivity(unchecked) package internal(set) var sawFocusScope = false
    /// Containers released while holding subscriptions still bound: how many each left bound.
    @exclusivity(unchecked) var releasedContainers: [UInt64: Int] = [:]
    /// Whether the trace records `Subscription` handles and containers (see `Replay+Handles.swift`).
    /// Set on the first such event; a trace that records them but has none may set it up front.
    @exclusivity(unchecked) package var recordsHandles = false
    /// Containers emptied after the scope that filled them ended: used once per configuration (a
    /// reused cell's bag), so what they hold now is meant to stay until their next use.
    @exclusivity(unchecked) var reusedContainers: Set<UInt64> = []
    /// Scopes that ended lately, by id, oldest first out (at most ``endedScopeLimit``): work carried
    /// out of a scope (a queued operation, a timer, a thread) may bind in it after it ended, and is
    /// judged with it.
    // A table, not a `Dictionary`: three hashed operations per scope cost a thousand instructions.
    let endedScopes = IDTable<ScopeNode>()
    @exclusivity(unchecked) var endedScopeOrder: [UInt64] = []
    @exclusivity(unchecked) var endedScopeCursor = 0
    static var endedScopeLimit: Int { 16_384 }
    static var noteLimit: Int { 200 }
    /// Scopes open now (placeholders not counted), and how many began on each thread.
    @exclusivity(unchecked) var openScopeCount = 0
    @exclusivity(unchecked) var openScopesByThread = ThreadCounts()
    /// Binds made on a thread with no scope while scoped work ran, the first of each site: notes.
    var unscopedBinds: [SiteKey: AnalysisNote] = [:]
    /// Outputs and subscriptions the trace announces as made before it began (a capture, or a flight
    /// recording's later segment): a finding that involves one says so.
    @exclusivity(unchecked) var preexistingOutputs: Set<UInt64> = []
    @exclusivity(unchecked) var preexistingSubscriptions: Set<UInt64> = []
    var finished: [Finding]?
    /// `options.kinds` tested once: a `Set` lookup hashes, and these are asked per event.
    let looksForFeedbackCycles: Bool
    let looksForRedundantUpdates: Bool
    let looksForStructuralCycles: Bool
    let looksForDanglingBinders: Bool
    let looksForStoppedCombines: Bool

    public init(options: AnalysisOptions = AnalysisOptions()) {
        self.options = options
        looksForFeedbackCycles = options.kinds.contains(.feedbackCycle)
        looksForRedundantUpdates = options.kinds.contains(.redundantUpdate)
        looksForStructuralCycles = options.kinds.contains(.structuralCycle)
        looksForDanglingBinders = options.kinds.contains(.danglingBinder)
        looksForStoppedCombines = options.kinds.contains(.stoppedCombine)
    }

    /// A replay of the trace `reader` reads: format 1.1 and later record Subscription handles and
    /// containers, so the precise leak rules apply from its first event, not from its first handle
    /// event (docs/analysis.md). Every replay of a trace file is made here, so `bind-trace`, the
    /// library and the report judge a trace alike.
    package convenience init(options: AnalysisOptions, reading reader: TraceReader) {
        self.init(options: options)
        recordsHandles = reader.version >= (1, 1)
    }

    deinit {
        // An open scope and the subscriptions bound in it hold each other until it ends: a trace
        // that stops with scopes open would otherwise leave them behind.
        for scope in scopeTable.values { scope.subscriptions = [] }
        for scope in endedScopes.values { scope.subscriptions = [] }
        for node in subscriptionPool { node.release() }
        for node in outputPool { node.release() }
    }
}

extension OutputNode {
    /// Sets the role of this node's outgoing inner edge to `flatMap`.
    func setRole(_ role: EdgeState.Role, toward flatMap: UInt64) {
        for index in outgoing.indices where outgoing[index].derived == flatMap && outgoing[index].role != .operator {
            outgoing[index].role = role
        }
    }
}
