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

/// Runs `body` the way the trait runs a test, returning the issues it recorded and the error that
/// left `provideScope` (the body's, when the trait rethrows it).
func issuesAndError(
    of trait: BindingLeakCheckTrait, _ body: @escaping @Sendable () async throws -> Void
) async throws -> (issues: [Issue], error: (any Error)?) {
    let caught = ErrorBox()
    let found = try await issues(recordedBy: {
        do {
            try await trait.provideScope(for: Test.current!, testCase: Test.Case.current, performing: body)
        } catch {
            caught.error = error
        }
    })
    return (found, caught.error)
}

/// Issues recorded by `body`, which runs inside a Swift Testing test without failing it.
func issues(recordedBy body: () async throws -> Void) async throws -> [Issue] {
    _ = sharedProfile
    let log = IssueLog()
    try await withKnownIssue(isIntermittent: true) {
        try await body()
    } matching: { issue in
        log.append(issue)
        return true
    }
    return log.issues
}

final class ErrorBox: @unchecked Sendable {
    var error: (any Error)?
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
