import Bind

/// The sign-in screen: binds its views to a ``SignInViewModel``.
final class SignInScreen {
    let emailField = TextField(name: "email")
    let passwordField = TextField(name: "password")
    let signInButton = Button(title: "Sign in")
    let statusLabel = Label()
    private let bag = SubscriptionContainer()
    private let viewModel: SignInViewModel

    init(viewModel: SignInViewModel) {
        self.viewModel = viewModel
    }

    func show() {
        let viewModel = viewModel
        // View → view model.
        emailField.text.bind { viewModel.email.update(withValue: $0) }.add(to: bag)
        passwordField.text.bind { viewModel.password.update(withValue: $0) }.add(to: bag)
        signInButton.tapped.bind { viewModel.signInTapped.fire() }.add(to: bag)
        // View model → view.
        viewModel.isValid.bind(to: signInButton.binding[\.isEnabled]).add(to: bag)
        viewModel.canSubmit.bind(to: signInButton.binding[\.isHighlighted]).add(to: bag)
        viewModel.status.bind(to: statusLabel.binding[\.text]).add(to: bag)

        // BUG (feedback-cycle): the normalised email is written back into the field it came
        // from. Typing updates the field, which updates `email`, whose normalised value updates
        // the field again while its first update is still propagating; only
        // `ignoringDuplicates` in the view model stops the loop on the second round.
        let field = emailField
        if SampleVariant.current == .pullRequest {
            // FIXED in the pull-request variant: the normalised email is shown beside the field, never
            // written back into the Output it came from.
            viewModel.normalizedEmail.bind(to: emailHint.binding[\.text]).add(to: bag)
        } else {
            viewModel.normalizedEmail.bind { normalized in
                if field.text.value != normalized { field.text.update(withValue: normalized) }
            }.add(to: bag)
        }
    }

    func dismiss() {
        bag.unsubscribe()
    }

    /// Shows the normalised email under the field (the pull-request variant's fix).
    let emailHint = Label()
}
