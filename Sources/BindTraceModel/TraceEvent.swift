import BindTraceFormat

/// A place in the user's source: `Module/File.swift` and a line, as recorded from `#fileID`/`#line`.
public struct SourceSite: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The file as `#fileID` spells it: `Module/File.swift`.
    public var file: String
    /// The line in `file`, counted from 1.
    public var line: UInt

    @_spi(Harness) public init(file: String, line: UInt) {
        self.file = file
        self.line = line
    }

    /// `Module/File.swift:42`.
    public var description: String { "\(file):\(line)" }

    /// The module part of `file` (before the first `/`), or "" when there is none.
    public var module: String {
        guard let slash = file.firstIndex(of: "/") else { return "" }
        return String(file[..<slash])
    }

    /// Orders sites by file, then line: the order findings and reports list them in.
    public static func < (lhs: SourceSite, rhs: SourceSite) -> Bool {
        (lhs.file, lhs.line) < (rhs.file, rhs.line)
    }
}

/// Why an event happened: the subscription whose closure was running, and the event delivering to it.
@_spi(Harness) public struct TraceCause: Hashable, Sendable {
    /// The subscription whose closure was running on the thread.
    public var subscription: UInt64
    /// The sequence number of the update, fire or bind that was delivering to it.
    public var event: UInt64

    @_spi(Harness) public init(subscription: UInt64, event: UInt64) {
        self.subscription = subscription
        self.event = event
    }
}

/// The object a Binder delivers to.
@_spi(Harness) public struct BinderTarget: Hashable, Sendable {
    /// The target's type name.
    public var type: String
    /// The target's identity while it lived (its address: may be reused after it is released).
    public var identity: UInt64

    @_spi(Harness) public init(type: String, identity: UInt64) {
        self.type = type
        self.identity = identity
    }
}

/// One recorded event.
@_spi(Harness) public struct TraceEvent: Hashable, Sendable {
    /// 1 for the first event of the trace, then one more for each event.
    public var sequence: UInt64
    /// Nanoseconds since the trace started (monotonic clock).
    public var time: UInt64
    /// The recording thread: 1 for the first thread seen, then one more for each new thread.
    public var thread: UInt32
    /// Where the event's record starts in the trace.
    public var offset: Int
    /// What happened (the cases of ``Kind`` are generated from the format's table, EventKinds.toml).
    public var kind: Kind

    @_spi(Harness) public init(sequence: UInt64, time: UInt64, thread: UInt32, offset: Int, kind: Kind) {
        self.sequence = sequence
        self.time = time
        self.thread = thread
        self.offset = offset
        self.kind = kind
    }

    /// One reference a bound closure's context holds.
    public struct Capture: Hashable, Sendable {
        /// How the closure holds what it captured.
        public enum Strength: String, Hashable, Sendable {
            /// A strong reference to a class instance: the closure keeps it alive.
            case strong
            /// `weak`: keeps nothing alive.
            case weak
            /// `unowned`: keeps nothing alive.
            case unowned
            /// The recorder could not read it (a generic context, reflection metadata stripped):
            /// it may keep something alive.
            case unknown
        }

        /// An Output the captured instance keeps alive through its stored properties.
        public struct HeldOutput: Hashable, Sendable {
            /// The stored properties from the instance to the Output (`.viewModel.title`); "" when
            /// the captured instance is the Output itself.
            public var path: String
            /// The Output's id.
            public var output: UInt64

            @_spi(Harness) public init(path: String, output: UInt64) {
                self.path = path
                self.output = output
            }
        }

        /// How the closure holds it: only a strong capture keeps an instance alive.
        public var strength: Strength
        /// The captured value's type name (for `unknown`: why it could not be read).
        public var type: String
        /// The instance's address, for a strong or unowned capture of a class instance; else 0.
        public var identity: UInt64
        /// The Outputs the instance keeps alive through strong stored properties (bounded search).
        public var holds: [HeldOutput]

        @_spi(Harness) public init(strength: Strength, type: String, identity: UInt64 = 0, holds: [HeldOutput] = []) {
            self.strength = strength
            self.type = type
            self.identity = identity
            self.holds = holds
        }
    }

    /// An Output's creation; `preexisting` when it was created before the recording started.
    public struct OutputCreation: Hashable, Sendable {
        public var output: UInt64
        public var kind: OutputKind
        public var valueType: String
        public var site: SourceSite
        public var label: String?
        /// The innermost `BindTrace.scope` it was created in (0: none).
        public var scope: UInt64
        public var preexisting: Bool
        public var cause: TraceCause?

        @_spi(Harness) public init(
            output: UInt64, kind: OutputKind, valueType: String, site: SourceSite, label: String? = nil,
            scope: UInt64 = 0, preexisting: Bool = false, cause: TraceCause? = nil
        ) {
            self.output = output
            self.kind = kind
            self.valueType = valueType
            self.site = site
            self.label = label
            self.scope = scope
            self.preexisting = preexisting
            self.cause = cause
        }
    }

    /// A bind; `isInternal` for the closures Bind's own operators bind (their site is the operator call).
    public struct Binding: Hashable, Sendable {
        public var subscription: UInt64
        public var output: UInt64
        public var site: SourceSite
        public var isInternal: Bool
        public var target: BinderTarget?
        public var scope: UInt64
        public var preexisting: Bool
        public var cause: TraceCause?

        @_spi(Harness) public init(
            subscription: UInt64, output: UInt64, site: SourceSite, isInternal: Bool = false,
            target: BinderTarget? = nil, scope: UInt64 = 0, preexisting: Bool = false, cause: TraceCause? = nil
        ) {
            self.subscription = subscription
            self.output = output
            self.site = site
            self.isInternal = isInternal
            self.target = target
            self.scope = scope
            self.preexisting = preexisting
            self.cause = cause
        }
    }
}

extension TraceEvent.Kind {
    /// The event's name in dumps and summaries: `outputCreated`, `bound`, `updated`, ….
    public var name: String { tag.name }
}
