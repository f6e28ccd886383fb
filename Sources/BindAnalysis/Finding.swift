import BindTraceModel

/// Something wrong with the bindings a trace shows: a leak, a cycle, a dangling binder.
///
/// Every finding names the user's source line to look at (`site`) and, where it helps, the other
/// lines involved (`related`). Sites inside Bind's own operators are the operator's call site.
public struct Finding: Hashable, Sendable {
    /// The kind of problem; the raw values are the exact strings of the command line and reports.
    public enum Kind: String, Hashable, Sendable, CaseIterable, Comparable {
        /// A subscription still bound after the work that bound it ended, that nothing can unbind any more.
        case leakedSubscription = "leaked-subscription"
        /// An Output made inside a scope and kept alive after the scope ended by what the scope bound.
        case leakedOutput = "leaked-output"
        /// A bound closure captures its Output's owner strongly: owner → Output → closure → owner.
        case retainCycle = "retain-cycle"
        /// One target bound from the same line to several Outputs at once (or to one Output twice).
        case duplicateBinding = "duplicate-binding"
        /// A Binder still bound, and still receiving values, after its target is gone.
        case danglingBinder = "dangling-binder"
        /// An Output updated again while its own update was still propagating.
        case feedbackCycle = "feedback-cycle"
        /// Derived Outputs that depend on each other in a circle.
        case structuralCycle = "structural-cycle"
        /// One update reached a combine or merge through two paths: it delivered twice, first with a stale value.
        case glitch
        /// Updates that delivered the value their Output already had (a note).
        case redundantUpdate = "redundant-update"
        /// A combine that stopped for good because one of its sources was released (a note).
        case stoppedCombine = "stopped-combine"

        /// How serious the kind is, for `--fail-on`.
        public var severity: Severity {
            switch self {
            case .feedbackCycle, .structuralCycle: .error
            case .leakedSubscription, .leakedOutput, .retainCycle, .duplicateBinding, .danglingBinder, .glitch: .warning
            case .redundantUpdate, .stoppedCombine: .note
            }
        }

        /// One sentence a reader of a report needs: what this kind means and what usually causes it.
        public var explanation: String {
            switch self {
            case .leakedSubscription:
                "Bound by work that has ended, still bound, and nothing can unbind it any more (its Subscription "
                    + "was dropped) while its Output lives on or keeps delivering to it: keep the Subscription, or "
                    + "add it to a SubscriptionContainer that is emptied when its owner goes."
            case .leakedOutput:
                "Created inside a scope and kept alive after it ended by what the scope bound: a retain cycle (a "
                    + "closure capturing its owner), or a derived Output built on a longer-lived Output."
            case .retainCycle:
                "A closure bound to an Output captures the Output's owner strongly (a method reference, `self` "
                    + "without [weak self], a Relay bound back to its owner): owner → Output → closure → owner, so "
                    + "none of them is ever released. Capture weakly, or unbind when the owner goes away."
            case .duplicateBinding:
                "One target is bound from the same line to several Outputs at once (or to one Output twice), the "
                    + "earlier binding never unbound: a reused cell that did not empty its container, a screen "
                    + "that binds again on every appearance."
            case .danglingBinder:
                "A Binder whose target is gone is still bound and still receives values: unsubscribe it "
                    + "when the target goes away."
            case .feedbackCycle:
                "An Output was updated again while its own update was still propagating: two Outputs feed "
                    + "each other, which loops or stops only by luck."
            case .structuralCycle:
                "Derived Outputs depend on each other in a circle."
            case .glitch:
                "One update reached a combine or merge through two paths, so it delivered twice: first one new "
                    + "input with a stale other (an inconsistent value its subscribers acted on), then the final "
                    + "value. Derive one value from the source instead of combining two of its derivations."
            case .redundantUpdate:
                "Updates that delivered the value the Output already had (equal by the recorder's value "
                    + "previews): every subscriber and everything downstream ran for nothing. A note: it fails "
                    + "a run only with --fail-on note."
            case .stoppedCombine:
                "A combine holds its sources weakly and stops for good once one is released; a release build "
                    + "may release a source right after its last use. Keep the sources alive as long as the "
                    + "result is bound (store them, or use withExtendedLifetime)."
            }
        }

