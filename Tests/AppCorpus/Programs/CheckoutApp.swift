import Bind

// A coordinator that lives as long as the app, an event bus it owns, and child flows it starts and
// finishes (checkout, then a receipt screen).
// Planted bug: the checkout flow listens to the bus and never stops: each finished flow leaves a
// closure on the bus.

final class EventBus {
    let events = Relay<String>()

    init() { events.labeled("app events") }
}

final class CheckoutFlow {
    let bus: EventBus
    private(set) var received: [String] = []
    private var subscription: Subscription?

    init(bus: EventBus) { self.bus = bus }

    func start(keepsSubscription: Bool) {
        if keepsSubscription {
            subscription = bus.events.bind { [weak self] in self?.received.append($0) }
        } else {
            bus.events.bind { [weak self] in self?.received.append($0) }  // expect: leaked-subscription
        }
    }

    func finish() { subscription?.unsubscribe() }
}

final class ReceiptScreen {
    let total = Output<Double>(value: 0).labeled("receipt total")
    let totalLabel = Label()
    private let bag = SubscriptionContainer()

    func show(bus: EventBus) {
        total.map { String(format: "%.2f", $0) }.bind(to: totalLabel.binding[\.text]).add(to: bag)
        bus.events.bind { [weak self] event in if event == "paid" { self?.total.update(withValue: 42) } }.add(to: bag)
    }

    func close() { bag.unsubscribe() }
}

final class AppCoordinator {
    let bus = EventBus()

    func runCheckout(buggy: Bool) {
        BindTrace.scope("checkout flow") {
            let flow = CheckoutFlow(bus: bus)
            flow.start(keepsSubscription: !buggy)
            bus.events.update(withValue: "added to cart")
            flow.finish()
        }
        BindTrace.scope("receipt screen") {
            let receipt = ReceiptScreen()
            receipt.show(bus: bus)
            bus.events.update(withValue: "paid")
            receipt.close()
        }
        bus.events.update(withValue: "back to shop")
    }
}

enum CheckoutApp: CorpusProgram {
    static let sourcePath = #filePath

    static func run(buggy: Bool) {
        let coordinator = AppCoordinator()
        coordinator.runCheckout(buggy: buggy)
        coordinator.runCheckout(buggy: buggy)
        AppLifetime.shared.keep(coordinator)
    }
}
