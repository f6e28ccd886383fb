import Bind
import Testing

@Suite("merge")
struct MergeTests {
    @Test("merge passes on every value of either source, in the order they come")
    func mergePassesBoth() {
        let first = Output<Int>()
        let second = Output<Int>()
        let (recorder, _) = Output.merge(first, second).recorded()

        first.update(withValue: 1)
        second.update(withValue: 2)
        first.update(withValue: 3)

        #expect(recorder.values == [1, 2, 3])
    }

    @Test("a merge of Outputs stores the latest value for closures bound later")
    func mergeOfOutputsReplays() {
        let first = Output<Int>(value: 1)
        let second = Output<Int>(value: 2)
        let merged = Output.merge(first, second)

        first.update(withValue: 3)

        #expect(merged.recorded().0.values == [3])
    }

    @Test("a merge with a Relay stores as the original did: a closure bound later gets the latest value")
    func mergeWithRelayStoresLatest() {
        let state = Output<Int>(value: 0)
        let events = Relay<Int>()
        let merged = Output.merge(state, events)
        let (recorder, _) = merged.recorded()

        events.update(withValue: 1)

        #expect(recorder.values == [0, 1])
        #expect(merged.recorded().0.values == [1])
    }

    @Test("a merge of two Relays stores nothing")
    func mergeOfRelaysDoesNotReplay() {
        let first = Relay<Int>()
        let second = Relay<Int>()
        let merged = Output.merge(first, second)
        let (recorder, _) = merged.recorded()

        first.update(withValue: 1)
        second.update(withValue: 2)

        #expect(recorder.values == [1, 2])
        #expect(merged.recorded().0.values.isEmpty)
    }

    @Test("merge does not retain its sources")
    func mergeDoesNotRetainSources() {
        var first: Output<Int>? = Output()
        weak let weakFirst = first
        let second = Output<Int>()
        let (recorder, _) = Output.merge(first!, second).recorded()

        first = nil
        second.update(withValue: 1)

        #expect(weakFirst == nil)
        #expect(recorder.values == [1])
    }
}
