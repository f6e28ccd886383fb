import Bind

// A settings screen with a two-way binding between a text field and its view model, a toggle, and
// a search screen over an app-wide store.
// Planted bugs: the normalised user name is written back into the field while the field's own
// update is still propagating (a feedback loop); the search screen builds a map on the app-wide
// query inside its own scope, which the query keeps alive forever.

final class SettingsViewModel {
    let userName = Output<String>(value: "").labeled("user name")
    let notificationsOn = Output<Bool>(value: true).labeled("notifications on")
    let normalizedName: Output<String>

    init() {
        normalizedName = userName.map { $0.lowercased() }.ignoringDuplicates().labeled("normalized name")
    }
}

final class SettingsScreen {
    let viewModel = SettingsViewModel()
    let nameField = TextField(name: "user name")
    let notificationsToggle = Toggle()
    let preview = Label()
    private let bag = SubscriptionContainer()

    func show(writesBackWhileTyping: Bool) {
        let viewModel = viewModel
        let field = nameField
        nameField.text.bind { viewModel.userName.update(withValue: $0) }.add(to: bag)  // expect: feedback-cycle
        viewModel.notificationsOn.bind(to: notificationsToggle.binding[\.isOn]).add(to: bag)
        if writesBackWhileTyping {
            viewModel.normalizedName.bind { name in
                if field.text.value != name { field.text.update(withValue: name) }
            }.add(to: bag)
        } else {
            viewModel.normalizedName.bind(to: preview.binding[\.text]).add(to: bag)
        }
    }

    /// The fixed screen writes the normalised name back when editing ends, outside any update.
    func endEditing() {
        if let name = viewModel.normalizedName.value, nameField.text.value != name {
            nameField.text.update(withValue: name)
        }
    }

    func close() { bag.unsubscribe() }
}

final class SearchStore {
    let query = Output<String>(value: "").labeled("search query")
}

final class SearchScreen {
    let resultsLabel = Label()
    private let bag = SubscriptionContainer()

    func show(store: SearchStore, derivesInScope: Bool) {
        if derivesInScope {
            let results = store.query.map { "results for \($0)" }  // expect: leaked-output
            results.bind(to: resultsLabel.binding[\.text]).add(to: bag)
        } else {
            store.query.bind { [weak self] in self?.resultsLabel.text = "results for \($0)" }.add(to: bag)
        }
    }

    func close() { bag.unsubscribe() }
}

enum SettingsApp: CorpusProgram {
    static let sourcePath = #filePath

    static func run(buggy: Bool) {
        let store = SearchStore()
        AppLifetime.shared.keep(store)
        BindTrace.scope("settings screen") {
            let settings = SettingsScreen()
            settings.show(writesBackWhileTyping: buggy)
            settings.nameField.type("Ada")
            settings.endEditing()
            settings.viewModel.notificationsOn.update(withValue: false)
            settings.close()
        }
        BindTrace.scope("search screen") {
            let search = SearchScreen()
            search.show(store: store, derivesInScope: buggy)
            store.query.update(withValue: "swift")
            search.close()
        }
        store.query.update(withValue: "bind")
    }
}
