import Bind

/// One row of the inbox.
final class MessageViewModel {
    let title: Output<String>
    let sender: Output<String>
    let isUnread: Output<Bool>
    /// What a cell shows under the title: derived once, here, so it lives exactly as long as the row.
    let senderLine: Output<String>

    init(title: String, sender: String, isUnread: Bool) {
        self.title = Output(value: title).labeled("message title")
        self.sender = Output(value: sender).labeled("message sender")
        self.isUnread = Output(value: isUnread)
        self.senderLine = self.sender.map { "from \($0)" }.labeled("sender line")
    }
}

/// The inbox: a list of messages shown in reusable cells.
final class InboxScreen {
    let messages: [MessageViewModel]
    let table = TableView(visibleRows: 3) { MessageCell(number: $0) }
    /// Whether cells unbind on reuse. `false` reproduces the bug.
    let unbindsOnReuse: Bool
    /// Fires on every reload; `reloadCount` counts them.
    let reloads = Relay<Void>()
    let reloadCount: Output<Int>

    init(messages: [MessageViewModel], unbindsOnReuse: Bool) {
        self.messages = messages
        self.unbindsOnReuse = unbindsOnReuse
        reloads.labeled("reloads")
        reloadCount = reloads.reduce(initial: 0) { count, _ in count + 1 }.labeled("reload count")
    }

    /// The screen goes away: its cells' bindings go with it. (A container does not unbind when it is
    /// released: a cell that dies still bound leaves its bindings on the long-lived rows.)
    func close() {
        for cell in table.cells { cell.bag.unsubscribe() }
    }

    /// Lays out every row, as scrolling through the whole list would.
    func reloadData() {
        reloads.fire()
        for (row, message) in messages.enumerated() {
            let (cell, isReused) = table.dequeueCell(for: row)
            // A scope per configuration: what `configure` binds must be unbound by the cell's next reuse
            // (or the screen's close), never piled up.
            BindTrace.scope("cell \(cell.number) for row \(row)") {
                if isReused && unbindsOnReuse { prepareForReuse(cell) }
                configure(cell, with: message)
            }
        }
    }

    private func prepareForReuse(_ cell: MessageCell) {
        cell.bag.unsubscribe()
    }

    private func configure(_ cell: MessageCell, with message: MessageViewModel) {
        message.title.bind(to: cell.titleLabel.binding[\.text]).add(to: cell.bag)
        // (The line above is where the leak check reports the reused cells: SampleTests checks it.)
        message.isUnread.bind(to: cell.binding[\.isUnread]).add(to: cell.bag)
        // BUG when `unbindsOnReuse` is false (duplicate-binding): the reused cell keeps its previous
        // rows' bindings, so old rows keep writing into it.
        if unbindsOnReuse {
            message.senderLine.bind(to: cell.detailLabel.binding[\.text]).add(to: cell.bag)
        } else {
            // A third bug, subtler (leaked-output): the map is built on the long-lived `sender` inside
            // the cell's scope, so `sender` keeps one more map alive for every configuration.
            message.sender.map { "from \($0)" }.bind(to: cell.detailLabel.binding[\.text]).add(to: cell.bag)
        }
    }
}

extension InboxScreen {
    /// The line of `configure(_:with:)` that binds a message's title, for the sample's tests.
    static let titleBindingLine = 61
}
