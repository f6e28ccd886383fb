import Foundation
import Testing

@testable import Bind

/// The lock every Output and the recorder use, under more threads than cores: waiters park and are
/// woken, and no increment made under the lock is ever lost.
@Suite("Lock")
struct LockTests {
    /// A counter that only the lock protects: a lost wake-up would hang, a broken exclusion would lose counts.
    private final class Guarded: @unchecked Sendable {
        let lock = Lock()
        var count = 0
        deinit { lock.deallocate() }
    }

    @Test("threads outnumbering the cores lose no increment made under the lock", arguments: [1, 2, 4, 8, 16])
    func exclusion(threads: Int) {
        // Given one lock and a plain counter it guards
        let guarded = Guarded()
        let increments = 20_000
        // When every thread increments it, each increment under the lock (some holding it longer)
        runOnThreads(threads) { thread in
            for round in 0..<increments {
                guarded.lock.withLock {
                    guarded.count += 1
                    // Now and then a holder yields inside, so waiters find it held and park.
                    if round % 1_000 == thread { sched_yield() }
                }
            }
        }
        // Then every increment counted
        #expect(guarded.count == threads * increments)
    }

    @Test("threads outnumbering the cores updating one Output deliver every update once")
    func contendedOutput() {
        // Given an Output whose single subscriber counts deliveries under a lock of its own
        let output = Output<Int>(value: 0)
        let delivered = Guarded()
        let subscription = output.bind { _ in delivered.lock.withLock { delivered.count += 1 } }
        let threads = 8
        let updates = 10_000
        // When eight threads update it at once
        runOnThreads(threads) { _ in
            for value in 0..<updates { output.update(withValue: value) }
        }
        // Then each update was delivered exactly once (the bind delivered the initial value too)
        #expect(delivered.count == threads * updates + 1)
        subscription.unsubscribe()
    }
}
