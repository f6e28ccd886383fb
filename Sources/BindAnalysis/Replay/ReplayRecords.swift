@_spi(Harness) import BindTraceModel

/// A bind as the replay applies it, from a batch or a ``TraceEvent``: its strings as symbols.
struct BindingRecord {
    let subscription: UInt64
    let output: UInt64
    let site: SiteKey
    let isInternal: Bool
    let target: TargetKey?
    let scope: UInt64
    let preexisting: Bool
    let cause: TraceCause?

    @inline(__always)
    init(_ binding: CompactBinding, symbols: SymbolTable) {
        subscription = binding.subscription
        output = binding.output
        site = SiteKey(
            file: symbols.symbol(ofTraceString: binding.file), line: UInt(truncatingIfNeeded: binding.line))
        isInternal = binding.isInternal
        target = binding.target.map {
            TargetKey(type: symbols.symbol(ofTraceString: $0.type), identity: $0.identity)
        }
        scope = binding.scope
        preexisting = binding.preexisting
        cause = binding.cause
    }

    init(_ binding: TraceEvent.Binding, symbols: SymbolTable) {
        subscription = binding.subscription
        output = binding.output
        site = SiteKey(file: symbols.intern(binding.site.file), line: binding.site.line)
        isInternal = binding.isInternal
        target = binding.target.map { TargetKey(type: symbols.intern($0.type), identity: $0.identity) }
        scope = binding.scope
        preexisting = binding.preexisting
        cause = binding.cause
    }
}

/// An Output's creation as the replay applies it: its strings as symbols (the rare label as text).
struct CreationRecord {
    let output: UInt64
    let kind: OutputKind
    let valueType: UInt32
    let site: SiteKey
    let label: String?
    let scope: UInt64
    let preexisting: Bool
    let cause: TraceCause?

    @inline(__always)
    init(_ creation: CompactCreation, symbols: SymbolTable) {
        output = creation.output
        kind = creation.kind
        valueType = symbols.symbol(ofTraceString: creation.valueType)
        site = SiteKey(
            file: symbols.symbol(ofTraceString: creation.file), line: UInt(truncatingIfNeeded: creation.line))
        label = creation.label == 0 ? nil : symbols[symbols.symbol(ofTraceString: creation.label)]
        scope = creation.scope
        preexisting = creation.preexisting
        cause = creation.cause
    }

    init(_ creation: TraceEvent.OutputCreation, symbols: SymbolTable) {
        output = creation.output
        kind = creation.kind
        valueType = symbols.intern(creation.valueType)
        site = SiteKey(file: symbols.intern(creation.site.file), line: creation.site.line)
        label = creation.label
        scope = creation.scope
        preexisting = creation.preexisting
        cause = creation.cause
    }
}

/// What runs on a thread: an update, fire or bind whose delivery may cause further events.
///
/// A plain value: it does not retain its Output (see ``output``), so pushing and popping frames
/// costs no reference counting.
struct Frame {
    enum Kind { case update, bind }
    let sequence: UInt64
    let kind: Kind
    /// The Output updated or bound to (`nil` when the trace never created it). Not retained: the
    /// replay keeps it alive while a frame refers to it (``OutputNode/frameReferences``).
    let outputReference: Unmanaged<OutputNode>?
    let outputID: UInt64
    /// The subscription whose closure made this event (0: top level).
    let causeSubscription: UInt64
    /// For a bind frame: the subscription that receives the initial value.
    let boundSubscription: UInt64

    init(
        sequence: UInt64, kind: Kind, output: OutputNode?, outputID: UInt64, causeSubscription: UInt64,
        boundSubscription: UInt64
    ) {
        self.init(
            sequence: sequence, kind: kind, outputReference: output.map { Unmanaged.passUnretained($0) },
            outputID: outputID, causeSubscription: causeSubscription, boundSubscription: boundSubscription)
    }

    init(
        sequence: UInt64, kind: Kind, outputReference: Unmanaged<OutputNode>?, outputID: UInt64,
        causeSubscription: UInt64, boundSubscription: UInt64
    ) {
        self.sequence = sequence
        self.kind = kind
        self.outputReference = outputReference
        self.outputID = outputID
        self.causeSubscription = causeSubscription
        self.boundSubscription = boundSubscription
    }

    /// The Output updated or bound to (`nil` when the trace never created it).
    var output: OutputNode? { outputReference?.takeUnretainedValue() }
}

/// A derived Output that outlived its scope, held by an outer source, and was released before the
/// trace ended (``Replay/lateOutputLeaks``).
struct LateOutputLeak {
    let node: OutputNode
    let scope: ScopeNode
    /// Events between the scope's end and the release.
    let events: UInt64
    /// Nanoseconds between the scope's end and the release.
    let duration: UInt64
    /// The release's sequence number.
    let releasedAt: UInt64
}
