import Bind
import BindAnalysis
import Foundation
import Testing

@testable import BindTesting

@Suite("the .bindingLeakCheck trait, in the instrumented build", .enabled(if: BindTrace.isEnabled))
struct BindingLeakCheckTraitTests {
    @Test("a planted leak is reported at the line that bound it")
    func plantedLeakIsReportedAtItsBindLine() async throws {
        // Given a body that binds a long-lived Output and forgets the subscription
        let found = try await issues(of: .bindingLeakCheck) { bindAndForget(to: NameLabel()) }

        // Then one issue is recorded, at the bind
        let issue = try #require(found.count == 1 ? found.first : nil, "issues: \(found.map(\.text))")
        #expect(issue.text.hasPrefix("leaked-subscription: "))
        #expect(issue.text.contains("'profile name' (String)"))
        #expect(!issue.text.contains("BindTesting/"), "no site inside BindTesting itself is shown")
        #expect(issue.sourceLocation?.fileID == "BindTestingTests/Fixtures.swift")
        #expect(issue.sourceLocation?.line == Int(plantedLeakLine))
        #expect(issue.sourceLocation?.filePath.hasSuffix("Tests/BindTestingTests/Fixtures.swift") == true)
        #expect(issue.severity == .error)
    }

    @Test("the README's example: configure, prepareForReuse, configure passes when the cell empties its bag in deinit")
    func readmeExamplePasses() async throws {
        _ = readmeRows
        let found = try await issues(of: .bindingLeakCheck) {
            let cell = ReadmeMessageCell(emptiesBagInDeinit: true)
            cell.configure(with: readmeRows.first)
            cell.prepareForReuse()
            cell.configure(with: readmeRows.second)
        }
        #expect(found.isEmpty, "issues: \(found.map(\.text))")
    }

    @Test("the README's cell without its deinit: released with its binding still in the bag, said so at the bind")
    func readmeExampleWithoutDeinit() async throws {
        _ = readmeRows
        let found = try await issues(of: .bindingLeakCheck) {
            let cell = ReadmeMessageCell(emptiesBagInDeinit: false)
            cell.configure(with: readmeRows.first)
            cell.prepareForReuse()
            cell.configure(with: readmeRows.second)
        }
        let issue = try #require(found.count == 1 ? found.first : nil, "issues: \(found.map(\.text))")
        #expect(issue.text.hasPrefix("leaked-subscription: "))
        #expect(issue.text.contains("was released with 1 subscription still bound; empty the container in `deinit`"))
        #expect(issue.sourceLocation?.line == Int(ReadmeMessageCell(emptiesBagInDeinit: true).configureLine))
    }

