import Bind

// A stock app: a market feed owned by the signed-in session, a quote screen and a chart screen,
// each opened and closed; the feed keeps ticking for a while, then the user signs out and the feed
// goes — before the app (and the trace) ends.
// Planted bugs: both screens derive what they show from the feed's Outputs in their own code (a
// map, a combine). The feed holds each derived Output, and updates it on every tick, until the
// feed itself is released: long after the screens were gone.

final class MarketFeed {
    let price = Output<Double>(value: 100).labeled("price")
    let volume = Output<Int>(value: 0).labeled("volume")
    /// Derived once, where their sources are owned: they live and go with the feed.
    let priceText: Output<String>
    let summary: Output<String>

    init() {
        priceText = price.map { "$\($0)" }
        summary = Output.combine(price, volume).map { "\($0) × \($1)" }
    }

    func tick(_ index: Int) {
        price.update(withValue: 100 + Double(index))
        volume.update(withValue: index * 10)
    }
}

final class QuoteScreen {
    let priceLabel = Label()
    private let bag = SubscriptionContainer()

    func show(_ feed: MarketFeed, derivesOwnText: Bool) {
        if derivesOwnText {
            feed.price.map { "$\($0)" }.bind(to: priceLabel.binding[\.text]).add(to: bag)  // expect: leaked-output
        } else {
            feed.priceText.bind(to: priceLabel.binding[\.text]).add(to: bag)
        }
    }

    func close() { bag.unsubscribe() }
}

final class ChartScreen {
    let summaryLabel = Label()
    private let bag = SubscriptionContainer()

    func show(_ feed: MarketFeed, derivesOwnSummary: Bool) {
        if derivesOwnSummary {
            let summary = Output.combine(feed.price, feed.volume)  // expect: leaked-output
                .map { "\($0) × \($1)" }
            summary.bind { [weak self] in self?.summaryLabel.text = $0 }.add(to: bag)
        } else {
            feed.summary.bind { [weak self] in self?.summaryLabel.text = $0 }.add(to: bag)
        }
    }

    func close() { bag.unsubscribe() }
}

enum QuotesApp: CorpusProgram {
    static let sourcePath = #filePath

    static func run(buggy: Bool) {
        var feed: MarketFeed? = MarketFeed()
        BindTrace.scope("quote screen") {
            let screen = QuoteScreen()
            screen.show(feed!, derivesOwnText: buggy)
            feed?.tick(1)
            screen.close()
        }
        BindTrace.scope("chart screen") {
            let screen = ChartScreen()
            screen.show(feed!, derivesOwnSummary: buggy)
            feed?.tick(2)
            screen.close()
        }
        for index in 3..<30 { feed?.tick(index) }
        BindTrace.mark("signed out")
        feed = nil
        BindTrace.mark("back at the sign-in screen")
    }
}
