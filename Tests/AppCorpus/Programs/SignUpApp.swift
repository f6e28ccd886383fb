import Bind

// A sign-up form: the submit button is enabled when the email "has an @" and "is long enough".
// Planted bug: both checks are derived from the same `email` Output and combined again, a diamond.
// Each keystroke reaches "can submit" twice in one update: first with one fresh check and one stale
// (a glitch: "abc@" enables the button for a moment with the old length check), then with both.
// Clean twin: one map computes both checks from the email, so each keystroke delivers once.

final class SignUpViewModel {
    let email = Output<String>(value: "").labeled("email")
    let canSubmit: Output<Bool>

    init(diamond: Bool) {
        if diamond {
            let hasAt = email.map { $0.contains("@") }.labeled("has @")
            let longEnough = email.map { $0.count >= 6 }.labeled("long enough")
            canSubmit = Output.combine(hasAt, longEnough).map { $0 && $1 }.labeled("can submit")  // expect: glitch
        } else {
            canSubmit = email.map { $0.contains("@") && $0.count >= 6 }.labeled("can submit")
        }
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
            let screen = SignUpScreen(viewModel: SignUpViewModel(diamond: buggy))
            screen.show()
            for text in ["a", "ab", "ab@", "ab@c", "ab@cd", "ab@cde"] { screen.emailField.type(text) }
            screen.close()
        }
    }
}
