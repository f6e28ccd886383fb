import Bind
import Testing

@Suite("map")
struct MapTests {
    @Test("map delivers the transform of every value, starting with the stored one")
    func mapTransforms() {
        let count = Output<Int>(value: 1)
        let (recorder, _) = count.map { "\($0) items" }.recorded()

        count.update(withValue: 2)

        #expect(recorder.values == ["1 items", "2 items"])
    }

    @Test("map calls its transform once per value, however many closures are bound")
    func mapTransformsOncePerValue() {
        let count = Output<Int>()
        let calls = Recorder<Int>()
        let mapped = count.map { value in
            calls.record(value); return value
        }
        mapped.bind { _ in }
        mapped.bind { _ in }

        count.update(withValue: 1)

        #expect(calls.values == [1])
    }
}
