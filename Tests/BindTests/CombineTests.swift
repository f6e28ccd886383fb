import Bind
import Testing

@Suite("combine")
struct CombineTests {
    @Test("combine fires once both sources have a value, then whenever either updates")
    func combinePairs() {
        let name = Output<String>()
        let age = Output<Int>()
        let (recorder, _) = Output<String>.combine(name, age).recorded()

        name.update(withValue: "Ada")
        #expect(recorder.values.isEmpty)
        age.update(withValue: 36)
        name.update(withValue: "Grace")
        age.update(withValue: 37)

        #expect(recorder.values.map(\.0) == ["Ada", "Grace", "Grace"])
        #expect(recorder.values.map(\.1) == [36, 36, 37])
    }

    @Test("combine of two Outputs of one type infers it: Output.combine(a, b)")
    func sameTypeCombineInfersItsType() {
        let first = Output<Int>(value: 1)
        let second = Output<Int>(value: 2)

        let combined = Output.combine(first, second)

        #expect(combined.value.map { [$0.0, $0.1] } == [1, 2])
    }

    @Test("a combine of sources that have values holds their pair at once")
    func combineOfFilledSources() {
        let combined = Output.combine(Output<Int>(value: 1), Output<Int>(value: 2))
        #expect(combined.recorded().0.count == 1)
    }

    @Test("combine does not retain its sources, and stops emitting once one is released (published behaviour)")
    func combineDoesNotRetainSources() {
        // Given a combine of two sources with values
        var first: Output<Int>? = Output(value: 1)
        weak let weakFirst = first
        let second = Output<Int>(value: 2)
        let combined = Output.combine(first!, second)
        let (recorder, _) = combined.recorded()
        // When the first source is released and the second updates
        first = nil
        second.update(withValue: 3)
        // Then the first is gone, and the combine emitted nothing more
        #expect(weakFirst == nil)
        #expect(combined.value.map { [$0.0, $0.1] } == [1, 2])
        #expect(recorder.count == 1)
    }

    @Test("combine(outputs:) stops emitting once one of its sources is released (published testCombineArrayRetained)")
    func combineOutputsStopsAfterRelease() {
        // Given a combine of two sources, both updated
        let first = Output<String>()
        var second: Output<String>? = Output<String>()
        weak let weakSecond = second
        var latest: [String]?
        Output<String>.combine(outputs: [first, second!]).bind { latest = $0 }
        first.update(withValue: "a")
        second?.update(withValue: "b")
        #expect(latest == ["a", "b"])
        // When the second is released and the first updates
        second = nil
        weakSecond?.update(withValue: "c")
        first.update(withValue: "d")
        // Then the last combined value stays
        #expect(weakSecond == nil)
        #expect(latest == ["a", "b"])
    }

    @Test("Output.combine(isLiked, likes) pairs two Outputs of different types with no type spelled out")
    func combineOfTwoTypesInfersBoth() {
        let isLiked = Output<Bool>(value: true)
        let likes = Output<Int>(value: 3)

        let combined = Output.combine(isLiked, likes)

        #expect(combined.value?.0 == true)
        #expect(combined.value?.1 == 3)
    }

    @Test("combine and merge can be passed as function values")
    func combineAndMergeAsFunctionValues() {
        let outputs = [Output<Int>(value: 1), Output<Int>(value: 2)]
        let pair: (Output<Int>, Output<Int>) -> Output<(Int, Int)> = Output.combine
        let all: ([Output<Int>]) -> Output<[Int]> = Output.combine(outputs:)
        let merged = outputs.dropFirst().reduce(outputs[0], Output.merge)

        #expect(pair(outputs[0], outputs[1]).value.map { [$0.0, $0.1] } == [1, 2])
        #expect(all(outputs).value == [1, 2])
        outputs[1].update(withValue: 5)
        #expect(merged.value == 5)
    }

    @Test("combine(outputs:) delivers all latest values in order once every one has a value")
    func combineOutputs() {
        let outputs = [Output<Int>(value: 1), Output<Int>(), Output<Int>(value: 3)]
        let (recorder, _) = Output.combine(outputs: outputs).recorded()
        #expect(recorder.values.isEmpty)

        outputs[1].update(withValue: 2)
        outputs[0].update(withValue: 10)

        #expect(recorder.values == [[1, 2, 3], [10, 2, 3]])
    }

    @Test("combine(outputs:) of no outputs holds an empty array from the start")
    func combineNoOutputs() {
        let combined = Output<Int>.combine(outputs: [])
        #expect(combined.value == [])
        #expect(combined.recorded().0.values == [[]])
    }

    @Test("combine(outputs:) of optional values treats nil as a value")
    func combineOptionalValues() {
        let outputs = [Output<Int?>(value: .some(nil)), Output<Int?>(value: 1)]
        #expect(Output.combine(outputs: outputs).value == [nil, 1])
    }

    @Test("a Relay in combine(outputs:) is not remembered and nothing is replayed")
    func combineOutputsWithRelay() {
        let events = Relay<Int>()
        let state = Output<Int>(value: 0)
        let combined = Output.combine(outputs: [state, events])
        let (recorder, _) = combined.recorded()

        events.update(withValue: 1)
        state.update(withValue: 2)

        #expect(recorder.values == [[0, 1]])
        #expect(combined.value == nil)
    }
}
