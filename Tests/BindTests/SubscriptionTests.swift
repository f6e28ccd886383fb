import Bind
import Testing

/// An Unbindable of our own, as an app may write one.
private final class UnbindSpy: Unbindable {
    var unbound: [Subscription] = []
    func unbind(for subscription: Subscription) { unbound.append(subscription) }
}

@Suite("Subscription")
struct SubscriptionTests {
    @Test("unsubscribe() stops the closure's calls; a second unsubscribe() does nothing")
    func unsubscribeStopsDelivery() {
        let output = Output<Int>(value: 0)
        let (recorder, subscription) = output.recorded()

        subscription.unsubscribe()
        output.update(withValue: 1)
        subscription.unsubscribe()
        output.update(withValue: 2)

        #expect(recorder.values == [0])
    }

    @Test("a Subscription never keeps its Output alive; once the Output is gone, unsubscribe() is a no-op")
    func subscriptionOutlivesOutput() {
        var output: Output<Int>? = Output(value: 0)
        weak let weakOutput = output
        let subscription = output!.bind { _ in }

        output = nil

        #expect(weakOutput == nil)
        subscription.unsubscribe()
        subscription.unsubscribe()
    }

    @Test("Subscriptions are equal only to themselves and can be kept in a Set")
    func subscriptionsAreHashableByIdentity() {
        let output = Output<Int>()
        let first = output.bind { _ in }
        let second = output.bind { _ in }

        #expect(first == first)
        #expect(first != second)
        #expect(Set([first, second, first]).count == 2)
    }

    @Test("a Subscription made with init(unbinder:) unsubscribes through unbind(for:)")
    func customUnbinder() {
        let spy = UnbindSpy()
        let subscription = Subscription(unbinder: spy)

        subscription.unsubscribe()

        #expect(spy.unbound == [subscription])
    }

    @Test("add(to:) puts the Subscription in the container")
    func addToContainer() {
        let output = Output<Int>()
        let container = SubscriptionContainer()
        let (recorder, subscription) = output.recorded()

        subscription.add(to: container)
        container.unsubscribe()
        output.update(withValue: 1)

        #expect(recorder.values.isEmpty)
    }
}