        /// Orders kinds by their raw value (`dangling-binder` before `duplicate-binding`).
        public static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// How serious a finding is, from `note` to `error`: what `--fail-on` compares with.
    public enum Severity: String, Hashable, Sendable, Comparable {
        /// Worth knowing, not a defect by itself: never fails a run or a test unless asked (`--fail-on note`).
        case note
        /// A defect to fix (leaks, duplicate bindings, dangling Binders, glitches): `bind-trace check` fails on it
        /// by default.
        case warning
        /// A defect that can make updates loop (cycles): `bind-trace check` fails on it by default, and
        /// `--fail-on error` on it alone.
        case error

        private var rank: Int {
            switch self {
            case .note: 0
            case .warning: 1
            case .error: 2
            }
        }

        /// Orders severities from the least serious: `note` < `warning` < `error`.
        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
    }

    /// Another source line involved in a finding, with what it is.
    public struct Related: Hashable, Sendable {
        /// The other line.
        public var site: SourceSite
        /// What the line is to the finding: `'title' (String) is created here`, `the root update is called here`.
        public var note: String
        /// What the replay knows of the line besides its text (never part of equality).
        package var origin = Origin()

        @_spi(Harness) public init(site: SourceSite, note: String) {
            self.site = site
            self.note = note
        }

        package init(site: SourceSite, note: String, output: UInt64) {
            self.site = site
            self.note = note
            origin.output = output
        }

        /// Where a related line comes from, for the replay and fingerprints. Always equal to another,
        /// so a ``Related`` is equal to one that reads the same: Outputs of one declaration make one line.
        package struct Origin: Hashable, Sendable {
            /// The Output whose creation line this is (0: none), so the replay can say when it was
            /// made before the trace began.
            package var output: UInt64 = 0
            /// Context this trace adds (an Output made before it began), not part of the finding's
            /// identity: its fingerprint leaves the line out.
            package var isContext = false

            package static func == (lhs: Origin, rhs: Origin) -> Bool { true }
            package func hash(into hasher: inout Hasher) {}
        }
    }

    /// What kind of problem it is.
    public var kind: Kind
    /// How serious it is: its kind's ``Kind/severity``.
    public var severity: Severity { kind.severity }
    /// One line, without the site: `subscription to 'title' (String) is still bound after scope 'cell'`.
    public var message: String
    /// The line to look at; `nil` only when the trace had no site for it.
    public var site: SourceSite?
    /// The other lines involved, each with what it is (where the Output was made, bound again, …).
    public var related: [Related]
    /// The Outputs involved, by trace id: what `bind-trace why` and `replay` take as `--output-id`.
    public var outputs: [UInt64]
    /// The subscriptions involved (trace ids).
    public var subscriptions: [UInt64]
    /// The sequence number of the event where the problem showed (`bind-trace why --event`).
    public var event: UInt64
    /// What the finding is about when its message also holds what changes from run to run (the
    /// values that told rows apart): its fingerprint is made of this. `nil`: the message.
    package var identity: String?

    @_spi(Harness) public init(
        kind: Kind, message: String, site: SourceSite?, related: [Related] = [], outputs: [UInt64] = [],
        subscriptions: [UInt64] = [], event: UInt64 = 0
    ) {
        self.kind = kind
        self.message = message
        self.site = site
        self.related = related
        self.outputs = outputs
        self.subscriptions = subscriptions
        self.event = event
    }

    /// `Module/File.swift:42: warning: leaked-subscription: …`, as compilers print diagnostics.
    public var compilerStyle: String {
        let location = site.map { "\($0.file):\($0.line): " } ?? ""
        return "\(location)\(severity.rawValue): \(kind.rawValue): \(message)"
    }
}
