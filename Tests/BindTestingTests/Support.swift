import Foundation
import Testing

@testable import BindTesting

/// Runs `body` the way the trait runs a test and returns the issues it recorded, without
/// letting them fail the test that asks.
func issues(
    of trait: BindingLeakCheckTrait, _ body: @escaping @Sendable () async throws -> Void
) async throws -> [Issue] {
    _ = sharedProfile
    let log = IssueLog()
    try await withKnownIssue(isIntermittent: true) {
        try await trait.provideScope(for: Test.current!, testCase: Test.Case.current, performing: body)
    } matching: { issue in
        log.append(issue)
        return true
    }
    return log.issues
}

final class IssueLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Issue] = []

    func append(_ issue: Issue) { lock.withLock { stored.append(issue) } }
    var issues: [Issue] { lock.withLock { stored } }
}

extension Issue {
    var text: String { comments.map(\.rawValue).joined(separator: "\n") }
}
