import Bind

// A message composer: its view model turns typing into a draft and a tap into a sent message
// through a chain of Relays, each step bound in the view model's initialiser and kept in its
// own bag. The screen is dismissed after sending.
// Planted bug: the chain's steps capture the view model strongly: view model → Relay → closure →
// view model, a retain cycle the view model's own bag can never break.

final class ComposerViewModel {
    let typed = Relay<String>()
    let draft = Output<String>(value: "").labeled("draft")
    let sendTapped = Relay<Void>()
    let sent = Relay<String>()
    let sentCount = Output<Int>(value: 0).labeled("sent count")
    private let bag = SubscriptionContainer()

    init(capturesStrongly: Bool) {
        if capturesStrongly {
            typed.bind { self.draft.update(withValue: $0) }.add(to: bag)  // expect: retain-cycle
            sendTapped.bind { self.sent.update(withValue: self.draft.value ?? "") }.add(to: bag)
            sent.bind { _ in self.sentCount.update(withValue: (self.sentCount.value ?? 0) + 1) }.add(to: bag)
        } else {
            typed.bind { [weak self] in self?.draft.update(withValue: $0) }.add(to: bag)
            sendTapped.bind { [weak self] in
                guard let self else { return }
                self.sent.update(withValue: self.draft.value ?? "")
            }.add(to: bag)
            sent.bind { [weak self] _ in
                guard let self else { return }
                self.sentCount.update(withValue: (self.sentCount.value ?? 0) + 1)
            }.add(to: bag)
        }
    }
}

final class ComposerScreen {
    let viewModel: ComposerViewModel
    let draftLabel = Label()
    let countLabel = Label()
    private let bag = SubscriptionContainer()

    init(capturesStrongly: Bool) { viewModel = ComposerViewModel(capturesStrongly: capturesStrongly) }

    func show() {
        viewModel.draft.bind(to: draftLabel.binding[\.text]).add(to: bag)
        viewModel.sentCount.map { "\($0) sent" }.bind(to: countLabel.binding[\.text]).add(to: bag)
    }

    func dismiss() { bag.unsubscribe() }
}

enum ComposerApp: CorpusProgram {
    static let sourcePath = #filePath

    static func run(buggy: Bool) {
        BindTrace.scope("composer screen") {
            let screen = ComposerScreen(capturesStrongly: buggy)
            screen.show()
            screen.viewModel.typed.update(withValue: "on my way")
            screen.viewModel.sendTapped.fire()
            screen.dismiss()
        }
    }
}
