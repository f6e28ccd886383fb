import Bind

// A currency app: an app-wide exchange-rate service made lazily (`static let shared`) whose
// initialiser makes the rate, a `map` of it (the formatted rate) and a history it binds to its own
// rate with `[weak self]`. A converter screen touches the service first, inside its own scope: the
// service, its derived Output and its own binding are made together and owned together, so none of
// them is the screen's leak (in a recorded run the process is fresh; in process, whichever test of
// the corpus runs this program first makes the service inside that run's screen scope).
// Planted bug: the converter derives the converted amount from the service's rate in its own code
// (as NotesApp's editor does): the service, alive at the end, holds that `map` through its
// subscription, while the service's own `map`, made the same way, is never named.
// Clean twin: the converter binds the service's own formatted rate, and unbinds when it closes.

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

    func show(amount: Double, derivesOwnAmount: Bool) {
        let rates = ExchangeRates.shared
        if derivesOwnAmount {
            // Not reported in a fresh process (docs/analysis.md, "Made together, owned together", limits):
            // the service is first made inside this screen's scope, so its rate and this map look made by
            // one piece of work.
            let converted = rates.rate.map { $0 * amount }
            converted.map { "\($0) USD" }.bind(to: rateLabel.binding[\.text]).add(to: bag)
        } else {
            rates.formattedRate.bind(to: rateLabel.binding[\.text]).add(to: bag)
        }
    }

    func close() { bag.unsubscribe() }
}

enum RatesApp: CorpusProgram {
    static let sourcePath = #filePath

    static func run(buggy: Bool) {
        BindTrace.scope("converter screen") {
            let screen = ConverterScreen()
            screen.show(amount: 20, derivesOwnAmount: buggy)
            ExchangeRates.shared.rate.update(withValue: 1.09)
            screen.close()
        }
        ExchangeRates.shared.rate.update(withValue: 1.1)
    }
}
