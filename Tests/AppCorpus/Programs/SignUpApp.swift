import Bind

// A sign-up form: the submit button is enabled when the email "has an @" and "is long enough".
// Both checks are derived from the same `email` Output and combined again: a diamond, in both runs.
// Each check passes on only a change (`ignoringDuplicates()`), so an edit reaches "can submit" once
// per check it flips.
// Planted bug: the user pastes a whole address, which flips both checks in one update: "can submit"
// is reached by both paths in one propagation, first with one fresh check and one stale (a glitch:
// the button shows a state no email had), then with both.
// Clean twin: the same graph, typed one character at a time: each keystroke flips at most one check,
// so the two paths never meet in one propagation.

final class SignUpViewModel {
    let email = Output<String>(value: "").labeled("email")
    let canSubmit: Output<Bool>

    init() {
        let hasAt = email.map { $0.contains("@") }.ignoringDuplicates().labeled("has @")
        let longEnough = email.map { $0.count >= 6 }.ignoringDuplicates().labeled("long enough")
        canSubmit = Output.combine(hasAt, longEnough).map { $0 && $1 }.labeled("can submit")  // expect: glitch
    }
}

final class SignUpScreen {
    let viewModel: SignUpViewModel
    let emailField = TextField(name: "email")
    let submitButton = Toggle()
    /// Every state the button went through: a glitch shows as a flicker here.
    private(set) var buttonStates: [Bool] = []
    private let bag = SubscriptionContainer()

    init(viewModel: SignUpViewModel) { self.viewModel = viewModel }

    func show() {
        emailField.text.bind { [viewModel] in viewModel.email.update(withValue: $0) }.add(to: bag)
        viewModel.canSubmit.bind { [weak self] in
            self?.submitButton.isOn = $0
            self?.buttonStates.append($0)
        }.add(to: bag)
    }

    func close() { bag.unsubscribe() }
}

enum SignUpApp: CorpusProgram {
    static let sourcePath = #filePath

    static func run(buggy: Bool) {
        BindTrace.scope("sign-up screen") {
            let screen = SignUpScreen(viewModel: SignUpViewModel())
            screen.show()
            // "ab@" flips "has @" alone, "ab@cde" flips "long enough" alone; a paste flips both.
            let edits = buggy ? ["ab@cde"] : ["a", "ab", "ab@", "ab@c", "ab@cd", "ab@cde"]
            for text in edits { screen.emailField.type(text) }
            screen.close()
        }
    }
}
