import Bind

// A status bar and an activity log. The bar shows the latest of several sources: one Label bound in
// a loop to each source (last writer wins) and unbound together when the bar goes. The log merges the
// analytics and navigation events one tap fires: two entries per tap. Neither is a bug.
// Planted bug: the bar is shown again for another set of sources without emptying its bag, so the
// first set's bindings still write into the Label that now shows the second set.

final class StatusStore: Sendable {
    let user = Output<String>(value: "Ada").labeled("user name")
    let theme = Output<String>(value: "light").labeled("theme")
    let network = Output<String>(value: "online").labeled("network")
}

final class StatusBar {
    let status = Label()
    private let bag = SubscriptionContainer()
    private let emptiesBagBeforeShowing: Bool

    init(emptiesBagBeforeShowing: Bool) { self.emptiesBagBeforeShowing = emptiesBagBeforeShowing }

    func show(sources: [Output<String>]) {
        if emptiesBagBeforeShowing { bag.unsubscribe() }
        for source in sources {
            source.bind(to: status.binding[\.text]).add(to: bag)  // expect: duplicate-binding
        }
    }

    func close() { bag.unsubscribe() }
}

final class ActivityLog {
    let analytics = Relay<String>()
    let navigation = Relay<String>()
    let entries = Label()
    private let bag = SubscriptionContainer()

    init(tap: Relay<Void>) {
        tap.bind { [weak self] in
            self?.analytics.update(withValue: "tap")
            self?.navigation.update(withValue: "push detail")
        }.add(to: bag)
        Output.merge(analytics, navigation)
            .bind { [weak self] in self?.entries.text += $0 + ";" }.add(to: bag)
    }

    func close() { bag.unsubscribe() }
}

enum ActivityApp: CorpusProgram {
    static let sourcePath = #filePath

    static func run(buggy: Bool) {
        let store = StatusStore()
        AppLifetime.shared.keep(store)
        BindTrace.scope("status bar") {
            let bar = StatusBar(emptiesBagBeforeShowing: !buggy)
            BindTrace.scope("status bar, signed in") { bar.show(sources: [store.user, store.theme]) }
            store.theme.update(withValue: "dark")
            BindTrace.scope("status bar, offline") { bar.show(sources: [store.network, store.theme]) }
            store.user.update(withValue: "Grace")
            bar.close()
        }
        let tap = Relay<Void>()
        BindTrace.scope("list screen") {
            let log = ActivityLog(tap: tap)
            tap.fire()
            tap.fire()
            log.close()
        }
    }
}
