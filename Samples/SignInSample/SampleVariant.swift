#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which version of the app runs, for `bind-trace diff` (`make demo` records both):
/// `SIGNIN_VARIANT=pull-request` is a pull request on the sample that fixes the sign-in screen's
/// feedback cycle and adds an update storm to the inbox search (every keystroke re-sends every
/// message title); anything else, or nothing, is the sample as it is.
enum SampleVariant: Equatable {
    case base
    case pullRequest

    static let current: SampleVariant = {
        guard let value = getenv("SIGNIN_VARIANT") else { return .base }
        return String(cString: value) == "pull-request" ? .pullRequest : .base
    }()
}
