import Bind

/// What the sign-in request is doing.
enum SessionState: Equatable, CustomStringConvertible {
    case signedOut
    case signingIn(email: String)
    case signedIn(user: String)
    case failed(reason: String)

    var description: String {
        switch self {
        case .signedOut: "signed out"
        case .signingIn(let email): "signing in \(email)…"
        case .signedIn(let user): "signed in as \(user)"
        case .failed(let reason): "failed: \(reason)"
        }
    }
}

/// A fake authentication service: each request is an Output that settles on its result.
final class AuthService {
    func signIn(email: String, password: String) -> Output<SessionState> {
        let request = Output<SessionState>(value: .signingIn(email: email)).labeled("sign-in request")
        // Settles at once: a real service would update it from a network callback.
        if password == "correct horse" {
            request.update(withValue: .signedIn(user: String(email.prefix { $0 != "@" })))
        } else {
            request.update(withValue: .failed(reason: "wrong password"))
        }
        return request
    }
}

/// The sign-in form's state: inputs, validation and the session.
final class SignInViewModel {
    /// What the user typed, as the view model sees it.
    let email = Output<String>(value: "").labeled("email")
    let password = Output<String>(value: "").labeled("password")
    /// The email as it should be shown: trimmed and lowercased, each distinct value once.
    let normalizedEmail: Output<String>
    let isValid: Output<Bool>
    /// Whether the email looks complete: two checks of the one email, combined again.
    let canSubmit: Output<Bool>
    /// Taps on the sign-in button.
    let signInTapped = Relay<Void>()
    /// The latest request's state: each tap starts a new request and forgets the previous one.
    let session: Output<SessionState>
    /// Status line: validation hints merged with session changes.
    let status: Output<String>

    init(auth: AuthService) {
        signInTapped.labeled("sign-in tapped")
        normalizedEmail = email.map { $0.trimmingWhitespace().lowercased() }.ignoringDuplicates()
            .labeled("normalized email")
        isValid = Output.combine(normalizedEmail, password)
            .map { email, password in email.contains("@") && email.contains(".") && password.count >= 8 }
            .ignoringDuplicates()
            .labeled("isValid")
        // BUG (glitch): two checks derived from the same email and combined again, a diamond. Each
        // keystroke reaches the combine twice in one update: first with the "@" check fresh and the
        // "." check stale, a value that was never true of any email typed. One map that checks both
        // delivers once.
        let hasAt = normalizedEmail.map { $0.contains("@") }.labeled("email has @")
        let hasDot = normalizedEmail.map { $0.contains(".") }.labeled("email has a dot")
        canSubmit = Output.combine(hasAt, hasDot).map { $0 && $1 }.labeled("can submit")
        let credentials = Output.combine(normalizedEmail, password).labeled("credentials")
        session =
            signInTapped
            .map { credentials.value ?? ("", "") }
            .flatMap { email, password in auth.signIn(email: email, password: password) }
            .labeled("session")
        let hints = isValid.filter { !$0 }.map { _ in "enter an email and a password of 8+ characters" }
        let sessionText = session.map { $0.description }
        status = Output.merge(hints, sessionText).ignoringDuplicates().labeled("status")
    }
}

extension String {
    func trimmingWhitespace() -> String {
        let characters = Array(self)
        guard let first = characters.firstIndex(where: { !$0.isWhitespace }),
            let last = characters.lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(characters[first...last])
    }
}
