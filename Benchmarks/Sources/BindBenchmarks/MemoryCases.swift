import Bind
import CBenchSupport

/// Bytes the allocator holds per subscription, from its own statistics (glibc `mallinfo2`): what
/// binding costs once the sources exist, including array slack and allocator overhead.
enum HeapProbe {
    /// Creates `outputs` sources, then measures the heap growth of binding `perOutput` closures to each.
    ///
    /// - Parameter keep: keep each returned handle in an array reserved beforehand (as an app keeps
    ///   its subscriptions in a container), or drop it at once.
    static func bytesPerSubscription<Source, Handle>(
        outputs: Int, perOutput: Int, keep: Bool, make: () -> Source, bind: (Source) -> Handle
    ) -> Double {
        var sources: [Source] = []
        sources.reserveCapacity(outputs)
        for _ in 0..<outputs { sources.append(make()) }
        var handles: [Handle] = []
        if keep { handles.reserveCapacity(outputs * perOutput) }
        let before = Int64(bitPattern: bind_bench_heap_bytes_in_use())
        for source in sources {
            for _ in 0..<perOutput {
                let handle = bind(source)
                if keep { handles.append(handle) }
            }
        }
        let after = Int64(bitPattern: bind_bench_heap_bytes_in_use())
        withExtendedLifetime((sources, handles)) {}
        return Double(after - before) / Double(outputs * perOutput)
    }
}

/// The closures bound are literals without captures: they cost no allocation, so only the library's
/// own cost per subscription is measured. (A `let` holding a closure would be wrapped in a
/// reabstraction thunk, one more allocation, on every bind.)
///
/// How many subscriptions each size of memory case makes: enough Outputs that one allocation's slack
/// averages out, and at most a million subscriptions.
struct MemoryCase {
    let perOutput: Int
    var outputs: Int { perOutput == 1 ? 10_000 : perOutput == 100 ? 1_000 : 1 }
    var title: String {
        perOutput == 1_000_000 ? "1,000,000 per Output" : "\(perOutput) per Output"
    }

    static let all = [MemoryCase(perOutput: 1), MemoryCase(perOutput: 100), MemoryCase(perOutput: 1_000_000)]

    func limit(keep: Bool) -> Double {
        return HeapProbe.bytesPerSubscription(
            outputs: outputs, perOutput: perOutput, keep: keep, make: { ClosureArray<Int>(value: 0) },
            bind: { $0.bind { bind_bench_consume(UInt64(truncatingIfNeeded: $0)) } })
    }

    func bind(keep: Bool) -> Double {
        return HeapProbe.bytesPerSubscription(
            outputs: outputs, perOutput: perOutput, keep: keep, make: { Output<Int>(value: 0) },
            bind: { $0.bind { bind_bench_consume(UInt64(truncatingIfNeeded: $0)) } })
    }
}
