import Bind
import Testing

/// The instrumented build (`--traits Tracing`) takes other paths while a trace is recorded; these
/// run the library's behaviour through them. In the plain build they run it untraced.
@Suite("While recording a trace")
struct RecordingTests {
    @Test("binds, updates, unbinds and every operator behave the same while a trace is recorded")
    func operatorsWhileRecording() throws {
        var delivered: [String] = []
        let recording = BindTrace.capture("operators") {
            // Given a chain of every operator over two sources and a Relay
            let first = Output<Int>(value: 1).labeled("first")
            let second = Output<Int>().debug(identifier: "second")
            let events = Relay<Int>()
            let inners = [Output<String>(value: "a"), Output<String>(value: "b")]
            let label = Label()
            let container = SubscriptionContainer()
            Output.combine(first, second).map { $0 + $1 }.filter { $0 > 0 }.ignoringDuplicates()
                .bind { delivered.append("sum \($0)") }.add(to: container)
            Output.merge(first, events).reduce(initial: 0, nextPartialResult: +)
                .bind { delivered.append("total \($0)") }.add(to: container)
            Output.combine(outputs: [first, second]).map(\.count).bind(to: label.binding[\.count])
            first.flatMap { inners[$0 % 2] }.bind { delivered.append("inner \($0)") }.add(to: container)
            // When they update, and the subscriptions end
            second.update(withValue: 2)
            events.update(withValue: 10)
            first.update(withValue: 2)
            inners[1].update(withValue: "stale")
            inners[0].update(withValue: "c")
            container.unsubscribe()
            first.update(withValue: 3)
        }
        // Then the values are those of the plain build
        #expect(
            delivered == [
                "total 1", "inner b", "sum 3", "total 11", "sum 4", "total 13", "inner a", "inner c",
            ])
        if BindTrace.isEnabled {
            let bytes = try #require(recording?.bytes)
            #expect(!bytes.isEmpty)
        } else {
            #expect(recording == nil)
        }
    }

    @Test("threads updating, binding and unbinding one Output while a trace is recorded lose nothing")
    func concurrencyWhileRecording() {
        let output = Output<Int>(value: 0)
        let (steady, _) = output.recorded()
        let threads = 4
        let rounds = 100
        _ = BindTrace.capture("stress") {
            runOnThreads(threads) { thread in
                for round in 0..<rounds {
                    let (own, subscription) = output.map { $0 }.recorded()
                    output.update(withValue: thread * rounds + round)
                    if !own.values.contains(thread * rounds + round) { Issue.record("missed an update") }
                    subscription.unsubscribe()
                }
            }
        }
        #expect(steady.count == 1 + threads * rounds)
    }

    @Test("Outputs made before a recording are merged, switched and updated from many threads as it runs")
    func preexistingOutputsUsedConcurrently() {
        // Made while nothing records: each gets its trace info from whichever thread needs it first.
        let first = Output<Int>(value: 0).labeled("first")
        let second = Output<Int>(value: 0)
        let inners = (0..<3).map { Output<Int>(value: $0) }
        let selected = Output<Int>(value: 0)
        let followed = selected.flatMap { inners[$0] }
        let (seen, _) = followed.recorded()
        let threads = 4
        let rounds = 200
        _ = BindTrace.capture("preexisting") {
            runOnThreads(threads) { thread in
                for round in 0..<rounds {
                    switch (thread + round) % 4 {
                    case 0: _ = Output.merge(first, second).map { $0 + 1 }.bind { _ in }
                    case 1: selected.update(withValue: round % inners.count)
                    case 2: inners[round % inners.count].update(withValue: round)
                    default: first.labeled("first \(round)").update(withValue: round)
                    }
                }
            }
        }
        selected.update(withValue: 2)
        inners[2].update(withValue: -1)
        #expect(followed.value == -1)
        #expect(seen.values.last == -1)
    }
}
