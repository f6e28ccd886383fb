/// "The limit": the least any binding library can do, written here in the benchmark's own module so
/// the optimiser sees all of it. A plain final class with a stored value and an array of
/// (token, closure) entries; no lock, no snapshot, no handle object.
///
/// The entry is a struct rather than a tuple on purpose: a closure inside a tuple stored in an array
/// is kept at its most general abstraction, so every append wraps it in a reabstraction thunk (one
/// more allocation) and every call goes through it — about 2× slower and 48 bytes bigger, which
/// would flatter every library measured against it.
final class ClosureArray<Value> {
    private struct Entry {
        let token: UInt64
        let deliver: (Value) -> Void
    }

    private var value: Value?
    private let storesValues: Bool
    private var subscribers: ContiguousArray<Entry> = []
    private var nextToken: UInt64 = 1

    init(value: Value? = nil, storesValues: Bool = true) {
        self.value = value
        self.storesValues = storesValues
    }

    /// Appends `deliver`, calls it with the stored value if any, and returns its token.
    @discardableResult
    func bind(_ deliver: @escaping (Value) -> Void) -> UInt64 {
        let token = nextToken
        nextToken &+= 1
        subscribers.append(Entry(token: token, deliver: deliver))
        if let value { deliver(value) }
        return token
    }

    /// Removes the closure bound with `token` (binary search: tokens grow in bind order).
    func unbind(_ token: UInt64) {
        var low = 0
        var high = subscribers.count
        while low < high {
            let middle = (low &+ high) / 2
            let candidate = subscribers[middle].token
            if candidate == token {
                subscribers.remove(at: middle)
                return
            }
            if candidate < token { low = middle &+ 1 } else { high = middle }
        }
    }

    func update(_ value: Value) {
        if storesValues { self.value = value }
        // A local copy of a ContiguousArray: with `Array` (local copy or not) the optimiser keeps a
        // retain and a release of every closure around its call — about 20 ns per subscriber.
        let subscribers = self.subscribers
        for subscriber in subscribers { subscriber.deliver(value) }
    }
}
