import Bind

// Headless stand-ins for UIKit views: plain classes with the properties a screen binds to.

/// A text field: `text` is what the user typed (an Output the screen reads) and what is shown.
final class TextField: BindableCompatible {
    let name: String
    /// Updated when the user types, and when the screen writes back a normalised value.
    let text: Output<String>
    var isHighlighted = false

    init(name: String) {
        self.name = name
        self.text = Output<String>(value: "").labeled("\(name) field text")
    }

    /// Simulates the user typing `value`.
    func type(_ value: String) {
        text.update(withValue: value)
    }
}

final class Button: BindableCompatible {
    let title: String
    var isEnabled = false
    /// Drawn highlighted once the email looks complete.
    var isHighlighted = false
    /// Fires when tapped (a stateless stream: nothing replays to a later subscriber).
    let tapped = Relay<Void>()

    init(title: String) {
        self.title = title
        tapped.labeled("\(title) button tapped")
    }

    /// Simulates a tap; disabled buttons ignore it, like UIKit's.
    func tap() {
        if isEnabled { tapped.fire() }
    }
}

final class Label: BindableCompatible {
    var text = ""
}

/// A reusable list cell: the table hands the same few cells out again for new rows.
final class MessageCell: BindableCompatible {
    let number: Int
    let titleLabel = Label()
    let detailLabel = Label()
    var isUnread = false
    /// The cell's bindings, unbound on reuse.
    let bag = SubscriptionContainer()

    init(number: Int) {
        self.number = number
    }
}

/// A table that reuses a small pool of cells for any number of rows, like UITableView.
final class TableView<Cell> {
    private var pool: [Cell] = []
    /// Every cell made so far.
    var cells: [Cell] { pool }
    private let makeCell: (Int) -> Cell
    private let poolSize: Int

    init(visibleRows: Int, makeCell: @escaping (Int) -> Cell) {
        self.poolSize = visibleRows
        self.makeCell = makeCell
    }

    /// The cell for `row`: a new one until the pool is full, then a reused one.
    func dequeueCell(for row: Int) -> (cell: Cell, isReused: Bool) {
        if pool.count < poolSize {
            let cell = makeCell(pool.count + 1)
            pool.append(cell)
            return (cell, false)
        }
        return (pool[row % poolSize], true)
    }
}
