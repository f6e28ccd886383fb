#if Tracing
/// The names a stream's thread records give, each thread's distinct from every other's: two threads
/// the app gave one name, or two workers of one dispatch queue, read as `worker` and `worker #3` (the
/// second's thread number), so a timeline or a `why` chain never shows two threads as one.
struct ThreadNames {
    /// The strings generation the names belong to: a new stream (a new sink's strings) starts afresh.
    private var generation: UInt64 = 0
    /// Which thread each name given so far belongs to.
    private var owners: [String: UInt32] = [:]

    /// `name` for `thread`, or `name #thread` when another thread of this generation has it already.
    /// An empty name (a thread nobody named) stays empty: the trace shows it by its number.
    mutating func distinct(_ name: String, thread: UInt32, generation: UInt64) -> String {
        if generation != self.generation {
            self.generation = generation
            owners = [:]
        }
        guard !name.isEmpty else { return name }
        var given = name
        if let owner = owners[name], owner != thread { given = "\(name) #\(thread)" }
        owners[given] = thread
        return given
    }
}
#endif