    @Test("the scope of a checked test begins at the test's own line, not inside BindTesting")
    func scopeBeginsAtTheTest() async throws {
        // Given a checked test that leaks,
        let found = try await issues(of: .bindingLeakCheck) { bindAndForget(to: NameLabel()) }
        // then the finding's "scope begins here" note points at this test.
        let issue = try #require(found.first)
        let test = try #require(Test.current)
        #expect(
            issue.text.contains("\(test.sourceLocation.fileID):\(test.sourceLocation.line): scope 'test "),
            "\(issue.text)")
    }

    @Test("a helper that forwards its caller's sourceLocation to withBindingLeakCheck begins the scope there")
    func forwardedSourceLocation() async throws {
        func checked(sourceLocation: SourceLocation = #_sourceLocation, _ body: () -> Void) async throws {
            try await withBindingLeakCheck(sourceLocation: sourceLocation) { body() }
        }
        var callerLine = 0
        let found = try await issues(recordedBy: {
            callerLine = #line; try await checked { bindAndForget(to: NameLabel()) }
        })
        let issue = try #require(found.first, "the leak is reported")
        #expect(issue.sourceLocation?.line == Int(plantedLeakLine))
        #expect(
            issue.text.contains("BindTestingTests/BindingLeakCheckTraitTests.swift:\(callerLine): scope "),
            "\(issue.text)")
    }

    @Test("the fixed twin, which unsubscribes, passes")
    func fixedTwinPasses() async throws {
        let found = try await issues(of: .bindingLeakCheck) { bindAndUnsubscribe(to: NameLabel()) }
        #expect(found.isEmpty, "issues: \(found.map(\.text))")
    }

    @Test("accepted findings are not reported, by site with or without a line")
    func acceptedFindingsAreNotReported() async throws {
        let byLine = AcceptedFinding(
            kind: .leakedSubscription, site: "BindTestingTests/Fixtures.swift:\(plantedLeakLine)")
        let byFile = AcceptedFinding(kind: .leakedSubscription, site: "BindTestingTests/Fixtures.swift")
        for accepted in [byLine, byFile] {
            let found = try await issues(of: .bindingLeakCheck(accepting: [accepted])) {
                bindAndForget(to: NameLabel())
            }
            #expect(found.isEmpty, "\(accepted) should accept: \(found.map(\.text))")
        }
    }

    @Test("an accepted finding of another kind or line still lets the leak through")
    func acceptingSomethingElseStillReports() async throws {
        let otherLine = AcceptedFinding(kind: .leakedSubscription, site: "BindTestingTests/Fixtures.swift:1")
        let otherKind = AcceptedFinding(kind: .leakedOutput, site: "BindTestingTests/Fixtures.swift")
        let found = try await issues(of: .bindingLeakCheck(accepting: [otherLine, otherKind])) {
            bindAndForget(to: NameLabel())
        }
        #expect(found.count == 1)
    }

    @Test("binding one target twice from one line is a duplicate binding")
    func duplicateBindingIsReported() async throws {
        let found = try await issues(of: .bindingLeakCheck) { bindTwice(to: NameLabel()) }
        let issue = try #require(found.first)
        #expect(found.count == 1)
        #expect(issue.text.hasPrefix("duplicate-binding:"))
        #expect(issue.sourceLocation?.line == Int(duplicateLine))
    }

    @Test("a leak after an await is still the test's own")
    func leakAfterAwaitIsReported() async throws {
        let found = try await issues(of: .bindingLeakCheck) {
            try await Task.sleep(for: .milliseconds(5))
            bindAndForget(to: NameLabel())
        }
        #expect(found.map(\.sourceLocation?.line) == [Int(plantedLeakLine)])
    }

    @Test("a leak made by a task the test starts, on another thread, is the test's own")
    func leakInStartedTaskIsReported() async throws {
        let found = try await issues(of: .bindingLeakCheck) {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<3 { group.addTask { bindAndForget(to: NameLabel()) } }
            }
            await Task { bindAndForget(to: NameLabel()) }.value
        }
        #expect(found.map(\.sourceLocation?.line) == [Int(plantedLeakLine)], "issues: \(found.map(\.text))")
        #expect(found.first?.text.contains("4 times from this line") == true)
    }

    @Test("a leak made on a DispatchQueue and on a Thread, with work wrapped by inheritingScope, is the test's own")
    func leakOnQueueAndThreadIsReported() async throws {
        let found = try await issues(of: .bindingLeakCheck) {
            let group = DispatchGroup()
            group.enter()
            DispatchQueue.global().async(
                execute: BindTrace.inheritingScope {
                    bindAndForget(to: NameLabel())
                    group.leave()
                })
            group.enter()
            let thread = Thread(
                block: BindTrace.inheritingScope {
                    bindAndForget(to: NameLabel())
                    group.leave()
                })
            thread.start()
            group.wait()
        }
        #expect(found.map(\.sourceLocation?.line) == [Int(plantedLeakLine)], "issues: \(found.map(\.text))")
        #expect(found.first?.text.contains("2 times from this line") == true, "\(found.map(\.text))")
    }

    @Test(
        "a leak made in a callback that takes an argument (a Timer's), an OperationQueue block and a detached task, each carrying the test's scope, is the test's own"
    )
    func leakInCallbackQueueAndDetachedTaskIsReported() async throws {
        let found = try await issues(of: .bindingLeakCheck) {
            // A callback with an argument, called on another thread, as a Timer calls its block.
            let group = DispatchGroup()
            group.enter()
            let tick = BindTrace.inheritingScope { (_: Int) in
                bindAndForget(to: NameLabel())
                group.leave()
            }
            Thread { tick(1) }.start()
            let queue = OperationQueue()
            group.enter()
            queue.addOperation(
                BindTrace.inheritingScope {
                    bindAndForget(to: NameLabel())
                    group.leave()
                })
            let scope = BindTrace.currentScopeToken
            await Task.detached { await BindTrace.withScope(scope) { () async in bindAndForget(to: NameLabel()) } }
                .value
            group.wait()
        }
        #expect(found.map(\.sourceLocation?.line) == [Int(plantedLeakLine)], "issues: \(found.map(\.text))")
        #expect(found.first?.text.contains("3 times from this line") == true, "\(found.map(\.text))")
    }

    @Test("an Output created in the test and kept alive by a closure bound to it is a retain cycle")
    func leakedOutputIsReported() async throws {
        let found = try await issues(of: .bindingLeakCheck) {
            let count = Output<Int>(value: 1)
            Keeper.shared.keep(count.bind { _ in _ = count })
        }
        let issue = try #require(found.first)
        #expect(found.count == 1)
        #expect(issue.text.hasPrefix("retain-cycle:"))
        #expect(issue.sourceLocation?.fileID == "BindTestingTests/BindingLeakCheckTraitTests.swift")
    }

    @Test(
        "a screen whose closure or method reference captures it strongly, the Subscription dropped, is a retain cycle",
        arguments: [
            (DroppedHandleScreen.Capture.strongSelf, DroppedHandleScreen.strongSelfLine),
            (.methodReference, DroppedHandleScreen.methodReferenceLine),
        ])
    func droppedHandleRetainCycle(capture: DroppedHandleScreen.Capture, line: UInt) async throws {
        // Given a screen made in the test that binds its own Output without keeping the Subscription
        let found = try await issues(of: .bindingLeakCheck) { _ = DroppedHandleScreen(capture) }

        // Then the screen outliving the test is one retain cycle, at the bind
        let issue = try #require(found.count == 1 ? found.first : nil, "issues: \(found.map(\.text))")
        #expect(issue.text.hasPrefix("retain-cycle:"))
        #expect(issue.sourceLocation?.fileID == "BindTestingTests/Fixtures.swift")
        #expect(issue.sourceLocation?.line == Int(line))
    }

    @Test("the twin: the same screen binding with [weak self] is released with the test, nothing reported")
    func droppedHandleWeakSelfPasses() async throws {
        let found = try await issues(of: .bindingLeakCheck) { _ = DroppedHandleScreen(.weakSelf) }
        #expect(found.isEmpty, "issues: \(found.map(\.text))")
    }

    @Test("an Output created in the test and only stored elsewhere is not judged: it may be long-lived by design")
    func storedOutputIsNotJudged() async throws {
        let found = try await issues(of: .bindingLeakCheck) { Keeper.shared.keep(Output<Int>(value: 1)) }
        #expect(found.isEmpty, "issues: \(found.map(\.text))")
    }

    @Test("errors thrown by the test body reach the test")
    func bodyErrorsPropagate() async {
        struct Expected: Error {}
        await #expect(throws: Expected.self) {
            try await BindingLeakCheckTrait().provideScope(for: Test.current!, testCase: Test.Case.current) {
                throw Expected()
            }
        }
    }

    @Test("a test body that throws after a planted leak still reports the leak, then its error reaches the test")
    func throwingBodyReportsItsLeak() async throws {
        struct Expected: Error {}
        // Given a test body that leaks and then fails (as `try #require` does)
        // When the trait runs it
        let (found, error) = try await issuesAndError(of: BindingLeakCheckTrait()) {
            bindAndForget(to: NameLabel())
            throw Expected()
        }
        // Then the leak is reported at its bind line, and the body's own error is what the test sees
        #expect(found.map(\.sourceLocation?.line) == [Int(plantedLeakLine)], "issues: \(found.map(\.text))")
        #expect(error is Expected)
    }

    @Test("withBindingLeakCheck whose body throws after a planted leak reports the leak and rethrows the error")
    func throwingCheckedPartReportsItsLeak() async throws {
        struct Expected: Error {}
        let caught = ErrorBox()
        let found = try await issues {
            do {
                try await withBindingLeakCheck {
                    bindAndForget(to: NameLabel())
                    throw Expected()
                }
            } catch {
                caught.error = error
            }
        }
        #expect(found.map(\.sourceLocation?.line) == [Int(plantedLeakLine)], "issues: \(found.map(\.text))")
        #expect(found.first?.text.hasPrefix("leaked-subscription:") == true)
        #expect(caught.error is Expected)
    }

    @Test("a withBindingLeakCheck nested in another reports its leak once, not again from the enclosing check")
    func nestedCheckReportsOnce() async throws {
        // Given a leak made inside a check that is itself inside a check
        // When both end
        let found = try await issues {
            try await withBindingLeakCheck {
                try await withBindingLeakCheck { bindAndForget(to: NameLabel()) }
            }
        }
        // Then one issue, at the bind line
        #expect(found.map(\.sourceLocation?.line) == [Int(plantedLeakLine)], "issues: \(found.map(\.text))")
    }

    @Test("a withBindingLeakCheck inside a test under the trait reports its leak once")
    func checkInsideTraitReportsOnce() async throws {
        let found = try await issues(of: BindingLeakCheckTrait()) {
            try await withBindingLeakCheck { bindAndForget(to: NameLabel()) }
        }
        #expect(found.map(\.sourceLocation?.line) == [Int(plantedLeakLine)], "issues: \(found.map(\.text))")
    }

    @Test("the enclosing check still reports its own leaks beside a nested check's")
    func enclosingCheckKeepsItsOwnLeaks() async throws {
        let found = try await issues {
            try await withBindingLeakCheck {
                try await withBindingLeakCheck { bindAndForget(to: NameLabel()) }
                bindTwice(to: NameLabel())
            }
        }
        let lines = found.compactMap(\.sourceLocation?.line).sorted()
        #expect(lines == [Int(plantedLeakLine), Int(duplicateLine)].sorted(), "issues: \(found.map(\.text))")
    }

    @Test("a finding the nested check accepts is not reported by the enclosing check either")
    func acceptedByNestedCheckStaysAccepted() async throws {
        let accepted = AcceptedFinding(kind: .leakedSubscription, site: "BindTestingTests/Fixtures.swift")
        let found = try await issues {
            try await withBindingLeakCheck {
                try await withBindingLeakCheck(accepting: [accepted]) { bindAndForget(to: NameLabel()) }
            }
        }
        #expect(found.isEmpty, "issues: \(found.map(\.text))")
    }

    @Test("a test that binds nothing long-lived passes under the trait itself", .bindingLeakCheck)
    func passesUnderTheTrait() {
        let local = Output<String>(value: "x")
        let label = NameLabel()
        local.bind(to: label.binding[\.text])
        #expect(label.text == "x")
    }

    @Test("withBindingLeakCheck takes a body that captures non-Sendable values (Swift 6 mode)")
    func nonSendableCapture() async throws {
        let label = NameLabel()  // a non-Sendable class, as a test's view or view model is
        let title = Output<String>(value: "x")
        try await withBindingLeakCheck {
            let subscription = title.bind(to: label.binding[\.text])
            label.text += "!"
            subscription.unsubscribe()
        }
        #expect(label.text == "x!")
    }

    @Test("withBindingLeakCheck checks part of a test")
    func partOfATest() async throws {
        _ = sharedProfile
        try await withKnownIssue {
            try await withBindingLeakCheck { bindAndForget(to: NameLabel()) }
        } matching: { issue in
            issue.sourceLocation?.line == Int(plantedLeakLine)
        }
    }
}

