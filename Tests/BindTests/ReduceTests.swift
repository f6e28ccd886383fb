import Bind
import Testing

@Suite("reduce")
struct ReduceTests {
    @Test("reduce is empty until the source's first value, then delivers the running result from initial")
    func reduceAccumulates() {
        // Given a reduce over an empty source
        let numbers = Output<Int>()
        let reduced = numbers.reduce(initial: 10) { $0 + $1 }
        let (recorder, _) = reduced.recorded()
        #expect(reduced.value == nil)
        // When the source delivers values
        numbers.update(withValue: 1)
        numbers.update(withValue: 2)
        // Then each running result is delivered, starting from initial combined with the first
        #expect(recorder.values == [11, 13])
    }

    @Test("reduce as a function value, and a reference type as its running result (published behaviour)")
    func reduceReferenceType() {
        final class Digits { var text = "" }
        let numbers = Output<Int>()
        let reduce: (Digits, @escaping (Digits, Int) -> Digits) -> Output<Digits> = numbers.reduce
        let reduced = reduce(Digits()) { digits, number in
            digits.text += "\(number)"; return digits
        }

        for value in 1...5 { numbers.update(withValue: value) }

        #expect(reduced.value?.text == "12345")
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
