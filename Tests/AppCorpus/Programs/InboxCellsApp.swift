import Bind

// An inbox: an app-wide mail store, and a list screen whose cells bind the store's counters into
// their bags, empty them on reuse, and are all dropped when the screen closes; the store lives on.
// Planted bug: the cells do not empty their bag when they are released. Releasing a
// SubscriptionContainer does not unbind, so every released cell leaves its closures bound to the
// store, run on every later update.

final class MailStore: Sendable {
    let unread = Output<Int>(value: 0).labeled("unread mail")
    let flagged = Output<Int>(value: 0).labeled("flagged mail")
}

final class MailCell {
    let unreadLabel = Label()
    let flaggedLabel = Label()
    private let bag = SubscriptionContainer()
    private let emptiesBagOnRelease: Bool

    init(emptiesBagOnRelease: Bool) { self.emptiesBagOnRelease = emptiesBagOnRelease }

    deinit { if emptiesBagOnRelease { bag.unsubscribe() } }

    func prepareForReuse() { bag.unsubscribe() }

    func configure(store: MailStore) {
        store.unread.bind { [weak self] in self?.show(unread: $0) }.add(to: bag)  // expect: leaked-subscription
        store.flagged.bind { [weak self] in self?.show(flagged: $0) }.add(to: bag)  // expect: leaked-subscription
    }

    func show(unread: Int) { unreadLabel.text = "\(unread) unread" }
    func show(flagged: Int) { flaggedLabel.text = "\(flagged) flagged" }
}

final class InboxListScreen {
    let table: Table<MailCell>

    init(emptiesBagsOnRelease: Bool) {
        table = Table(visibleRows: 2) { _ in MailCell(emptiesBagOnRelease: emptiesBagsOnRelease) }
    }

    func scroll(rows: Int, store: MailStore) {
        for row in 0..<rows {
            let (cell, isReused) = table.dequeue(row: row)
            BindTrace.scope("mail cell for row \(row)") {
                if isReused { cell.prepareForReuse() }
                cell.configure(store: store)
            }
        }
    }
}

enum InboxCellsApp: CorpusProgram {
    static let sourcePath = #filePath

    static func run(buggy: Bool) {
        let store = MailStore()
        AppLifetime.shared.keep(store)
        BindTrace.scope("inbox screen") {
            let screen = InboxListScreen(emptiesBagsOnRelease: !buggy)
            screen.scroll(rows: 5, store: store)
            store.unread.update(withValue: 4)
        }
        store.unread.update(withValue: 5)
        store.flagged.update(withValue: 1)
    }
}
