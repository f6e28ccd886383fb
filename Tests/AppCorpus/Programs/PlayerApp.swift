import Bind

// A music player: an app-wide theme, a player screen and its view model, dismissed after playing.
// The screen empties its bag when it goes.
// Planted bug: the screen binds one of its own methods to its view model's Output. A method
// reference captures `self` strongly: screen → view model → Output → closure → screen.

final class Theme: Sendable {
    let accent = Output<String>(value: "blue").labeled("accent colour")
}

final class PlayerViewModel {
    let title = Output<String>(value: "").labeled("track title")
    let elapsed = Output<Int>(value: 0).labeled("elapsed seconds")
    let isPlaying = Output<Bool>(value: false).labeled("is playing")

    func play(_ track: String) {
        title.update(withValue: track)
        isPlaying.update(withValue: true)
        for second in 1...3 { elapsed.update(withValue: second) }
    }
}

final class PlayerScreen {
    let viewModel = PlayerViewModel()
    let titleLabel = Label()
    let elapsedLabel = Label()
    let playToggle = Toggle()
    private(set) var accent = ""
    private let bag = SubscriptionContainer()

    func show(theme: Theme, bindsMethod: Bool) {
        theme.accent.bind { [weak self] in self?.accent = $0 }.add(to: bag)
        viewModel.title.bind(to: titleLabel.binding[\.text]).add(to: bag)
        viewModel.isPlaying.bind(to: playToggle.binding[\.isOn]).add(to: bag)
        if bindsMethod {
            viewModel.elapsed.bind(showElapsed).add(to: bag)  // expect: retain-cycle
        } else {
            viewModel.elapsed.bind { [weak self] in self?.showElapsed($0) }.add(to: bag)
        }
    }

    deinit { bag.unsubscribe() }

    func showElapsed(_ seconds: Int) { elapsedLabel.text = "0:0\(seconds)" }
}

enum PlayerApp: CorpusProgram {
    static let sourcePath = #filePath

    static func run(buggy: Bool) {
        let theme = Theme()
        AppLifetime.shared.keep(theme)
        BindTrace.scope("player screen") {
            let screen = PlayerScreen()
            screen.show(theme: theme, bindsMethod: buggy)
            screen.viewModel.play("Blue in Green")
        }
        theme.accent.update(withValue: "green")
    }
}
