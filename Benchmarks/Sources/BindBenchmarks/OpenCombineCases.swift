#if !BIND_INSTRUMENTED
import CBenchSupport
import OpenCombine

/// The same operations with OpenCombine 0.14, as its users would write them. Where it has no operator
/// (CombineLatest, Merge) the operator is written by hand on subjects.
enum OpenCombineCases {
    static func update(subscribers: Int) -> Factory? {
        { sink in
            let subject = CurrentValueSubject<Int, Never>(0)
            let cancellables = (0..<subscribers).map { _ in
                subject.sink { sink.total &+= UInt64(truncatingIfNeeded: $0) }
            }
            return { n in
                withExtendedLifetime(cancellables) { for i in 0..<n { subject.send(i) } }
            }
        }
    }

    static var relayFire: Factory? {
        { sink in
            let subject = PassthroughSubject<Void, Never>()
            let cancellables = (0..<10).map { _ in subject.sink { sink.total &+= 1 } }
            return { n in
                withExtendedLifetime(cancellables) { for _ in 0..<n { subject.send(()) } }
            }
        }
    }

    static var mapChain: Factory? {
        { sink in
            let subject = CurrentValueSubject<Int, Never>(0)
            let cancellable =
                subject
                .map { $0 &+ 1 }.map { $0 &+ 1 }.map { $0 &+ 1 }.map { $0 &+ 1 }.map { $0 &+ 1 }
                .map { $0 &+ 1 }.map { $0 &+ 1 }.map { $0 &+ 1 }.map { $0 &+ 1 }.map { $0 &+ 1 }
                .sink { sink.total &+= UInt64(truncatingIfNeeded: $0) }
            return { n in
                withExtendedLifetime(cancellable) { for i in 0..<n { subject.send(i) } }
            }
        }
    }

    static var combine: Factory? {
        { sink in
            // OpenCombine 0.14 has no CombineLatest: the same by hand (no lock, unlike Bind's).
            let first = CurrentValueSubject<Int, Never>(0)
            let second = CurrentValueSubject<Int, Never>(0)
            let combined = PassthroughSubject<(Int, Int), Never>()
            let latest = LatestPair()
            let cancellables = [
                combined.sink { sink.total &+= UInt64(truncatingIfNeeded: $0.0 &+ $0.1) },
                first.sink { value in
                    latest.first = value
                    if let other = latest.second { combined.send((value, other)) }
                },
                second.sink { value in
                    latest.second = value
                    if let other = latest.first { combined.send((other, value)) }
                },
            ]
            return { n in
                withExtendedLifetime(cancellables) {
                    for i in 0..<n { if i & 1 == 0 { first.send(i) } else { second.send(i) } }
                }
            }
        }
    }

    static var merge: Factory? {
        { sink in
            // OpenCombine 0.14 has no Merge: both sources forward into one subject.
            let first = CurrentValueSubject<Int, Never>(0)
            let second = CurrentValueSubject<Int, Never>(0)
            let merged = PassthroughSubject<Int, Never>()
            let cancellables = [
                merged.sink { sink.total &+= UInt64(truncatingIfNeeded: $0) },
                first.sink { merged.send($0) },
                second.sink { merged.send($0) },
            ]
            return { n in
                withExtendedLifetime(cancellables) {
                    for i in 0..<n { if i & 1 == 0 { first.send(i) } else { second.send(i) } }
                }
            }
        }
    }

    static var churn: Factory? {
        { sink in
            let subject = CurrentValueSubject<Int, Never>(0)
            // Literals without captures: no allocation per bind but the library\'s own (see MemoryCase).
            let cancellables = (0..<100).map { _ in
                subject.sink { bind_bench_consume(UInt64(truncatingIfNeeded: $0)) }
            }
            return { n in
                withExtendedLifetime(cancellables) {
                    for _ in 0..<n {
                        let cancellable = subject.sink { bind_bench_consume(UInt64(truncatingIfNeeded: $0)) }
                        cancellable.cancel()
                    }
                }
            }
        }
    }

    static var lifetime: Factory? {
        { sink in
            { n in
                for i in 0..<n {
                    let subject = CurrentValueSubject<Int, Never>(i)
                    let cancellable = subject.sink { bind_bench_consume(UInt64(truncatingIfNeeded: $0)) }
                    withExtendedLifetime(cancellable) {}
                }
            }
        }
    }

    typealias Factory = (Sink) -> (Int) -> Void
}
#else
/// The instrumented variant does not link OpenCombine: it compares Bind with itself.
enum OpenCombineCases {
    typealias Factory = (Sink) -> (Int) -> Void
    static func update(subscribers: Int) -> Factory? { nil }
    static var relayFire: Factory? { nil }
    static var mapChain: Factory? { nil }
    static var combine: Factory? { nil }
    static var merge: Factory? { nil }
    static var churn: Factory? { nil }
    static var lifetime: Factory? { nil }
}
#endif

#if !BIND_INSTRUMENTED
extension MemoryCase {
    /// OpenCombine cancels a subscription when its `AnyCancellable` is released, so it is always kept.
    /// `nil` for a million per subject: its `ConduitList` copies its `Set` of subscribers on every
    /// insert, so subscribing n closures takes O(n²) time.
    func openCombine() -> Double? {
        guard perOutput <= 1_000 else { return nil }
        // Literals without captures: no allocation per bind but the library\'s own (see MemoryCase).
        return HeapProbe.bytesPerSubscription(
            outputs: outputs, perOutput: perOutput, keep: true, make: { CurrentValueSubject<Int, Never>(0) },
            bind: { $0.sink { bind_bench_consume(UInt64(truncatingIfNeeded: $0)) } })
    }
}
#else
extension MemoryCase {
    func openCombine() -> Double? { nil }
}
#endif
