import Bind
import Testing

/// The README's five-minute tour, as written there (printing replaced by a log), so it keeps compiling
/// and doing what the README says.
@Suite("The README tour")
struct ReadmeTourTests {
    final class Label: BindableCompatible { var text = "" }

    final class SignInViewModel {
        let email = Output<String>(value: "")
        let password = Output<String>(value: "")
        let submit = Relay<Void>()
        lazy var canSubmit = Output.combine(email, password)
            .map { email, password in email.contains("@") && password.count >= 8 }
            .ignoringDuplicates()
    }

    @Test("the sign-in form enables submitting once both fields are valid")
    func tour() {
        var log: [String] = []
        let viewModel = SignInViewModel()
        let status = Label()
        let bag = SubscriptionContainer()

        viewModel.canSubmit.map { $0 ? "Ready" : "Fill in the form" }
            .bind(to: status.binding[\.text])
            .add(to: bag)
        viewModel.submit.bind { log.append("signing in") }.add(to: bag)
        #expect(status.text == "Fill in the form")

        viewModel.email.update(withValue: "ada@example.com")
        viewModel.password.update(withValue: "correct horse")
        viewModel.submit.fire()
        #expect(status.text == "Ready")
        #expect(log == ["signing in"])

        bag.unsubscribe()
        viewModel.submit.fire()
        viewModel.password.update(withValue: "short")
        #expect(log == ["signing in"])
        #expect(status.text == "Ready")
    }
}
