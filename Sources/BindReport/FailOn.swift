import BindAnalysis

/// Which findings make `bind-trace` (or a CI step) fail: the `--fail-on` option.
///
/// ```swift
/// if FailOn.error.fails(findings) { exit(1) }   // any finding of severity error
/// ```
public enum FailOn: String, CaseIterable, Sendable {
    /// Fail on any finding of severity warning or error (a note never fails).
    case warning
    /// Fail only on findings of severity error (cycles).
    case error
    /// Never fail because of findings.
    case none

    /// Whether `findings` should fail the run.
    public func fails(_ findings: [Finding]) -> Bool {
        switch self {
        case .warning: findings.contains { $0.severity >= .warning }
        case .error: findings.contains { $0.severity == .error }
        case .none: false
        }
    }

    /// The findings that make the run fail.
    public func failing(_ findings: [Finding]) -> [Finding] {
        switch self {
        case .warning: findings.filter { $0.severity >= .warning }
        case .error: findings.filter { $0.severity == .error }
        case .none: []
        }
    }

    /// The process exit status for `findings`: 1 when they fail the run, otherwise 0.
    package func exitStatus(for findings: [Finding]) -> Int32 {
        fails(findings) ? 1 : 0
    }
}
