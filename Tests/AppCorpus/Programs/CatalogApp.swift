import Bind

// A shop catalog: a screen over two view models, each deriving an Output lazily from its own
// source: the catalog the page of the selected category (a `flatMap` to that category's page
// Output), the filter bar its title (a `map`). The screen binds both to its labels through Binders
// and empties its bag when it closes; nothing else holds the view models, so they go with the
// screen unless a transform holds them.
// Planted bugs: both lazy derivations call their view model's own method through a strong `self`:
// the view model holds the source, the source holds the operator's subscription, whose transform
// holds the view model — a cycle through the operator, with no closure bound by the app.
// Clean twin: the flatMap's transform captures `[weak self]`, the map's `[unowned self]`.

final class CatalogViewModel {
    let category = Output<Int>(value: 0).labeled("selected category")
    private let pages: [Output<String>] = (0..<3).map { Output<String>(value: "page \($0)").labeled("category page") }
    private let transformHoldsSelf: Bool

    init(transformHoldsSelf: Bool) { self.transformHoldsSelf = transformHoldsSelf }

    lazy var page: Output<String> =
        transformHoldsSelf
        ? category.flatMap { self.page(for: $0) }  // expect: retain-cycle
        : category.flatMap { [weak self] in self?.page(for: $0) ?? Output<String>(value: "") }

    func page(for category: Int) -> Output<String> { pages[category % pages.count] }
}

final class FilterBarViewModel {
    let sort = Output<String>(value: "price").labeled("catalog sort")
    private let categoryCount = 3
    private let transformHoldsSelf: Bool

    init(transformHoldsSelf: Bool) { self.transformHoldsSelf = transformHoldsSelf }

    lazy var title: Output<String> =
        transformHoldsSelf
        ? sort.map { self.title(sortedBy: $0) }  // expect: retain-cycle
        : sort.map { [unowned self] in self.title(sortedBy: $0) }

    func title(sortedBy key: String) -> String { "\(categoryCount) categories by \(key)" }
}

final class CatalogScreen {
    let catalog: CatalogViewModel
    let filterBar: FilterBarViewModel
    let pageLabel = Label()
    let filterLabel = Label()
    private let bag = SubscriptionContainer()

    init(transformsHoldSelf: Bool) {
        catalog = CatalogViewModel(transformHoldsSelf: transformsHoldSelf)
        filterBar = FilterBarViewModel(transformHoldsSelf: transformsHoldSelf)
    }

    func show() {
        catalog.page.bind(to: pageLabel.binding[\.text]).add(to: bag)
        filterBar.title.bind(to: filterLabel.binding[\.text]).add(to: bag)
    }

    func close() { bag.unsubscribe() }
}

enum CatalogApp: CorpusProgram {
    static let sourcePath = #filePath

    static func run(buggy: Bool) {
        BindTrace.scope("catalog screen") {
            let screen = CatalogScreen(transformsHoldSelf: buggy)
            screen.show()
            screen.catalog.category.update(withValue: 2)
            screen.filterBar.sort.update(withValue: "rating")
            screen.close()
        }
    }
}
