import Bind

// A currency app: an app-wide exchange-rate service made lazily (`static let shared`) whose
// initialiser makes the rate, a `map` of it (the formatted rate) and a history it binds to its own
// rate with `[weak self]`. A converter screen touches the service first, inside its own scope: the
// service, its derived Output and its own binding are made together and owned together, so none of
// them is the screen's leak (in a recorded run the process is fresh; in process, whichever test of
// the corpus runs this program first makes the service inside that run's screen scope).
// Planted bug: the converter also derives its fee from the app's market feed, made at launch, in its
// own code: the feed, alive at the end, holds that `map` through its subscription, while the
// service's own `map`, made inside the screen's scope, is never named.
// Clean twin: the converter binds the service's own formatted rate, and unbinds when it closes.

final class SpreadFeed: @unchecked Sendable {
    let spread = Output<Double>(value: 0.01).labeled("market spread")
}

final class ExchangeRates: @unchecked Sendable {
    static let shared = ExchangeRates()

    let rate = Output<Double>(value: 1.08).labeled("euro to dollar rate")
    let formattedRate: Output<String>
    private(set) var history: [Double] = []
    private let bag = SubscriptionContainer()

    private init() {
        formattedRate = rate.map { "1 EUR = \($0) USD" }
        rate.bind { [weak self] in self?.history.append($0) }.add(to: bag)
    }
}

final class ConverterScreen {
    let rateLabel = Label()
    private let bag = SubscriptionContainer()

    func show(amount: Double, derivesOwnAmount: Bool, feed: SpreadFeed) {
        let rates = ExchangeRates.shared
        if derivesOwnAmount {
            let fee = feed.spread.map { $0 * amount }  // expect: leaked-output
            fee.map { "fee \($0)" }.bind(to: rateLabel.binding[\.text]).add(to: bag)
            // The service's own formatted rate: its Outputs are never this screen's leak.
            rates.formattedRate.bind(to: rateLabel.binding[\.text]).add(to: bag)
        } else {
            rates.formattedRate.bind(to: rateLabel.binding[\.text]).add(to: bag)
        }
    }

    func close() { bag.unsubscribe() }
}

enum RatesApp: CorpusProgram {
    static let sourcePath = #filePath

    static func run(buggy: Bool) {
        let feed = SpreadFeed()
        AppLifetime.shared.keep(feed)
        BindTrace.scope("converter screen") {
            let screen = ConverterScreen()
            screen.show(amount: 20, derivesOwnAmount: buggy, feed: feed)
            ExchangeRates.shared.rate.update(withValue: 1.09)
            screen.close()
        }
        ExchangeRates.shared.rate.update(withValue: 1.1)
        feed.spread.update(withValue: 0.02)
    }
}
