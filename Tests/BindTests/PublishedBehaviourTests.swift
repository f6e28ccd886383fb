import Bind
import Testing

/// Behaviours and spellings of the published framework (karmarama/Bind) that code written against
/// it relies on; each test is named after the behaviour it pins.
@Suite("Published framework behaviours")
struct PublishedBehaviourTests {
    @Test("initial(_:) on an empty Output notifies the closures already bound")
    func initialNotifiesBoundClosures() {
        let output = Output<Int>()
        let (recorder, _) = output.recorded()

        output.initial(10)
        output.initial(20)

        #expect(recorder.values == [10])
        #expect(output.value == 10)
    }

    @Test("initial(_:) at the end of a chain holds until the chain delivers (testInitialValueFunctionChain)")
    func initialAtTheEndOfAChain() {
        #expect(Output<Int>().initial(10).value == 10)
        #expect(Output<Int>(value: 5).initial(10).value == 5)
        let left = Output(value: 3)
        let right = Output<Int>()

        let combined = Output.combine(left, right).map(+).initial(20)

        #expect(combined.value == 20)
        left.update(withValue: 4)
        #expect(combined.value == 20)
        right.update(withValue: 6)
        #expect(combined.value == 10)
    }

    @Test("Relay(value:) replays the value it was created with, never a later one")
    func relayWithValue() {
        let relay = Relay<Int>(value: 1)
        relay.update(withValue: 2)

        let (recorder, _) = relay.recorded()
        relay.update(withValue: 3)

        #expect(recorder.values == [1, 3])
    }

    @Test("Relay(printer:) and Relay(value:printer:) log to the printer given")
    func relayWithPrinter() {
        let printer = PrintSpy()
        let plain = Relay<Int>(printer: printer).debug(identifier: "taps")
        let valued = Relay<Int>(value: 0, printer: printer).debug(identifier: "valued")

        plain.update(withValue: 1)
        valued.bind { _ in }

        #expect(printer.lines.contains("Will update value for taps (Relay<Int>) to 1"))
        #expect(printer.lines.contains("Initial value for valued (Relay<Int>) is 0"))
    }

    @Test("binders.map(output.bind(to:)) binds each Binder through a method reference")
    func bindToAsMethodReference() {
        let output = Output<Int>(value: 1)
        let labels = [Label(), Label()]
        let binders = labels.map { $0.binding[\.count] }

        let subscriptions = binders.map(output.bind(to:))
        output.update(withValue: 2)
        subscriptions[0].unsubscribe()
        output.update(withValue: 3)

        #expect(labels.map(\.count) == [2, 3])
    }

    @Test("map, filter and flatMap can be passed as function values")
    func operatorsAsFunctionValues() {
        let numbers = Output<Int>(value: 2)
        let inner = Output<String>(value: "inner")
        let transform: (@escaping (Int) -> String) -> Output<String> = numbers.map
        let keep: (@escaping (Int) -> Bool) -> Output<Int> = numbers.filter
        let flatten: (@escaping (Int) -> Output<String>) -> Output<String> = numbers.flatMap
        let bind: (@escaping (Int) -> Void) -> Subscription = numbers.bind

        let mapped = transform { "\($0)" }
        let evens = keep { $0.isMultiple(of: 2) }
        let flattened = flatten { _ in inner }
        var bound: [Int] = []
        _ = bind { bound.append($0) }

        #expect(mapped.value == "2")
        #expect(evens.value == 2)
        #expect(flattened.value == "inner")
        #expect(bound == [2])
    }

    @Test("a function generic over BindableCompatible returns Bindable<T.CompatibleType>")
    func compatibleTypeSpelling() {
        func binding<T: BindableCompatible>(of object: T) -> Bindable<T.CompatibleType> { object.binding }
        let label = Label()

        let bindable = binding(of: label)
        bindable[\.count].on(4)

        #expect(bindable.target === label)
        #expect(label.count == 4)
    }
}
