import Bind

// A sign-in form: an app-wide session, a form screen that owns its field view models and binds its
// own Output to a field's method (`password.bind(passwordField.validate)`): the screen owns the
// Output, the closure holds the field, and the field holds nothing back, so all of it goes with the
// screen. The email field's message is derived and bound to its label.
// Planted bug: the password field keeps a strong reference to its form (to ask it to submit):
// form → password Output → closure → field → form.
// (The trace cannot see captures: with two closures bound to the form's Outputs, the finding would
// name the first bound and list the other; docs/analysis.md, "the culprit line".)

final class Session: Sendable {
    let user = Output<String>(value: "").labeled("signed-in user")
}

final class EmailField {
    let label = Label()
    static func message(_ text: String) -> String { text.contains("@") ? "" : "not an email" }
}

final class PasswordField {
    let label = Label()
    var form: FormScreen?
    func validate(_ text: String) {
        label.text = text.count < 8 ? "too short" : ""
        if text.count >= 8 { form?.submit() }
    }
}

final class FormScreen {
    let email = Output<String>(value: "").labeled("email text")
    let password = Output<String>(value: "").labeled("password text")
    let emailField = EmailField()
    let passwordField = PasswordField()
    let greeting = Label()
    private let bag = SubscriptionContainer()

    init(session: Session, fieldKeepsForm: Bool) {
        email.map(EmailField.message).bind(to: emailField.label.binding[\.text])
        if fieldKeepsForm {
            passwordField.form = self
            password.bind(passwordField.validate)  // expect: retain-cycle
        } else {
            password.bind(passwordField.validate)
        }
        session.user.bind { [weak self] in self?.greeting.text = "Hello \($0)" }.add(to: bag)
    }

    func submit() {}

    deinit { bag.unsubscribe() }
}

enum FormApp: CorpusProgram {
    static let sourcePath = #filePath

    static func run(buggy: Bool) {
        let session = Session()
        AppLifetime.shared.keep(session)
        BindTrace.scope("sign-in form") {
            let form = FormScreen(session: session, fieldKeepsForm: buggy)
            form.email.update(withValue: "ada@example.com")
            form.password.update(withValue: "correct horse")
        }
        session.user.update(withValue: "ada")
    }
}
