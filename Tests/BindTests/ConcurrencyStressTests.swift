import Bind
import Foundation
import Testing

/// Many threads at once on one Output. Short enough to stay fast under Thread Sanitizer.
@Suite("Concurrency stress")
struct ConcurrencyStressTests {
    static let threads = 8
    static let rounds = 200
    static let updatesPerRound = 5

    @Test("unsubscribing on some threads while the Output is released on another neither crashes nor keeps it")
    func unsubscribeWhileReleased() {
        for _ in 0..<Self.rounds {
            // Given an Output held only by a box, with subscriptions handed to other threads
            let box = OutputBox(Output<Int>(value: 0))
            weak let released = box.output
            let subscriptions = (0..<Self.threads).map { _ in box.output!.bind { _ in } }
            // When one thread releases the Output while the others unsubscribe
            runOnThreads(Self.threads) { thread in
                if thread == 0 {
                    box.release()
                } else {
                    subscriptions[thread].unsubscribe()
                    subscriptions[thread].unsubscribe()
                }
            }
            // Then the Output is gone, and unsubscribing afterwards does nothing
            #expect(released == nil)
            subscriptions[0].unsubscribe()
        }
    }

    @Test("threads updating, binding and unbinding one Output at once lose no subscription")
    func bindUpdateUnbindConcurrently() {
        // Given an Output with one closure bound for the whole test
        let output = Output<Int>(value: -1)
        let (steady, _) = output.recorded()
        let failures = Recorder<String>()
        // When every thread, round after round, binds a closure, updates, checks and unbinds it
        runOnThreads(Self.threads) { thread in
            for round in 0..<Self.rounds {
                let (own, subscription) = output.recorded()
                let first = (thread * Self.rounds + round) * Self.updatesPerRound
                let mine = Array(first..<first + Self.updatesPerRound)
                for value in mine { output.update(withValue: value) }
                // Every update this thread made while its closure was bound reached it, in order.
                let seen = Set(own.values)
                if !mine.allSatisfy(seen.contains) { failures.record("thread \(thread) round \(round) missed") }
                subscription.unsubscribe()
                // Once unsubscribe() returned, no update begun afterwards reaches it.
                let marker = -2 - first
                output.update(withValue: marker)
                if own.values.contains(marker) {
                    failures.record("thread \(thread) round \(round) called after unsubscribe")
                }
            }
        }
        // Then no thread saw a lost or stale subscription, and the steady closure saw every update
        #expect(failures.values.isEmpty)
        let updates = Self.threads * Self.rounds * (Self.updatesPerRound + 1)
        #expect(steady.count == 1 + updates)
    }

    @Test("threads updating the sources of a derived chain at once deliver every value to its end")
    func derivedChainUnderConcurrentUpdates() {
        // Given a combine of two Outputs, mapped
        let first = Output<Int>(value: 0)
        let second = Output<Int>(value: 0)
        let (recorder, _) = Output.combine(first, second).map { $0 + $1 }.ignoringDuplicates().recorded()
        let (sums, _) = Output.combine(first, second).map { $0 + $1 }.recorded()
        // When half the threads update the first and half the second
        runOnThreads(Self.threads) { thread in
            let source = thread.isMultiple(of: 2) ? first : second
            for round in 1...Self.rounds { source.update(withValue: round) }
        }
        // Then every update reached the end of the chain
        #expect(sums.count == 1 + Self.threads * Self.rounds)
        #expect(recorder.count >= 1)
    }

    @Test("threads switching a flatMap while its inner Outputs update leave it following the newest")
    func flatMapSwitchingConcurrently() {
        let selected = Output<Int>(value: 0)
        let inners = (0..<4).map { Output<Int>(value: $0) }
        let followed = selected.flatMap { inners[$0] }
        followed.bind { _ in }

        runOnThreads(Self.threads) { thread in
            for round in 0..<Self.rounds {
                if thread.isMultiple(of: 2) {
                    selected.update(withValue: round % inners.count)
                } else {
                    inners[round % inners.count].update(withValue: round)
                }
            }
        }

        selected.update(withValue: 1)
        inners[1].update(withValue: 100)
        inners[2].update(withValue: 200)
        #expect(followed.value == 100)
    }

    @Test("containers filled and emptied from many threads unbind every subscription they held")
    func containersConcurrently() {
        // Given an Output with one closure bound for the whole test
        let output = Output<Int>()
        let container = SubscriptionContainer()
        let (steady, _) = output.recorded()
        let contained = Recorder<Int>()
        // When threads bind closures into one container, update, and now and then empty it
        runOnThreads(Self.threads) { thread in
            for round in 0..<Self.rounds {
                output.bind(contained.closure).add(to: container)
                if round.isMultiple(of: 10) { container.unsubscribe() }
                output.update(withValue: round)
            }
        }
        container.unsubscribe()
        // Then once it is emptied for the last time, no contained closure is bound any more
        let callsBefore = contained.count
        output.update(withValue: 0)
        #expect(contained.count == callsBefore)
        #expect(container.count == 0)
        #expect(steady.count == Self.threads * Self.rounds + 1)
    }
}

/// An Output one thread can release while others use what they took from it.
private final class OutputBox: @unchecked Sendable {
    private let lock = NSLock()
    private var held: Output<Int>?

    init(_ output: Output<Int>) { held = output }

    var output: Output<Int>? { lock.withLock { held } }

    func release() {
        let output = lock.withLock {
            defer { held = nil }
            return held
        }
        _ = consume output
    }
}
