import Bind

// Search suggestions: a query, a flatMap to the current provider's results, and a "refine" screen.
// Planted bug: the flatMap switches to an Output derived from its own result — a circle among
// derived Outputs (one finding, not also a feedback loop).

final class SuggestionsViewModel {
    let query = Output<String>(value: "").labeled("suggestion query")
    let provider = Output<Int>(value: 0).labeled("provider")
    private(set) var suggestions: Output<String>!
    private(set) var refined: Output<String>!
    private let fallback = Output<String>(value: "none").labeled("no suggestions")

    init(loopsBack: Bool) {
        var refinedBox: Output<String>?
        suggestions = provider.flatMap { [query, fallback] index in  // expect: structural-cycle
            index == 0 ? query : (loopsBack ? refinedBox ?? fallback : fallback)
        }
        refined = suggestions.map { $0.count < 12 ? "\($0)+" : $0 }.filter { $0.count < 12 }
        refinedBox = refined
    }
}

final class SuggestionsScreen {
    let viewModel: SuggestionsViewModel
    let label = Label()
    private let bag = SubscriptionContainer()

    init(viewModel: SuggestionsViewModel) { self.viewModel = viewModel }

    func show() { viewModel.refined.bind(to: label.binding[\.text]).add(to: bag) }
    func close() { bag.unsubscribe() }
}

enum SuggestionsApp: CorpusProgram {
    static let sourcePath = #filePath

    static func run(buggy: Bool) {
        BindTrace.scope("suggestions screen") {
            let viewModel = SuggestionsViewModel(loopsBack: buggy)
            let screen = SuggestionsScreen(viewModel: viewModel)
            screen.show()
            viewModel.query.update(withValue: "sw")
            viewModel.provider.update(withValue: 1)
            screen.close()
        }
    }
}
