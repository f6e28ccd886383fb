import Bind
import Foundation

// A stocks app: a watchlist screen over a quote store that a feed thread fills. The store is
// thread-safe as such stores are written, a lock and `var`s the feed thread changes under it, and
// it makes its quote Output when the first symbol is watched, so that Output sits in a `var` the
// capture reader leaves unread (another thread may be replacing it as it reads). The trace says so:
// the store's closures are judged by the rule for closures it could not read, not cleared.
// Planted bug: the store logs each quote with a closure that captures the store strongly and
// keeps it in the store's own bag: store → quote Output → closure → store.
// Clean twin: the log closure captures the store weakly.

final class QuoteStore: @unchecked Sendable {
    private let lock = NSLock()
    private var prices: [String: Double] = [:]
    private var quotes: Output<String>?
    private var log: [String] = []
    private let bag = SubscriptionContainer()

    /// The quote Output, made on first use; its log closure is bound then.
    func watch(logsStrongly: Bool) -> Output<String> {
        if let made = lock.withLock({ quotes }) { return made }
        let made = Output<String>(value: "").labeled("latest quote")
        lock.withLock { quotes = made }
        if logsStrongly {
            made.bind { self.record($0) }.add(to: bag)  // expect: retain-cycle
        } else {
            made.bind { [weak self] in self?.record($0) }.add(to: bag)
        }
        return made
    }

    func feed(_ symbol: String, price: Double) {
        let output = lock.withLock {
            prices[symbol] = price
            return quotes
        }
        output?.update(withValue: "\(symbol) \(price)")
    }

    private func record(_ quote: String) { lock.withLock { log.append(quote) } }
}

final class WatchlistScreen: @unchecked Sendable {
    let store: QuoteStore
    let quoteLabel = Label()
    private let bag = SubscriptionContainer()

    init(store: QuoteStore) { self.store = store }

    func open(logsStrongly: Bool) {
        store.watch(logsStrongly: logsStrongly).bind { [weak self] in self?.quoteLabel.text = $0 }.add(to: bag)
    }

    func close() { bag.unsubscribe() }
}

enum WatchlistApp: CorpusProgram {
    static let sourcePath = #filePath

    static func run(buggy: Bool) {
        BindTrace.scope("watchlist screen") {
            let screen = WatchlistScreen(store: QuoteStore())
            let fed = DispatchSemaphore(value: 0)
            let feed = Thread { [store = screen.store] in
                for tick in 0..<20 { store.feed("ACME", price: 100 + Double(tick)) }
                fed.signal()
            }
            feed.start()
            screen.open(logsStrongly: buggy)
            fed.wait()
            screen.store.feed("ACME", price: 120)
            screen.close()
        }
    }
}
