import Bind

/// The inbox's search field: as the user types, it counts the matching messages and lists their titles.
final class InboxSearch {
    let field = TextField(name: "search")
    /// How many titles contain the query.
    let matchCount: Output<Int>
    /// One row per message, showing its title.
    let rows: [Label]
    private let bag = SubscriptionContainer()

    /// - Parameter rehighlightsOnEveryKeystroke: `true` is the pull-request variant's bug.
    init(messages: [MessageViewModel], rehighlightsOnEveryKeystroke: Bool) {
        let titles = messages.map(\.title)
        rows = titles.map { _ in Label() }
        matchCount =
            field.text.map { query in
                titles.filter { ($0.value ?? "").lowercased().contains(query.lowercased()) }.count
            }
            .ignoringDuplicates().labeled("matching messages")
        matchCount.bind { count in log("search: \(count) matching") }.add(to: bag)
        for (title, row) in zip(titles, rows) { title.bind(to: row.binding[\.text]).add(to: bag) }
        if rehighlightsOnEveryKeystroke {
            // BUG (update storm): to redraw the highlighted query, every keystroke re-sends every
            // message title, unchanged, to every row bound to it.
            field.text.bind { _ in
                for title in titles { title.update(withValue: title.value ?? "") }
            }.add(to: bag)
        }
    }

    /// Types `query` one keystroke at a time, as a user would.
    func type(_ query: String) {
        var typed = ""
        for character in query {
            typed.append(character)
            field.type(typed)
        }
    }

    func close() {
        bag.unsubscribe()
    }
}
