import Bind
import Testing

@Suite("Output")
struct OutputTests {
    @Test("a closure bound to an Output that has a value is called with it at once")
    func bindReplaysStoredValue() {
        // Given
        let name = Output<String>(value: "Ada")
        // When
        let (recorder, _) = name.recorded()
        // Then
        #expect(recorder.values == ["Ada"])
        #expect(name.value == "Ada")
    }

    @Test("a closure bound to an empty Output is first called on the first update")
    func bindToEmptyOutputWaitsForUpdate() {
        let name = Output<String>()
        let (recorder, _) = name.recorded()
        #expect(recorder.values.isEmpty)
        #expect(name.value == nil)

        name.update(withValue: "Grace")

        #expect(recorder.values == ["Grace"])
        #expect(name.value == "Grace")
    }

    @Test("update stores the value and calls every bound closure with it")
    func updateCallsEveryClosure() {
        let count = Output<Int>(value: 0)
        let (first, _) = count.recorded()
        let (second, _) = count.recorded()

        count.update(withValue: 1)
        count.update(withValue: 2)

        #expect(first.values == [0, 1, 2])
        #expect(second.values == [0, 1, 2])
        #expect(count.value == 2)
    }

    @Test("closures are called in the order they were bound, also after unbinds in between")
    func deliveryFollowsBindOrder() {
        let output = Output<Int>()
        let order = Recorder<Int>()
        var subscriptions: [Subscription] = []
        for index in 0..<20 {
            subscriptions.append(output.bind { _ in order.record(index) })
        }
        for index in stride(from: 1, to: 20, by: 3) { subscriptions[index].unsubscribe() }
        output.bind { _ in order.record(20) }

        output.update(withValue: 0)

        let expected = (0..<20).filter { ($0 - 1) % 3 != 0 } + [20]
        #expect(order.values == expected)
    }

    @Test("unsubscribing each of 100 subscriptions, in a scattered order, silences that closure and no other")
    func unsubscribeAnyOfMany() {
        // Given 100 closures bound, each recording its own index.
        let output = Output<Int>()
        let calls = Recorder<Int>()
        let subscriptions = (0..<100).map { index in output.bind { _ in calls.record(index) } }
        var stillBound = Array(0..<100)

        // When they are unsubscribed one by one (37 and 100 share no factor: every index once, in
        // an order that reaches the first, the last and the middle of the list), with an update after each,
        for step in 0..<100 {
            let index = (step &* 37) % 100
            subscriptions[index].unsubscribe()
            stillBound.removeAll { $0 == index }
            let before = calls.count
            output.update(withValue: step)

            // Then the update reaches exactly the closures still bound, in bind order.
            #expect(Array(calls.values[before...]) == stillBound, "after unsubscribing \(index)")
        }
    }

    @Test("unbind(for:) removes that closure and no other")
    func unbindRemovesOneClosure() {
        let output = Output<Int>()
        let (kept, _) = output.recorded()
        let (removed, subscription) = output.recorded()

        output.unbind(for: subscription)
        output.update(withValue: 1)

        #expect(kept.values == [1])
        #expect(removed.values.isEmpty)
    }

    @Test("unbind(for:) ignores a subscription of another Output")
    func unbindIgnoresForeignSubscription() {
        // Given two Outputs whose first subscriptions look alike inside
        let first = Output<Int>()
        let second = Output<Int>()
        let (firstRecorder, _) = first.recorded()
        let (_, secondSubscription) = second.recorded()
        // When the first is asked to unbind the second's subscription
        first.unbind(for: secondSubscription)
        first.update(withValue: 1)
        // Then its own closure is still bound
        #expect(firstRecorder.values == [1])
    }

    @Test("initial stores a value only when none is stored yet, and returns the Output itself")
    func initialStoresOnlyIntoAnEmptyOutput() {
        let empty = Output<Int>()
        let filled = Output<Int>(value: 5)

        let returned = empty.initial(1)
        filled.initial(1)
        empty.initial(2)

        #expect(returned === empty)
        #expect(empty.value == 1)
        #expect(filled.value == 5)
        #expect(Output<Int>().initial(3).value == 3)
    }

    @Test("an Output of an optional type stores and delivers nil as a value")
    func optionalValuesAreValues() {
        let selection = Output<Int?>()
        selection.update(withValue: nil)

        let (recorder, _) = selection.recorded()

        #expect(recorder.values == [nil])
        #expect(selection.value == .some(nil))
        #expect(selection.initial(3).value == .some(nil))
    }

    @Test("bind(to:) with several binders delivers to each of them")
    func bindToSeveralBinders() {
        let title = Output<String>(value: "Hello")
        let first = Label()
        let second = Label()

        title.bind(to: [Binder(first, \.text), second.binding[\.text]])
        title.update(withValue: "Bye")

        #expect(first.text == "Bye")
        #expect(second.text == "Bye")
    }

    @Test("the original framework's plain spellings compile unchanged")
    func plainSpellingsCompile() {
        let printer: Printable = PrintSpy()
        let output = Output<Int>(value: 1, printer: printer)
        let closure: (Int) -> Void = { _ in }
        let double: (Int) -> Int = { $0 * 2 }
        let standardOutput: Printable = Output<Int>.Printer()

        output.bind { _ in }
        output.bind(closure)
        Relay<Void>().bind {}
        Output<Void>(value: ()).bind {}
        _ = output.bind(to: Binder(Label()) { label, value in label.count = value })
        _ = output.map { $0 + 1 }
        _ = output.map(double)
        _ = output.flatMap { Output<String>(value: "\($0)") }
        _ = output.filter { $0 > 0 }
        _ = output.reduce(initial: 0) { $0 + $1 }
        _ = output.reduce(initial: 0, nextPartialResult: +)
        _ = output.debug(identifier: "count").labeled("count")
        _ = Output<Int>(value: 1, printer: printer)
        _ = Output<Int>(printer: standardOutput)
        _ = Output<Int>(value: 1)
        _ = Output.combine(output, output)
        _ = Output.combine(outputs: [output, output])
        _ = Output.merge(output, output)
        _ = Output<Int>.combine(output, Output<String>())
        _ = Output<Bool>(value: true).ignoringDuplicates()
    }

    @Test("an Output of a Sendable value can be captured by @Sendable closures and updated from them")
    func outputOfSendableValueIsSendable() async {
        // This compiling under the Swift 6 language mode is half of the test.
        let count = Output<Int>(value: 0)
        let relay = Relay<Int>()
        let send: @Sendable (Int) -> Void = { value in
            count.update(withValue: value)
            relay.update(withValue: value)
        }

        await Task.detached { send(1) }.value

        #expect(count.value == 1)
    }
}
