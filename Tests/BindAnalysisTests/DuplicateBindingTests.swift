#if Tracing
import Bind
import BindAnalysis
import Testing

@Suite("duplicate-binding")
struct DuplicateBindingTests {
    @Test("a reused cell that never unsubscribes is a duplicate binding")
    func reusedCell() throws {
        let title = Output<String>(value: "Ada")
        let label = Label()
        var bindLine: UInt = 0

        let recording = BindTrace.capture {
            for _ in 0..<3 {
                BindTrace.scope("configure cell") {
                    bindLine = #line; _ = title.bind(to: label.binding[\.text])
                }
            }
        }

        let result = try analyze(recording)
        #expect(kindsAndLines(result) == ["duplicate-binding@\(bindLine)"])
        #expect(result.findings.first?.message.contains("3 times") == true)
        #expect(result.findings.first?.subscriptions.count == 3)
    }

    @Test("a reused cell that unsubscribes before binding again is not a duplicate")
    func reusedCellUnsubscribing() throws {
        let title = Output<String>(value: "Ada")
        let label = Label()

        let recording = BindTrace.capture {
            let bag = SubscriptionContainer()
            for _ in 0..<3 {
                bag.unsubscribe()  // prepareForReuse
                BindTrace.scope("configure cell") {
                    title.bind(to: label.binding[\.text]).add(to: bag)
                }
            }
            bag.unsubscribe()
        }

        #expect(try analyze(recording).findings.isEmpty)
    }

    @Test("two different cells bound from the same line are not duplicates")
    func differentTargets() throws {
        let title = Output<String>(value: "Ada")
        let labels = [Label(), Label()]

        let recording = BindTrace.capture {
            let bag = SubscriptionContainer()
            for label in labels {
                title.bind(to: label.binding[\.text]).add(to: bag)
            }
            bag.unsubscribe()
        }

        #expect(try analyze(recording).findings.isEmpty)
    }
}
#endif
