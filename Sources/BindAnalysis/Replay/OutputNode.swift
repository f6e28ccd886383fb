@_spi(Harness) import BindTraceModel

/// A live Output inside the replay. A class, so the hot path mutates it in place after one lookup.
///
/// Its state is not checked for exclusive access at run time (here and in ``SubscriptionNode``):
/// the replay is single-threaded and never re-enters itself, and the checks cost more than the
/// bookkeeping of a bind or release.
///
/// Recycled like ``SubscriptionNode``: a released node no one else holds serves the next creation
/// (``recreate(_:scope:createdAt:inFocus:)``), so its identity fields are variables, set only in this file.
final class OutputNode {
    @exclusivity(unchecked) private(set) var id: UInt64 = 0
    @exclusivity(unchecked) private(set) var kind = OutputKind.output
    @exclusivity(unchecked) private(set) var valueTypeSymbol: UInt32 = 0
    @exclusivity(unchecked) private(set) var siteKey = SiteKey(file: 0, line: 0)
    /// The replay's table, which outlives every node (nodes never leave their replay): not
    /// retained, so making and freeing a node costs no reference counting for it.
    unowned(unsafe) let symbols: SymbolTable
    var valueType: String { symbols[valueTypeSymbol] }
    var site: SourceSite { symbols.site(siteKey) }
    @exclusivity(unchecked) var label: String? {
        didSet { cachedName = nil }
    }
    /// ``narrated``, kept once asked for: a deep propagation names the same Outputs for every path
    /// of every combine it reaches. Forgotten when the label changes or the node is reused.
    @exclusivity(unchecked) var cachedName: String?
    @exclusivity(unchecked) private(set) var scope: ScopeNode?
    @exclusivity(unchecked) private(set) var isPreexisting = false
    @exclusivity(unchecked) private(set) var createdAt: UInt64 = 0
    /// Judged by the analysis (inside the focus scope, or no focus set).
    @exclusivity(unchecked) private(set) var inFocus = false
    @exclusivity(unchecked) var updateCount: UInt64 = 0
    @exclusivity(unchecked) var lastPreview: String?
    /// The time of its latest update or fire (0: none).
    @exclusivity(unchecked) var lastUpdateTime: UInt64 = 0
    /// Bindings to it that a newer binding of their target superseded and that are still bound:
    /// a cheap test on the update path before looking for the evidence of a reused target.
    @exclusivity(unchecked) var supersededBindings = 0
    /// A user subscription bound from outside its scope, after its scope ended: it is shared,
    /// long-lived by design, not that scope's leak.
    @exclusivity(unchecked) var usedOutsideScope = false
    /// The first bind of a user's closure or Binder to it (0: none yet): Outputs derived from it
    /// before then were made with it (``LeakFinder``'s "made together").
    @exclusivity(unchecked) var firstUserBindAt: UInt64 = 0
    @exclusivity(unchecked) var releasedAt: UInt64?
    /// Subscriptions bound to it now.
    @exclusivity(unchecked) var boundCount = 0
    /// Update and fire frames of this Output open on any thread: a cheap test before a stack scan.
    @exclusivity(unchecked) var openFrames = 0
    /// Frames (update, fire or bind) that refer to it, on any thread; see ``Replay/releasedWithOpenFrames``.
    @exclusivity(unchecked) var frameReferences = 0
    /// Edges into it (its sources) and out of it (what is derived from it).
    @exclusivity(unchecked) var incoming: [EdgeState] = []
    @exclusivity(unchecked) var outgoing: [EdgeState] = []
    /// The flatMap whose current inner Output this is (0: none).
    @exclusivity(unchecked) var innerOf: UInt64 = 0
    /// Derived from an Output its own scope did not make (an outer scope's, the app's): that source
    /// holds it as long as the source lives.
    @exclusivity(unchecked) var hasOuterSource = false
    /// Released long after its scope ended, kept by its outer source (``Replay/lateOutputLeaks``).
    @exclusivity(unchecked) var outlivedItsScope = false

    /// - Parameter scope: retained by the caller for the node, which takes the retain over.
    init(
        _ creation: CreationRecord, symbols: SymbolTable, scope: Unmanaged<ScopeNode>?, createdAt: UInt64,
        inFocus: Bool
    ) {
        self.symbols = symbols
        recreate(creation, scope: scope, createdAt: createdAt, inFocus: inFocus)
    }

    /// Makes this node the Output `creation` makes, as if it had just been made: every field is set
    /// (the edge lists keep their storage). Only for a new node or a cleared one no one else holds.
    /// - Parameter scope: as in `init`.
    @inline(__always)
    func recreate(_ creation: CreationRecord, scope: Unmanaged<ScopeNode>?, createdAt: UInt64, inFocus: Bool) {
        id = creation.output
        kind = creation.kind
        valueTypeSymbol = creation.valueType
        siteKey = creation.site
        if label != nil || creation.label != nil { label = creation.label }
        if cachedName != nil { cachedName = nil }
        if let scope { self.scope = scope.takeRetainedValue() }
        isPreexisting = creation.preexisting
        self.createdAt = createdAt
        self.inFocus = inFocus
        updateCount = 0
        if lastPreview != nil { lastPreview = nil }
        lastUpdateTime = 0
        supersededBindings = 0
        usedOutsideScope = false
        firstUserBindAt = 0
        releasedAt = nil
        boundCount = 0
        openFrames = 0
        frameReferences = 0
        removeEdges()
        innerOf = 0
        hasOuterSource = false
        outlivedItsScope = false
    }

    /// Empties its edge lists, keeping their storage. (Popping a handful of edges costs a tenth of
    /// `removeAll(keepingCapacity:)`.)
    @inline(__always)
    func removeEdges() {
        while incoming.popLast() != nil {}
        while outgoing.popLast() != nil {}
    }

    /// Lets go of what it refers to before it waits to be recycled: a waiting node keeps no scope
    /// or text alive (its edge lists' storage, empty, stays for the next use).
    func clear() {
        if scope != nil { scope = nil }
        if label != nil { label = nil }
        if cachedName != nil { cachedName = nil }
        if lastPreview != nil { lastPreview = nil }
        removeEdges()
    }

    var state: OutputState {
        OutputState(
            id: id, kind: kind, valueType: valueType, site: site, label: label, scope: scope?.id ?? 0,
            isPreexisting: isPreexisting, createdAt: createdAt, updateCount: updateCount,
            lastPreview: lastPreview, isReleased: releasedAt != nil, releasedAt: releasedAt)
    }
}
