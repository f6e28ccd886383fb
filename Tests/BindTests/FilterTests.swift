import Bind
import Testing

@Suite("filter")
struct FilterTests {
    @Test("filter passes on only the values for which the predicate holds")
    func filterPassesMatches() {
        let numbers = Output<Int>(value: 2)
        let (recorder, _) = numbers.filter { $0.isMultiple(of: 2) }.recorded()

        for number in 3...6 { numbers.update(withValue: number) }

        #expect(recorder.values == [2, 4, 6])
    }

    @Test("a filter whose predicate rejects the stored value holds no value")
    func filterRejectingStoredValue() {
        let numbers = Output<Int>(value: 1)
        #expect(numbers.filter { $0 > 1 }.value == nil)
    }
}
