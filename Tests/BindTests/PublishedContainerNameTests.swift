import Testing

@testable import Bind

/// The published framework's tests read a container's storage by its internal name, `container`,
/// through `@testable import`; code written against it compiles and reads the same here.
@Suite("SubscriptionContainer's published internal name")
struct PublishedContainerNameTests {
    @Test("container holds what was added, in order, and is empty after unsubscribe()")
    func containerReadsTheStorage() {
        // Given a container with two subscriptions added, as the published SubscriptionTests add them
        let output = Output<Int>()
        let bag = SubscriptionContainer()
        let first = output.bind { _ in }
        let second = output.bind { _ in }
        first.add(to: bag)
        second.add(to: bag)
        // Then `container` lists them
        #expect(bag.container == [first, second])
        // When the container unsubscribes, it is empty
        bag.unsubscribe()
        #expect(bag.container.isEmpty)
    }
}
