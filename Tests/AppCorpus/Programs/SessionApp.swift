import Bind

// An app-wide session store, created lazily on first use (inside whichever screen touches it
// first), a home screen and an inbox screen that both show it.
// Planted bug: the home screen binds to the store and drops the Subscription: nothing can unbind
// it, and the store keeps running it for the rest of the app's life.

final class SessionStore: @unchecked Sendable {
    static let shared = SessionStore()
    let user = Output<String>(value: "guest").labeled("session user")
    let unreadCount = Output<Int>(value: 0).labeled("unread count")
}

final class HomeScreen {
    let greeting = Label()
    private var subscription: Subscription?

    func show(dropsSubscription: Bool) {
        let user = SessionStore.shared.user
        if dropsSubscription {
            user.bind { [weak self] in self?.greeting.text = "Hi \($0)" }  // expect: leaked-subscription
        } else {
            subscription = user.bind { [weak self] in self?.greeting.text = "Hi \($0)" }
        }
    }

    func close() { subscription?.unsubscribe() }
}

final class InboxBadgeScreen {
    let badge = Label()
    private let bag = SubscriptionContainer()

    func show() {
        SessionStore.shared.unreadCount.bind { [weak self] in self?.badge.text = "\($0)" }.add(to: bag)
        SessionStore.shared.user.bind { [weak self] in self?.badge.text += " for \($0)" }.add(to: bag)
    }

    func close() { bag.unsubscribe() }
}

enum SessionApp: CorpusProgram {
    static let sourcePath = #filePath

    static func run(buggy: Bool) {
        BindTrace.scope("home screen") {
            let home = HomeScreen()
            home.show(dropsSubscription: buggy)
            SessionStore.shared.user.update(withValue: "ada")
            home.close()
        }
        BindTrace.scope("inbox screen") {
            let inbox = InboxBadgeScreen()
            inbox.show()
            SessionStore.shared.unreadCount.update(withValue: 3)
            inbox.close()
        }
        SessionStore.shared.user.update(withValue: "grace")
    }
}
