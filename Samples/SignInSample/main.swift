import Bind

// A headless MVVM app: a sign-in form, then an inbox of reusable cells. Run it with
// `BIND_TRACE=signin.trace` in the instrumented build (`--traits Tracing`) to record a trace, then
// `bind-trace report signin.trace`. It has deliberate bugs for bind-trace to find: the sign-in
// screen's email field feeds back into itself (feedback-cycle), its "can submit" combines two checks
// of the one email (glitch: `bind-trace why signin.trace --label 'can submit'`), and the inbox's cells
// are reused without unbinding (duplicate-binding) and build a map on a long-lived Output in each
// configuration (leaked-output). The fixed inbox shows the same screen done right: nothing reported.
// `SIGNIN_VARIANT=pull-request` runs a pull request on it (SampleVariant.swift) for `bind-trace diff`.

func log(_ line: String) { print(line) }

let auth = AuthService()
let signIn = SignInViewModel(auth: auth)

BindTrace.scope("sign-in screen") {
    let screen = SignInScreen(viewModel: signIn)
    screen.show()
    log("sign-in: button enabled = \(screen.signInButton.isEnabled); status: \(screen.statusLabel.text)")

    BindTrace.mark("user types an email")
    screen.emailField.type("  Ada@Example.COM ")
    log("sign-in: field shows \"\(screen.emailField.text.value ?? "")\" (normalised)")

    BindTrace.mark("user types a short password")
    screen.passwordField.type("short")
    log("sign-in: button enabled = \(screen.signInButton.isEnabled); status: \(screen.statusLabel.text)")

    BindTrace.mark("user types a wrong password and taps")
    screen.passwordField.type("wrong password")
    screen.signInButton.tap()
    log("sign-in: status: \(screen.statusLabel.text)")

    BindTrace.mark("user types the right password and taps")
    screen.passwordField.type("correct horse")
    screen.signInButton.tap()
    log("sign-in: status: \(screen.statusLabel.text)")
    screen.dismiss()
}

let messages = [
    ("Welcome to Bind", "team"), ("Your trace is ready", "ci"), ("Lunch?", "grace"),
    ("Re: cycles", "alan"), ("Release notes", "team"),
].enumerated().map { index, message in
    MessageViewModel(title: message.0, sender: message.1, isUnread: index % 2 == 0)
}

BindTrace.scope("inbox screen") {
    let inbox = InboxScreen(messages: messages, unbindsOnReuse: false)
    inbox.reloadData()
    BindTrace.mark("pull to refresh")
    inbox.reloadData()
    messages[0].title.update(withValue: "Welcome to Bind (edited)")
    let cell = inbox.table.dequeueCell(for: 0).cell
    log(
        "inbox: cell \(cell.number) shows \"\(cell.titleLabel.text)\" \(cell.detailLabel.text) — rows 0 and 3 both write to it"
    )
    inbox.close()
}

BindTrace.scope("inbox screen, fixed") {
    let inbox = InboxScreen(messages: messages, unbindsOnReuse: true)
    inbox.reloadData()
    inbox.reloadData()
    let cell = inbox.table.dequeueCell(for: 0).cell
    log(
        "inbox (fixed): cell \(cell.number) shows \"\(cell.titleLabel.text)\" with \(cell.bag.count) bindings"
            + " after \(inbox.reloadCount.value ?? 0) reloads")
    inbox.close()
}

BindTrace.scope("inbox search") {
    let search = InboxSearch(messages: messages, rehighlightsOnEveryKeystroke: SampleVariant.current == .pullRequest)
    BindTrace.mark("user searches the inbox")
    search.type("release notes from the team")
    log("search: \(search.matchCount.value ?? 0) of \(messages.count) messages match")
    search.close()
}

log(BindTrace.isEnabled ? "done (trace recorded when BIND_TRACE is set)" : "done (build without tracing)")
