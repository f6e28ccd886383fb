import Bind

// A reader app: an article screen over its view model (headline, reading progress, bookmark state).
// The screen binds three closures to the view model's Outputs and keeps their Subscriptions in its
// bag; it owns the view model, so a closure that captures the screen strongly closes a cycle.
// Planted bug: the bookmark closure, bound second, captures the screen strongly; the first and the
// third capture it `[weak self]` and are never named (the culprit is the closure that holds the
// screen, whatever order the binds came in).
// Clean twin: all three capture the screen weakly.

final class ArticleViewModel {
    let headline = Output<String>(value: "").labeled("article headline")
    let progress = Output<Int>(value: 0).labeled("reading progress")
    let isBookmarked = Output<Bool>(value: false).labeled("article bookmarked")

    func open(article: Int) {
        headline.update(withValue: "Article \(article)")
        progress.update(withValue: 10)
    }
}

final class ArticleScreen {
    let viewModel = ArticleViewModel()
    let headlineLabel = Label()
    let progressLabel = Label()
    let bookmarkToggle = Toggle()
    private let bag = SubscriptionContainer()

    func bind(bookmarkCapturesStrongly: Bool) {
        viewModel.headline.bind { [weak self] in self?.headlineLabel.text = $0 }.add(to: bag)
        if bookmarkCapturesStrongly {
            // kept alive by: 'article bookmarked' (Bool) (the leak) → its subscriber list → subscription N (closure bound at ReaderApp.swift:{line}) → captures ArticleScreen strongly → .viewModel.isBookmarked → 'article bookmarked' (Bool), the Output it is bound to → its Subscription, held in SubscriptionContainer N (who owns the container: not recorded)
            viewModel.isBookmarked.bind { self.bookmarkToggle.isOn = $0 }.add(to: bag)  // expect: retain-cycle
        } else {
            viewModel.isBookmarked.bind { [weak self] in self?.bookmarkToggle.isOn = $0 }.add(to: bag)
        }
        viewModel.progress.bind { [weak self] in self?.progressLabel.text = "\($0)%" }.add(to: bag)
    }
}

enum ReaderApp: CorpusProgram {
    static let sourcePath = #filePath

    static func run(buggy: Bool) {
        BindTrace.scope("article screen") {
            let screen = ArticleScreen()
            screen.bind(bookmarkCapturesStrongly: buggy)
            screen.viewModel.open(article: 7)
            screen.viewModel.isBookmarked.update(withValue: true)
        }
    }
}
