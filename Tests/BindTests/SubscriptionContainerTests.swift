import Bind
import Testing

@Suite("SubscriptionContainer")
struct SubscriptionContainerTests {
    @Test("unsubscribe() unbinds every subscription appended and empties the container")
    func unsubscribeUnbindsAllAndEmpties() {
        // Given a container holding two subscriptions of two Outputs
        let first = Output<Int>()
        let second = Output<String>()
        let container = SubscriptionContainer()
        let (firstRecorder, firstSubscription) = first.recorded()
        let (secondRecorder, secondSubscription) = second.recorded()
        container.append(firstSubscription)
        container.append(secondSubscription)
        // When it unsubscribes
        container.unsubscribe()
        first.update(withValue: 1)
        second.update(withValue: "a")
        // Then neither closure is called, and the container is empty and reusable
        #expect(firstRecorder.values.isEmpty)
        #expect(secondRecorder.values.isEmpty)
        #expect(container.count == 0)
        let (reused, subscription) = first.recorded()
        container.append(subscription)
        first.update(withValue: 2)
        container.unsubscribe()
        first.update(withValue: 3)
        #expect(reused.values == [1, 2])
    }

    @Test("releasing a container does not unbind its subscriptions")
    func releasingDoesNotUnbind() {
        let output = Output<Int>()
        let recorder = Recorder<Int>()
        do {
            let container = SubscriptionContainer()
            output.bind(recorder.closure).add(to: container)
        }
        output.update(withValue: 1)
        #expect(recorder.values == [1])
    }

    @Test("unsubscribe() skips subscriptions whose Output is gone")
    func unsubscribeWithReleasedOutput() {
        let container = SubscriptionContainer()
        do {
            let output = Output<Int>()
            output.bind { _ in }.add(to: container)
        }
        container.unsubscribe()
        #expect(container.count == 0)
    }
}
