import Bind

// A list of message threads: the screen makes each row's view model as the row scrolls in and
// hands it to a reused cell, which holds it until the next row replaces it (the old view model
// goes, and the cell's label bindings to it with it: their Subscriptions are not kept). An app-wide
// typing indicator shows who is typing in each row.
// Planted bug: the cell binds to the typing indicator and drops that Subscription.

final class TypingIndicator: Sendable {
    let typing = Output<Set<Int>>(value: []).labeled("typing in threads")
}

final class ThreadRowViewModel {
    let id: Int
    let subject = Output<String>(value: "").labeled("thread subject")
    let preview = Output<String>(value: "").labeled("thread preview")

    init(id: Int) { self.id = id }

    func load() {
        subject.update(withValue: "Thread \(id)")
        preview.update(withValue: "Last message in thread \(id)")
    }
}

final class ThreadCell {
    let subjectLabel = Label()
    let previewLabel = Label()
    let typingLabel = Label()
    private(set) var row: ThreadRowViewModel?
    private let bag = SubscriptionContainer()

    func configure(with row: ThreadRowViewModel, typing: TypingIndicator, dropsTyping: Bool) {
        bag.unsubscribe()
        self.row = row
        row.subject.bind(to: subjectLabel.binding[\.text])
        row.preview.bind(to: previewLabel.binding[\.text])
        let id = row.id
        if dropsTyping {
            typing.typing.bind { [weak self] in self?.showTyping($0.contains(id)) }  // expect: leaked-subscription
        } else {
            typing.typing.bind { [weak self] in self?.showTyping($0.contains(id)) }.add(to: bag)
        }
    }

    func showTyping(_ isTyping: Bool) { typingLabel.text = isTyping ? "typing…" : "" }
}

enum ThreadsApp: CorpusProgram {
    static let sourcePath = #filePath

    static func run(buggy: Bool) {
        let typing = TypingIndicator()
        AppLifetime.shared.keep(typing)
        let table = Table<ThreadCell>(visibleRows: 2) { _ in ThreadCell() }
        for index in 0..<6 {
            let (cell, _) = table.dequeue(row: index)
            let row = ThreadRowViewModel(id: index)
            BindTrace.scope("thread cell for row \(index)") {
                cell.configure(with: row, typing: typing, dropsTyping: buggy)
            }
            // The row loads after it is on screen; someone starts typing in it.
            row.load()
            typing.typing.update(withValue: [index])
        }
        // Quit with the list on screen.
        AppLifetime.shared.keep(table)
    }
}
