/// Which findings make `bind-trace` (or a CI step) fail: the `--fail-on` option.
///
/// ```swift
/// if FailOn.error.fails(findings) { exit(1) }   // any finding of severity error
/// ```
package enum FailOn: String, CaseIterable, Sendable {
    /// Fail on any finding, notes (`redundant-update`) included.
    case note
    /// Fail on any warning or error (not on notes).
    case warning
    /// Fail only on findings of severity error (cycles).
    case error
    /// Never fail because of findings.
    case none

    /// Whether `findings` should fail the run.
    package func fails(_ findings: [Finding]) -> Bool {
        switch self {
        case .note: !findings.isEmpty
        case .warning: findings.contains { $0.severity >= .warning }
        case .error: findings.contains { $0.severity == .error }
        case .none: false
        }
    }

    /// The findings that make the run fail.
    package func failing(_ findings: [Finding]) -> [Finding] {
        switch self {
        case .note: findings
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
