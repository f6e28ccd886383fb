#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// What a leak check does in a build without the `Tracing` trait, where it cannot see anything.
///
/// A check that checked nothing must never look green where nobody reads warnings: `swift test
/// --parallel` prints only failures, and a CI log is read only when it fails. So by default
/// (``automatic``) it fails in CI and warns elsewhere. The environment decides last:
/// `BIND_LEAK_CHECK_REQUIRE_TRACING=1` makes every check fail, `BIND_LEAK_CHECK_REQUIRE_TRACING=0`
/// makes ``automatic`` warn even in CI (a CI job that runs the plain build on purpose).
public enum UntracedBuildPolicy: Sendable, Hashable {
    /// Fail in a CI job — when the environment variable `CI` is set (GitHub Actions, GitLab CI,
    /// Buildkite, CircleCI and most others set it) to anything but `0` or `false` — and warn
    /// elsewhere. The default.
    case automatic
    /// Record a warning saying nothing was checked; the test still passes.
    case warn
    /// Fail the test: it was meant to check for leaks and could not.
    case fail

    /// Whether a check with this policy fails in this process, and the reason the message gives.
    var decision: UntracedDecision { decision(environment: { getenv($0).map { String(cString: $0) } }) }

    /// ``decision`` with the environment variables read through `environment`.
    func decision(environment: (String) -> String?) -> UntracedDecision {
        switch environment("BIND_LEAK_CHECK_REQUIRE_TRACING")?.lowercased() {
        case "1", "true", "yes": return .fail(because: "BIND_LEAK_CHECK_REQUIRE_TRACING=1 is set", optOut: nil)
        case "0", "false", "no": if self != .fail { return .warn }
        default: break
        }
        switch self {
        case .warn: return .warn
        case .fail: return .fail(because: "the check asks for `untraced: .fail`", optOut: nil)
        case .automatic:
            // CI services set CI to `true`, `1` or a name of their own.
            guard let ci = environment("CI")?.lowercased(), !["", "0", "false", "no"].contains(ci) else {
                return .warnOutsideCI
            }
            return .fail(
                because: "the environment variable CI is set (a CI job)",
                optOut:
                    "to let an untraced CI job pass, pass `untraced: .warn` or set BIND_LEAK_CHECK_REQUIRE_TRACING=0")
        }
    }
}

/// What an untraced check does here: warn, or fail with the reason and the way out.
enum UntracedDecision: Equatable {
    /// Warn: the policy says so, or the environment opts out.
    case warn
    /// Warn, as ``UntracedBuildPolicy/automatic`` does outside CI (the message says it fails there).
    case warnOutsideCI
    case fail(because: String, optOut: String?)

    var fails: Bool {
        if case .fail = self { true } else { false }
    }

    /// The whole message: that nothing was checked, how to trace, and why it fails when it does.
    var message: String {
        switch self {
        case .warn:
            return LeakCheck.untracedMessage
        case .warnOutsideCI:
            return LeakCheck.untracedMessage
                + " (It fails instead in CI, where the environment variable CI is set, or with `untraced: .fail`.)"
        case .fail(let reason, let optOut):
            return LeakCheck.untracedMessage + " It fails because \(reason)" + (optOut.map { "; \($0)." } ?? ".")
        }
    }
}
