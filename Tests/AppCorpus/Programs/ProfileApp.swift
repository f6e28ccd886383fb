import Bind

// MVVM: a profile screen and its view model, an edit screen pushed on top, both dismissed.
// Planted bug: the profile screen binds a closure that captures `self` strongly to its own view
// model's Output: screen → view model → Output → closure → screen, a retain cycle.

final class ProfileViewModel {
    let name = Output<String>(value: "Ada").labeled("profile name")
    let followers = Output<Int>(value: 10).labeled("followers")
    let isFollowing = Output<Bool>(value: false).labeled("is following")
    let bio: Output<String>

    init() {
        bio = name.map { "\($0) writes code" }
    }

    func follow() {
        isFollowing.update(withValue: true)
        followers.update(withValue: (followers.value ?? 0) + 1)
    }
}

final class ProfileScreen {
    let viewModel = ProfileViewModel()
    let nameLabel = Label()
    let bioLabel = Label()
    let followToggle = Toggle()
    private(set) var shownFollowers = 0
    private let bag = SubscriptionContainer()

    func show(capturesSelf: Bool) {
        viewModel.name.bind(to: nameLabel.binding[\.text]).add(to: bag)
        viewModel.bio.bind(to: bioLabel.binding[\.text]).add(to: bag)
        viewModel.isFollowing.bind(to: followToggle.binding[\.isOn]).add(to: bag)
        if capturesSelf {
            viewModel.followers.bind { self.shownFollowers = $0 }.add(to: bag)  // expect: retain-cycle
        } else {
            viewModel.followers.bind { [weak self] in self?.shownFollowers = $0 }.add(to: bag)
        }
    }
}

final class EditNameScreen {
    let field = TextField(name: "name")
    private var subscription: Subscription?

    func show(editing viewModel: ProfileViewModel) {
        subscription = field.text.bind { [weak viewModel] in viewModel?.name.update(withValue: $0) }
    }

    func dismiss() { subscription?.unsubscribe() }
}

enum ProfileApp: CorpusProgram {
    static let sourcePath = #filePath

    static func run(buggy: Bool) {
        BindTrace.scope("profile screen") {
            let screen = ProfileScreen()
            screen.show(capturesSelf: buggy)
            screen.viewModel.follow()
            BindTrace.scope("edit name") {
                let edit = EditNameScreen()
                edit.show(editing: screen.viewModel)
                edit.field.type("Grace")
                edit.dismiss()
            }
        }
    }
}
