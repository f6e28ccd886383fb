import Bind

/// A long-lived model, as an app's shared view model would be: it outlives every test.
final class Profile: @unchecked Sendable {
    let name = Output<String>(value: "Ada").labeled("profile name")
}

/// Created before any check runs (see `issues(of:)`): a lazily created global made inside a
/// checked test would itself be reported as a leaked Output.
let sharedProfile = Profile()

final class NameLabel: BindableCompatible {
    var text = ""
}

/// Binds the shared profile's name and forgets the subscription: a leak (nothing can unbind it).
/// The bind is on the line `plantedLeakLine` names.
func bindAndForget(to label: NameLabel) {
    sharedProfile.name.bind { [weak label] in label?.text = $0 }
}
let plantedLeakLine: UInt = #line - 2

/// The fixed twin: binds the same way and unsubscribes when done.
func bindAndUnsubscribe(to label: NameLabel) {
    let subscription = sharedProfile.name.bind(to: label.binding[\.text])
    subscription.unsubscribe()
}

/// Binds the same target twice from one line: a reused cell that never unsubscribed.
func bindTwice(to label: NameLabel) {
    for _ in 0..<2 { sharedProfile.name.bind(to: label.binding[\.text]) }
}
let duplicateLine: UInt = #line - 2

/// The README's cell: binds its row into a bag, empties it on reuse and — unless told not to — when
/// it is released (releasing a container does not unbind).
final class ReadmeMessageCell {
    let titleLabel = NameLabel()
    private let bag = SubscriptionContainer()
    private let emptiesBagInDeinit: Bool

    init(emptiesBagInDeinit: Bool) { self.emptiesBagInDeinit = emptiesBagInDeinit }

    func configure(with profile: Profile) {
        profile.name.bind(to: titleLabel.binding[\.text]).add(to: bag)
    }
    let configureLine: UInt = #line - 2

    func prepareForReuse() { bag.unsubscribe() }

    deinit { if emptiesBagInDeinit { bag.unsubscribe() } }
}

/// Rows that outlive every test, as the README's `first` and `second` do.
let readmeRows = (first: Profile(), second: Profile())

/// A screen that binds its own Output and drops the Subscription (the result of `bind` unused), the
/// way apps usually do: with `self` captured strongly, by a closure or a method reference, the screen
/// keeps itself alive; `[weak self]` is the clean twin.
final class DroppedHandleScreen {
    enum Capture { case strongSelf, methodReference, weakSelf }

    let title = Output<String>(value: "Inbox")
    private(set) var shown = ""

    init(_ capture: Capture) {
        switch capture {
        case .strongSelf: title.bind { self.shown = $0 }
        case .methodReference: title.bind(self.show)
        case .weakSelf: title.bind { [weak self] in self?.shown = $0 }
        }
    }
    static let strongSelfLine: UInt = #line - 5
    static let methodReferenceLine: UInt = #line - 5

    private func show(_ text: String) { shown = text }
}
