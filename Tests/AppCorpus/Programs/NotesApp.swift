import Bind

// A notes app: an app-wide note store, and an editor screen opened over the list for one note.
// Planted bugs, each kept alive by references the trace records (the `// kept alive by:` comment
// above the line is the path `bind-trace check` must print, `{line}` the marked line):
// - the editor derives its word count from the store's text in its own code: the store, alive at the
//   end, holds the derived Output through the map's subscription;
// - the editor's view model binds an autosave closure that captures the view model strongly: view
//   model → draft → closure → view model, a retain cycle.
// Clean twin: the store derives the word count once (it lives and goes with the store), and the
// autosave closure captures the view model weakly.

final class NoteStore {
    let text = Output<String>(value: "").labeled("note text")
    let wordCount: Output<String>

    init() {
        wordCount = text.map { $0.split(separator: " ").count }.map { "\($0) words" }
    }
}

final class EditorViewModel {
    let draft = Output<String>(value: "").labeled("editor draft")
    private(set) var saved: [String] = []
    private let bag = SubscriptionContainer()

    init(capturesStrongly: Bool) {
        if capturesStrongly {
            // kept alive by: 'editor draft' (String) (the leak) → its subscriber list → subscription N (closure bound at NotesApp.swift:{line}) → captures EditorViewModel strongly → .draft → 'editor draft' (String), the Output it is bound to → its Subscription, held in SubscriptionContainer N (who owns the container: not recorded)
            draft.bind { self.saved.append($0) }.add(to: bag)  // expect: retain-cycle
        } else {
            draft.bind { [weak self] in self?.saved.append($0) }.add(to: bag)
        }
    }
}

final class EditorScreen {
    let viewModel: EditorViewModel
    let wordsLabel = Label()
    private let bag = SubscriptionContainer()

    init(capturesStrongly: Bool) { viewModel = EditorViewModel(capturesStrongly: capturesStrongly) }

    func show(_ store: NoteStore, derivesOwnCount: Bool) {
        if derivesOwnCount {
            // kept alive by: 'note text' (String), alive at the end → its subscriber list → map's subscription N at NotesApp.swift:{line} → map → Int at NotesApp.swift:{line} (the leak)
            let count = store.text.map { $0.split(separator: " ").count }  // expect: leaked-output
            count.map { "\($0) words" }.bind(to: wordsLabel.binding[\.text]).add(to: bag)
        } else {
            store.wordCount.bind(to: wordsLabel.binding[\.text]).add(to: bag)
        }
    }

    func close() { bag.unsubscribe() }
}

enum NotesApp: CorpusProgram {
    static let sourcePath = #filePath

    static func run(buggy: Bool) {
        let store = NoteStore()
        AppLifetime.shared.keep(store)
        BindTrace.scope("editor screen") {
            let screen = EditorScreen(capturesStrongly: buggy)
            screen.show(store, derivesOwnCount: buggy)
            screen.viewModel.draft.update(withValue: "buy milk")
            store.text.update(withValue: "buy milk")
            screen.close()
        }
        store.text.update(withValue: "buy milk and eggs")
    }
}
