import Bind

// An account store that lives until the user signs out, an account screen, and a settings screen.
// Planted bug: the account screen drops its Subscription to the store: after the screen is gone
// its closure keeps running on every update, minutes later, until sign-out releases the store.
// (Only a trace that records Subscription handles can prove nothing could unbind it.)

final class AccountStore {
    let user = Output<String>(value: "ada").labeled("account user")
    let plan = Output<String>(value: "free").labeled("account plan")
}

final class AccountScreen {
    let nameLabel = Label()
    private var subscription: Subscription?

    func show(store: AccountStore, dropsSubscription: Bool) {
        if dropsSubscription {
            store.user.bind { [weak self] in self?.nameLabel.text = $0 }  // expect-with-handles: leaked-subscription
        } else {
            subscription = store.user.bind { [weak self] in self?.nameLabel.text = $0 }
        }
    }

    func close() { subscription?.unsubscribe() }
}

final class PlanScreen {
    let planLabel = Label()
    private let bag = SubscriptionContainer()

    func show(store: AccountStore) {
        store.plan.bind(to: planLabel.binding[\.text]).add(to: bag)
    }

    func close() { bag.unsubscribe() }
}

enum AccountApp: CorpusProgram {
    static let sourcePath = #filePath

    static func run(buggy: Bool) {
        var store: AccountStore? = AccountStore()
        BindTrace.scope("account screen") {
            let screen = AccountScreen()
            screen.show(store: store!, dropsSubscription: buggy)
            screen.close()
        }
        BindTrace.scope("plan screen") {
            let plan = PlanScreen()
            plan.show(store: store!)
            store?.plan.update(withValue: "pro")
            plan.close()
        }
        for index in 0..<5 { store?.user.update(withValue: "user \(index)") }
        store = nil  // signed out
    }
}
