/// What to judge and what to keep while analysing a trace.
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
    public var keepsReleasedOutputs: Bool
    /// Take ``AnalysisResult/state`` right after this event instead of at the end.
    public var stateAt: UInt64?
    /// How many trace errors to keep (all are counted).
    public var maximumTraceErrors: Int

    public init(
        atExit: Bool = false, focusScope: UInt64? = nil, kinds: Set<Finding.Kind> = Set(Finding.Kind.allCases),
        keepsReleasedOutputs: Bool = false, stateAt: UInt64? = nil, maximumTraceErrors: Int = 1000
    ) {
        self.atExit = atExit
        self.focusScope = focusScope
        self.kinds = kinds
        self.keepsReleasedOutputs = keepsReleasedOutputs
        self.stateAt = stateAt
        self.maximumTraceErrors = maximumTraceErrors
    }
}
