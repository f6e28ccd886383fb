import Bind
import BindAnalysis
import BindTraceTestSupport
import Testing

@Suite("leaked-subscription", .requiresTracing)
struct LeakedSubscriptionTests {
    @Test("a closure bound in a scope to a long-lived Output and never unbound is a leaked subscription")
    func boundAndForgotten() throws {
        let title = Output<String>(value: "Ada")
        var bindLine: UInt = 0

        let recording = BindTrace.capture {
            BindTrace.scope("screen") {
                bindLine = #line; _ = title.bind { _ in }
            }
        }

        let result = try analyze(recording)
        #expect(kindsAndLines(result) == ["leaked-subscription@\(bindLine)"])
        let finding = try #require(result.findings.first)
        #expect(finding.message.contains("scope 'screen'"))
        #expect(finding.site?.file == "BindAnalysisTests/LeakedSubscriptionTests.swift")
    }

    @Test("a subscription unbound through a container is not a leak")
    func unboundThroughContainer() throws {
        let title = Output<String>(value: "Ada")

        let recording = BindTrace.capture {
            let bag = SubscriptionContainer()
            BindTrace.scope("screen") {
                title.bind { _ in }.add(to: bag)
            }
            bag.unsubscribe()
        }

        #expect(try analyze(recording).findings.isEmpty)
    }

    @Test("a cell's current Binder binding, kept for its next reuse, is not a leak when its scope ends")
    func binderKeptForNextReuse() throws {
        let title = Output<String>(value: "Ada")
        let label = Label()
        let bag = SubscriptionContainer()

        let recording = BindTrace.capture {
            BindTrace.scope("cell 0 for row 20") {
                title.bind(to: label.binding[\.text]).add(to: bag)
            }
        }

        #expect(try analyze(recording).findings.isEmpty)
        bag.unsubscribe()
    }

    @Test("subscriptions left by a loop are one finding with a count")
    func sameLineOnce() throws {
        let title = Output<String>(value: "Ada")
        var bindLine: UInt = 0

        let recording = BindTrace.capture {
            for _ in 0..<3 {
                BindTrace.scope("cell") {
                    bindLine = #line; _ = title.bind { _ in }
                }
            }
        }

        let result = try analyze(recording)
        #expect(kindsAndLines(result) == ["leaked-subscription@\(bindLine)"])
        #expect(result.findings.first?.message.contains("3 times") == true)
    }

    @Test("at exit, a binding a run without scopes left and dropped is reported")
    func atExit() throws {
        let title = Output<String>(value: "Ada")
        var bindLine: UInt = 0

        let recording = BindTrace.capture {
            bindLine = #line; _ = title.bind { _ in }
        }

        let result = try analyze(recording, atExit: true)
        #expect(kindsAndLines(result) == ["leaked-subscription@\(bindLine)"])
    }
}
