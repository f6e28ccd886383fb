import Bind
import Testing

@Suite("ignoringDuplicates")
struct IgnoringDuplicatesTests {
    @Test("ignoringDuplicates passes a value on only when it differs from the previous one")
    func dropsConsecutiveDuplicates() {
        let state = Output<Int>(value: 1)
        let (recorder, _) = state.ignoringDuplicates().recorded()

        for value in [1, 2, 2, 1, 1, 3] { state.update(withValue: value) }

        #expect(recorder.values == [1, 2, 1, 3])
    }

    @Test("ignoringDuplicates does not retain its source")
    func doesNotRetainSource() {
        var state: Output<Int>? = Output(value: 1)
        weak let weakState = state
        let distinct = state!.ignoringDuplicates()

        state = nil

        #expect(weakState == nil)
        #expect(distinct.value == 1)
    }
}
