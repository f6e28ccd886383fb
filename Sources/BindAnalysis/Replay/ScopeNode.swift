@_spi(Harness) import BindTraceModel

/// A scope. Outputs and subscriptions hold their scope, and a scope its parent, so an ended scope
/// lives exactly as long as something that belongs to it.
final class ScopeNode {
    let id: UInt64
    let parent: ScopeNode?
    let name: String
    let site: SourceSite?
    let beganAt: UInt64
    var endedAt: UInt64?
    /// The time the scope ended (0 while open).
    var endTime: UInt64 = 0
    let inFocus: Bool
    /// Whether it counts among the running scopes: the trace shows it begin (it is not a placeholder for
    /// one begun before the recording), and no scope beginning with its id replaced it.
    var isCounted = false
    /// The thread it began on.
    var thread: UInt32 = 0
    // Unchecked: the replay is single-threaded and never re-enters a scope's bookkeeping; the
    // dynamic checks cost a bind more than the append.
    /// User subscriptions bound directly in this scope (some may be unbound since; compacted).
    @exclusivity(unchecked) var subscriptions: [SubscriptionNode] = []
    @exclusivity(unchecked) var boundSubscriptions = 0

    init(id: UInt64, parent: ScopeNode?, name: String, site: SourceSite?, beganAt: UInt64, inFocus: Bool) {
        self.id = id
        self.parent = parent
        self.name = name
        self.site = site
        self.beganAt = beganAt
        self.inFocus = inFocus
    }

    /// Whether `other` is this scope or nested in it.
    func contains(_ other: ScopeNode?) -> Bool {
        var scope = other
        while let current = scope {
            if current === self { return true }
            scope = current.parent
        }
        return false
    }

    /// Notes a user subscription bound in this scope.
    func add(_ subscription: SubscriptionNode) {
        // A cell's scope binds a few: one allocation instead of three as the array grows.
        if subscriptions.capacity == 0 { subscriptions.reserveCapacity(4) }
        boundSubscriptions += 1
        if subscriptions.count >= 32 && subscriptions.count > 2 * boundSubscriptions {
            subscriptions.removeAll { $0.unboundAt != nil }
        }
        subscriptions.append(subscription)
    }

    /// Whether this scope or one of its ancestors has ended: ``endedScope`` `!= nil`, walking the
    /// parents without retaining them (a bind asks it).
    var hasEnded: Bool {
        var scope = Unmanaged.passUnretained(self)
        while true {
            let (ended, parent) = scope._withUnsafeGuaranteedRef { scope in
                (scope.endedAt != nil, scope.parent.map { Unmanaged.passUnretained($0) })
            }
            if ended { return true }
            guard let parent else { return false }
            scope = parent
        }
    }

    /// The innermost ended scope among this one and its ancestors.
    var endedScope: ScopeNode? {
        var scope: ScopeNode? = self
        while let current = scope {
            if current.endedAt != nil { return current }
            scope = current.parent
        }
        return nil
    }

    var state: ScopeState {
        ScopeState(id: id, parent: parent?.id ?? 0, name: name, site: site, beganAt: beganAt, endedAt: endedAt)
    }
}
