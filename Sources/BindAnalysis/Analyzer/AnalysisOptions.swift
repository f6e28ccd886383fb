/// What to judge while analysing a trace.
///
/// ```swift
/// let options = AnalysisOptions(atExit: true, kinds: [.leakedSubscription, .retainCycle])
/// let result = try TraceAnalyzer.analyze(path: "app.trace", options: options)
/// ```
public struct AnalysisOptions: Hashable, Sendable {
    /// Also judge what belongs to no ended scope when the trace ends, as if the run were a scope
    /// ending at exit — only what a user can act on: a subscription nothing can unbind any more
    /// (without handle records: a closure still bound). Outputs alive at exit (an app-wide store, a
    /// screen on screen) are an app's normal state and are not reported.
    ///
    /// Useful for short runs and tests without scopes. Outputs and subscriptions that existed before
    /// the recording started are not judged: their creation is not in the trace.
    public var atExit: Bool
    /// Judge only what was created or bound inside this scope and the scopes nested in it.
    ///
    /// Set it to a capture's `Recording.scope`: other threads record into the same capture, and
    /// their Outputs are not the captured body's business.
    public var focusScope: UInt64?
    /// The finding kinds to report.
    public var kinds: Set<Finding.Kind>
    /// Keep released Outputs in the state (flagged ``OutputState/isReleased``) instead of dropping
    /// them. Memory then grows with every Output ever created: for small traces and drawings only.
    ///
    /// The state is for `bind-trace graph` and the report, not API: `@_spi(Harness)`, as this option.
    @_spi(Harness) public var keepsReleasedOutputs = false
    /// Take ``AnalysisResult/state`` right after this event instead of at the end (`@_spi(Harness)`,
    /// as ``keepsReleasedOutputs``).
    @_spi(Harness) public var stateAt: UInt64?
    /// How many trace errors to keep (all are counted).
    public var maximumTraceErrors: Int

    /// Options that judge the kinds of finding in `kinds`.
    ///
    /// - Parameters:
    ///   - atExit: also judge, at the end of the trace, what no ended scope judged (``atExit``).
    ///   - focusScope: judge only what this scope and the scopes nested in it made (``focusScope``).
    ///   - kinds: the finding kinds to report; every kind by default.
    ///   - maximumTraceErrors: how many trace errors to keep in ``AnalysisResult/traceErrors``.
    public init(
        atExit: Bool = false, focusScope: UInt64? = nil, kinds: Set<Finding.Kind> = Set(Finding.Kind.allCases),
        maximumTraceErrors: Int = 1000
    ) {
        self.atExit = atExit
        self.focusScope = focusScope
        self.kinds = kinds
        self.maximumTraceErrors = maximumTraceErrors
    }

    /// Options that also say which state to keep, for the graph and the report. Where both initialisers
    /// fit a call, Swift picks the other one (fewer defaulted arguments): the same options.
    @_spi(Harness) public init(
        atExit: Bool = false, focusScope: UInt64? = nil, kinds: Set<Finding.Kind> = Set(Finding.Kind.allCases),
        keepsReleasedOutputs: Bool = false, stateAt: UInt64? = nil, maximumTraceErrors: Int = 1000
    ) {
        self.init(atExit: atExit, focusScope: focusScope, kinds: kinds, maximumTraceErrors: maximumTraceErrors)
        self.keepsReleasedOutputs = keepsReleasedOutputs
        self.stateAt = stateAt
    }
}
