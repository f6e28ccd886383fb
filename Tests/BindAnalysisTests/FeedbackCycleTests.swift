import Bind
import BindAnalysis
import BindTraceTestSupport
import Foundation
import Testing

@Suite("feedback-cycle", .requiresTracing)
struct FeedbackCycleTests {
    @Test("a two-way binding stopped by ignoringDuplicates is still a feedback cycle")
    func twoWayBinding() throws {
        var firstLine: UInt = 0
        var secondLine: UInt = 0

        let recording = BindTrace.capture {
            let name = Output<String>(value: "Ada").labeled("name")
            let field = Output<String>(value: "Ada").labeled("field")
            let bag = SubscriptionContainer()
            firstLine = #line; name.ignoringDuplicates().bind { field.update(withValue: $0) }.add(to: bag)
            secondLine = #line; field.ignoringDuplicates().bind { name.update(withValue: $0) }.add(to: bag)
            for value in ["Grace", "Linus", "Grace"] { name.update(withValue: value) }
            field.update(withValue: "Barbara")
            bag.unsubscribe()
        }

        let result = try analyze(recording)
        #expect(kindsAndLines(result) == ["feedback-cycle@\(firstLine)"])
        let finding = try #require(result.findings.first)
        #expect(finding.related.contains { $0.site.line == secondLine && $0.note.contains("bound here") })
        #expect(finding.message.contains("'field' (String)"))
        #expect(finding.message.contains("depth 2"))
        #expect(finding.outputs.count == 4)
    }

    @Test("a closure that updates its own Output is a feedback cycle of one subscription")
    func selfUpdate() throws {
        var bindLine: UInt = 0

        let recording = BindTrace.capture {
            let text = Output<String>(value: "")
            bindLine = #line + 1
            let subscription = text.bind { if $0.count > 3 { text.update(withValue: String($0.prefix(3))) } }
            text.update(withValue: "Grace")
            subscription.unsubscribe()
        }

        let result = try analyze(recording)
        #expect(kindsAndLines(result) == ["feedback-cycle@\(bindLine)"])
        #expect(result.findings.first?.message.contains("1 subscription") == true)
    }

    @Test("a chain without a loop is not a feedback cycle")
    func chain() throws {
        let recording = BindTrace.capture {
            let first = Output<Int>(value: 0)
            let second = Output<Int>(value: 0)
            let bag = SubscriptionContainer()
            first.bind { second.update(withValue: $0 + 1) }.add(to: bag)
            second.map { $0 * 2 }.bind { _ in }.add(to: bag)
            for value in 1...3 { first.update(withValue: value) }
            bag.unsubscribe()
        }

        #expect(try analyze(recording).findings.isEmpty)
    }

    @Test("concurrent updates from two threads are not a feedback cycle")
    func concurrentUpdates() throws {
        // Made outside the capture: the threads may hold them for a moment after it ends.
        let shared = Output<Int>(value: 0)
        let total = Output<Int>(value: 0)
        let recording = BindTrace.capture {
            let bothInside = DispatchGroup()
            bothInside.enter()
            bothInside.enter()
            // Each closure waits until the other thread's update of `shared` is open too.
            let subscription = shared.bind { value in
                guard value > 0 else { return }
                bothInside.leave()
                _ = bothInside.wait(timeout: .now() + 2)
                total.update(withValue: value)
            }
            let done = DispatchGroup()
            for value in 1...2 {
                done.enter()
                Thread.detachNewThread {
                    shared.update(withValue: value)
                    done.leave()
                }
            }
            done.wait()
            subscription.unsubscribe()
        }

        let result = try analyze(recording)
        #expect(result.findings.isEmpty, "\(result.findings.map(\.compilerStyle))")
    }
}
