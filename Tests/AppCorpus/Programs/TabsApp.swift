import Bind

// A tab bar app: a messages tab that binds in `viewWillAppear` each time it is shown, and a banner
// that shows the unread count for a while and is then dismissed.
// Planted bugs: the tab binds again on every appearance without unbinding when it disappears; the
// banner drops its Subscription, so after the banner is gone its binding keeps receiving values.

final class MessagesStore {
    let unread = Output<Int>(value: 0).labeled("unread messages")
    let title = Output<String>(value: "Messages").labeled("messages title")
}

final class MessagesTab {
    let store: MessagesStore
    let titleLabel = Label()
    private let bag = SubscriptionContainer()
    let unbindsOnDisappear: Bool

    init(store: MessagesStore, unbindsOnDisappear: Bool) {
        self.store = store
        self.unbindsOnDisappear = unbindsOnDisappear
    }

    func viewWillAppear() {
        store.title.bind(to: titleLabel.binding[\.text]).add(to: bag)  // expect: duplicate-binding
    }

    func viewWillDisappear() {
        if unbindsOnDisappear { bag.unsubscribe() }
    }

    func close() { bag.unsubscribe() }
}

final class UnreadBanner {
    let label = Label()
    private var subscription: Subscription?

    func show(unread: Output<Int>, keepsSubscription: Bool) {
        let binder = Binder<Int>(label) { label, count in label.text = "\(count) unread" }
        if keepsSubscription {
            subscription = unread.bind(to: binder)
        } else {
            unread.bind(to: binder)  // expect: dangling-binder
        }
    }

    func dismiss() { subscription?.unsubscribe() }
}

enum TabsApp: CorpusProgram {
    static let sourcePath = #filePath

    static func run(buggy: Bool) {
        let store = MessagesStore()
        BindTrace.scope("tab bar") {
            let tab = MessagesTab(store: store, unbindsOnDisappear: !buggy)
            for appearance in 0..<3 {
                BindTrace.scope("messages tab, appearance \(appearance)") {
                    tab.viewWillAppear()
                    store.title.update(withValue: "Messages (\(appearance))")
                    tab.viewWillDisappear()
                }
            }
            tab.close()
        }
        BindTrace.scope("unread banner") {
            let banner = UnreadBanner()
            banner.show(unread: store.unread, keepsSubscription: !buggy)
            store.unread.update(withValue: 1)
            banner.dismiss()
        }
        store.unread.update(withValue: 2)
        store.unread.update(withValue: 3)
    }
}
