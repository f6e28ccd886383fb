import Bind

/// A label a screen binds to (headless, as in Bind's samples).
public final class Label: BindableCompatible, @unchecked Sendable {
    private let storage = Locked("")
    public init() {}
    public var text: String {
        get { storage.value }
        set { storage.value = newValue }
    }
}

/// The cart screen: shows the shared store, and unbinds everything when it closes.
public final class CartScreen {
    public let countLabel = Label()
    public let summaryLabel = Label()
    public let couponLabel = Label()
    public let quantity = Output<Int>(value: 1).labeled("quantity")
    private let bag = SubscriptionContainer()

    public init() {}

    public func show(_ store: CartStore) {
        store.itemCount.bind { [weak self] in self?.countLabel.text = "\($0)" }.add(to: bag)
        store.summary.bind(to: summaryLabel.binding[\.text]).add(to: bag)
        store.coupon.bind(to: couponLabel.binding[\.text]).add(to: bag)
    }

    /// The line total, derived from the screen's own quantity (made and released with the screen).
    public func showLineTotal(price: Int) {
        quantity.map { "\($0 * price) €" }.bind(to: summaryLabel.binding[\.text]).add(to: bag)
    }

    public func close() { bag.unsubscribe() }

    // MARK: planted leaks

    /// Binds the store's count and drops the Subscription: nothing can unbind it.
    public func showDroppingSubscription(_ store: CartStore) {
        store.itemCount.bind { [weak self] in self?.countLabel.text = "\($0)" }
    }

    /// Binds the coupon to its label and drops the Binder's Subscription.
    public func showCouponDroppingSubscription(_ store: CartStore) {
        store.coupon.bind(to: couponLabel.binding[\.text])
    }

    /// Derives its own summary from the store's items: the store keeps the `map` after the screen.
    public func showOwnSummary(_ store: CartStore) {
        store.items.map { "\($0.count) in cart" }.bind { [weak self] in self?.summaryLabel.text = $0 }.add(to: bag)
    }
}

/// A reusable row showing one product name.
public final class ProductRow {
    public let nameLabel = Label()
    public let bag = SubscriptionContainer()
    public init() {}

    /// Shows `name`; `emptiesBag: false` is the bug of a row reused without unbinding.
    public func configure(with name: Output<String>, emptiesBag: Bool) {
        if emptiesBag { bag.unsubscribe() }
        name.bind(to: nameLabel.binding[\.text]).add(to: bag)
    }
}

/// The checkout's view model: keeps its own confirmations.
public final class CheckoutViewModel {
    public let total = Output<Int>(value: 0).labeled("checkout total")
    public private(set) var confirmed: [Int] = []
    private let bag = SubscriptionContainer()

    /// `capturesStrongly` is the bug: the closure holds the view model, which holds `total`.
    public init(capturesStrongly: Bool) {
        if capturesStrongly {
            total.bind { self.confirmed.append($0) }.add(to: bag)
        } else {
            total.bind { [weak self] in self?.confirmed.append($0) }.add(to: bag)
        }
    }
}
