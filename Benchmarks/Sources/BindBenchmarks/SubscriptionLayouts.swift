import CBenchSupport

/// What a kept subscription would cost under other layouts of an Output's subscribers and of the
/// handle `bind` returns, measured as the memory rows are (`HeapProbe`, same closures, same counts).
/// `BindBenchmarks layouts` prints them; BENCHMARKS.md ("Seventh pass: kept-subscription memory")
/// explains why none of them is both within 2× of the limit and correct.
///
/// Each layout is the bare storage, without a lock or unbind logic: the bytes are the point. The
/// first one is Bind's own layout (plain build), so its rows must match the "Subscriptions kept"
/// memory rows; that checks the model.
enum SubscriptionLayouts {
    /// The subscriber list a handle points at (stands for `SubscriberList`).
    final class Source {}

    /// An entry of today's list: the subscription's token and its closure (24 bytes).
    struct TokenEntry {
        let token: UInt64
        let deliver: (Int) -> Void
    }

    /// An entry holding the closure alone (16 bytes): an unbound one would become a tombstone (nil).
    struct ClosureEntry {
        let deliver: ((Int) -> Void)?
    }

    /// Today's `Subscription`: the list and the token (16 bytes after the object header).
    final class TwoWordHandle {
        let source: Source
        let token: UInt64
        init(source: Source, token: UInt64) {
            self.source = source
            self.token = token
        }
    }

    /// A handle of one word: the list; the entry would be found by the handle's address.
    final class OneWordHandle {
        let source: Source
        init(source: Source) { self.source = source }
    }

    /// A subscription that is its own list entry: the list holds these (8 bytes each), so a
    /// discarded handle costs what a kept one does.
    final class EntryHandle {
        let source: Source
        let deliver: (Int) -> Void
        init(source: Source, deliver: @escaping (Int) -> Void) {
            self.source = source
            self.deliver = deliver
        }
    }

    /// One layout: an Output's storage that binds a closure and returns a handle.
    final class Storage<Entry, Handle> {
        let source = Source()
        var entries: ContiguousArray<Entry> = []
        var nextToken: UInt64 = 1
        let makeEntry: (Source, UInt64, @escaping (Int) -> Void) -> (Entry, Handle)

        init(makeEntry: @escaping (Source, UInt64, @escaping (Int) -> Void) -> (Entry, Handle)) {
            self.makeEntry = makeEntry
        }

        func bind(_ deliver: @escaping (Int) -> Void) -> Handle {
            let (entry, handle) = makeEntry(source, nextToken, deliver)
            nextToken &+= 1
            entries.append(entry)
            return handle
        }
    }

    /// Bytes per kept subscription of `layout` for `memoryCase`.
    static func bytes<Entry, Handle>(
        _ memoryCase: MemoryCase, keep: Bool,
        _ makeEntry: @escaping (Source, UInt64, @escaping (Int) -> Void) -> (Entry, Handle)
    ) -> Double {
        HeapProbe.bytesPerSubscription(
            outputs: memoryCase.outputs, perOutput: memoryCase.perOutput, keep: keep,
            make: { Storage(makeEntry: makeEntry) },
            bind: { $0.bind { bind_bench_consume(UInt64(truncatingIfNeeded: $0)) } })
    }

    /// Prints one line per layout and size: bytes per subscription and the ratio to the limit.
    static func printRows() {
        for memoryCase in MemoryCase.all {
            let limit = memoryCase.limit(keep: true)
            let rows: [(String, Double)] = [
                (
                    "token entry + two-word handle (Bind today)",
                    bytes(memoryCase, keep: true) { source, token, deliver in
                        (TokenEntry(token: token, deliver: deliver), TwoWordHandle(source: source, token: token))
                    }
                ),
                (
                    "token entry + one-word handle",
                    bytes(memoryCase, keep: true) { source, token, deliver in
                        (TokenEntry(token: token, deliver: deliver), OneWordHandle(source: source))
                    }
                ),
                (
                    "closure-only entry + two-word handle",
                    bytes(memoryCase, keep: true) { source, token, deliver in
                        (ClosureEntry(deliver: deliver), TwoWordHandle(source: source, token: token))
                    }
                ),
                (
                    "list of handles holding the closure, kept",
                    bytes(memoryCase, keep: true) { source, _, deliver in
                        let handle = EntryHandle(source: source, deliver: deliver)
                        return (handle, handle)
                    }
                ),
                (
                    "list of handles holding the closure, discarded",
                    bytes(memoryCase, keep: false) { source, _, deliver in
                        let handle = EntryHandle(source: source, deliver: deliver)
                        return (handle, handle)
                    }
                ),
                (
                    "closure-only entry + one-word handle (a lower bound: cannot unbind)",
                    bytes(memoryCase, keep: true) { source, _, deliver in
                        (ClosureEntry(deliver: deliver), OneWordHandle(source: source))
                    }
                ),
            ]
            for (name, bytes) in rows {
                let ratio = bytes / limit
                print("\(memoryCase.title)\t\(name)\t\(format(bytes)) B\tlimit \(format(limit)) B\t\(format(ratio))×")
            }
        }
    }

    private static func format(_ value: Double) -> String {
        let hundredths = (value * 100).rounded() / 100
        return "\(hundredths)"
    }
}
