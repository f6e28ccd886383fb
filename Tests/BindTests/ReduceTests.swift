import Bind
import Testing

@Suite("reduce")
struct ReduceTests {
    @Test("reduce delivers the running result, starting from initial")
    func reduceAccumulates() {
        let numbers = Output<Int>()
        let (recorder, _) = numbers.reduce(initial: 10) { $0 + $1 }.recorded()

        numbers.update(withValue: 1)
        numbers.update(withValue: 2)

        #expect(recorder.values == [10, 11, 13])
    }

    @Test("reduce folds in the value the source already stores")
    func reduceFoldsStoredValue() {
        let numbers = Output<Int>(value: 5)
        #expect(numbers.reduce(initial: 1, nextPartialResult: *).value == 5)
    }

    @Test("reduce over a Relay counts its events and keeps the running result")
    func reduceOverRelay() {
        let taps = Relay<Void>()
        let count = taps.reduce(initial: 0) { count, _ in count + 1 }

        taps.fire()
        taps.fire()

        #expect(count.value == 2)
    }
}
