import Bind

// A contacts list: reused cells that each own their row's view model, made anew for every
// configuration (the old one goes, and the cell's bindings to it with it). The bindings to the
// row's Outputs are not kept: they live exactly as long as the row. Rows load their details after
// they are shown, and an app-wide presence service says who is online.
// Planted bug: the cells also bind to the presence service and drop that Subscription; nothing
// can unbind it, and every configuration adds one more.

final class PresenceService: Sendable {
    let online = Output<Set<Int>>(value: []).labeled("online contacts")
}

final class ContactRowViewModel {
    let id: Int
    let name: Output<String>
    let status = Output<String>(value: "").labeled("contact status")

    init(id: Int) {
        self.id = id
        name = Output(value: "contact \(id)").labeled("contact name")
    }

    func loadDetails() { name.update(withValue: "Contact \(id) (work)") }
    func show(online: Set<Int>) { status.update(withValue: online.contains(id) ? "online" : "away") }
}

final class ContactCell {
    let nameLabel = Label()
    let statusLabel = Label()
    private(set) var row: ContactRowViewModel?
    private let bag = SubscriptionContainer()

    func configure(id: Int, presence: PresenceService, dropsPresence: Bool) {
        bag.unsubscribe()
        let row = ContactRowViewModel(id: id)
        self.row = row
        row.name.bind(to: nameLabel.binding[\.text])
        row.status.bind { [weak self] in self?.statusLabel.text = $0 }
        if dropsPresence {
            presence.online.bind { [weak row] in row?.show(online: $0) }  // expect: leaked-subscription
        } else {
            presence.online.bind { [weak row] in row?.show(online: $0) }.add(to: bag)
        }
    }
}

enum ContactsApp: CorpusProgram {
    static let sourcePath = #filePath

    static func run(buggy: Bool) {
        let presence = PresenceService()
        AppLifetime.shared.keep(presence)
        let table = Table<ContactCell>(visibleRows: 3) { _ in ContactCell() }
        for row in 0..<9 {
            let (cell, _) = table.dequeue(row: row)
            BindTrace.scope("contact cell for row \(row)") {
                cell.configure(id: row, presence: presence, dropsPresence: buggy)
            }
            // The row's details arrive after the cell is on screen.
            cell.row?.loadDetails()
            presence.online.update(withValue: Set(0...row).filter { $0 % 2 == 0 })
        }
        // Quit with the list on screen.
        AppLifetime.shared.keep(table)
    }
}
