import Bind
import Testing

@Suite("Reentrancy")
struct ReentrancyTests {
    @Test("a closure may update the Output calling it; nested updates are delivered at once")
    func updateFromInsideClosure() {
        // Given a closure that counts the Output down to zero
        let countdown = Output<Int>()
        countdown.bind { value in if value > 0 { countdown.update(withValue: value - 1) } }
        let (recorder, _) = countdown.recorded()
        // When it starts at 3
        countdown.update(withValue: 3)
        // Then every value is delivered, the nested ones first (deliveries are synchronous)
        #expect(recorder.values == [0, 1, 2, 3])
        #expect(countdown.value == 0)
    }

    @Test("a closure may unbind itself while it is being called")
    func unbindItselfDuringDelivery() {
        let output = Output<Int>()
        let calls = Recorder<Int>()
        var subscription: Subscription?
        subscription = output.bind { value in
            calls.record(value)
            subscription?.unsubscribe()
        }
        let (after, _) = output.recorded()

        output.update(withValue: 1)
        output.update(withValue: 2)

        #expect(calls.values == [1])
        #expect(after.values == [1, 2])
    }

    @Test("a closure bound during a delivery gets the value once, by replay, and then the next updates")
    func bindDuringDelivery() {
        // Given a closure that binds another on the first update
        let output = Output<Int>()
        let late = Recorder<Int>()
        var didBind = false
        output.bind { _ in
            if !didBind {
                didBind = true
                output.bind(late.closure)
            }
        }
        // When the Output updates twice
        output.update(withValue: 1)
        output.update(withValue: 2)
        // Then the late closure saw 1 once (replayed by bind, not by the delivery under way), then 2
        #expect(late.values == [1, 2])
    }

    @Test("a closure bound to a Relay during a delivery does not get the value being delivered")
    func bindToRelayDuringDelivery() {
        let events = Relay<Int>()
        let late = Recorder<Int>()
        var didBind = false
        events.bind { _ in
            if !didBind {
                didBind = true
                events.bind(late.closure)
            }
        }

        events.update(withValue: 1)
        events.update(withValue: 2)

        #expect(late.values == [2])
    }

    @Test("a closure unbound by an earlier one during a delivery still gets that value, and no later one")
    func unbindOtherDuringDelivery() {
        // Deliveries iterate a snapshot taken when the update began: an unbind takes effect from the next update.
        let output = Output<Int>()
        var laterSubscription: Subscription?
        output.bind { _ in laterSubscription?.unsubscribe() }
        let (later, subscription) = output.recorded()
        laterSubscription = subscription

        output.update(withValue: 1)
        output.update(withValue: 2)

        #expect(later.values == [1])
    }

    @Test("a closure may empty a container that holds its own subscription")
    func containerUnsubscribeDuringDelivery() {
        let output = Output<Int>()
        let container = SubscriptionContainer()
        let calls = Recorder<Int>()
        output.bind { value in
            calls.record(value)
            container.unsubscribe()
        }.add(to: container)
        output.recorded().1.add(to: container)

        output.update(withValue: 1)
        output.update(withValue: 2)

        #expect(calls.values == [1])
        #expect(container.count == 0)
    }
}