/// Keeps whatever it is given for the rest of the process.
final class Keeper: @unchecked Sendable {
    static let shared = Keeper()
    private var kept: [AnyObject] = []
    func keep(_ object: AnyObject) { kept.append(object) }
}

@Suite("the leak checks in a build without the Tracing trait", .enabled(if: !BindTrace.isEnabled))
struct UntracedLeakCheckTests {
    @Test("untraced: .warn warns that it checked nothing, and the body still runs")
    func traitWarns() async throws {
        let ran = Flag()
        let found = try await issues(of: .bindingLeakCheck(untraced: .warn)) { ran.set() }
        let issue = try #require(found.first)
        #expect(found.count == 1)
        #expect(issue.severity == .warning)
        #expect(issue.text.contains("checked nothing"))
        #expect(ran.isSet)
    }

    @Test("by default the trait fails in CI and warns elsewhere, as this process's environment says")
    func traitDefault() async throws {
        let found = try await issues(of: .bindingLeakCheck) {}
        let fails = UntracedBuildPolicy.automatic.decision.fails
        #expect(found.map(\.severity) == [fails ? .error : .warning])
        #expect(found.first?.text == UntracedBuildPolicy.automatic.decision.message)
    }

    @Test("untraced: .fail makes it an error")
    func traitFailsWhenAsked() async throws {
        let found = try await issues(of: .bindingLeakCheck(untraced: .fail)) {}
        #expect(found.map(\.severity) == [.error])
    }
}

final class Flag: @unchecked Sendable {
    private(set) var isSet = false
    func set() { isSet = true }
}
