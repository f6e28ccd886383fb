/// A count per thread number (open scopes by thread), for the replay's hot path: a `Dictionary`
/// hashed the number four times per scope.
///
/// Thread numbers come from the trace, which is untrusted: the small numbers recorders hand out
/// index a direct table, and any other number goes to a dictionary, so a hostile number costs one
/// entry, never an array as long as the number. A thread never counted reads 0.
struct ThreadCounts {
    /// Counts of thread numbers below `directThreads`, by number.
    private var direct = [Int](repeating: 0, count: ThreadCounts.directThreads)
    private var others: [UInt32: Int] = [:]

    private static var directThreads: Int { 256 }

    /// The count of `thread`: 0 when it was never counted.
    subscript(thread: UInt32) -> Int {
        get {
            Int(thread) < Self.directThreads ? direct[Int(thread)] : others[thread] ?? 0
        }
        set {
            if Int(thread) < Self.directThreads {
                direct[Int(thread)] = newValue
            } else {
                others[thread] = newValue == 0 ? nil : newValue
            }
        }
    }
}
