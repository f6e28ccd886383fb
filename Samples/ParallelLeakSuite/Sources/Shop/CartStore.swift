import Bind
import Foundation

/// The app-wide cart, made lazily at its first use, as a `static let shared` is.
///
/// Its initialiser makes its Outputs, derives two more from them (`map`) and binds its own history
/// to them with `[weak self]`: all of it is made together with the store and lives with it, so the
/// test that happens to touch the store first (in its suite's `init()`, under the leak check's scope)
/// must not be blamed for any of it.
public final class CartStore: @unchecked Sendable {
    public static let shared = CartStore()

    public let items = Output<[String]>(value: []).labeled("cart items")
    public let coupon = Output<String>(value: "").labeled("cart coupon")
    public let itemCount: Output<Int>
    public let summary: Output<String>
    private let history = Locked<[Int]>([])
    private let bag = SubscriptionContainer()

    private init() {
        itemCount = items.map { $0.count }
        summary = itemCount.map { "\($0) items" }
        itemCount.bind { [weak self] in self?.record($0) }.add(to: bag)
        coupon.bind { [weak self] _ in self?.record(-1) }.add(to: bag)
    }

    /// How many changes the store has seen.
    public var changes: Int { history.value.count }

    private func record(_ count: Int) { history.value.append(count) }

    /// Adds `item` (safe from any test's thread).
    public func add(_ item: String) { items.update(withValue: (items.value ?? []) + [item]) }
}

/// A value behind a lock: tests update the shared store from many threads at once.
public final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    public init(_ value: Value) { stored = value }
    public var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
