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

    @Test("a new target allocated at a released target's address is not the same target")
    func reusedAddress() throws {
        let title = Output<String>(value: "Ada")
        var addresses: [ObjectIdentifier] = []

        // Bind a fresh label each time and let it go without unbinding (leaked, but not twice to
        // one target): the allocator hands the next label the same address, most of the time.
        let recording = BindTrace.capture {
            for _ in 0..<4 {
                let label = Label()
                addresses.append(ObjectIdentifier(label))
                title.bind(to: label.binding[\.text])
            }
        }

        // glibc's malloc reuses the address (sanitizer allocators quarantine it, and then the
        // targets simply differ): either way, no two of these bindings share a live target.
        #expect(try analyze(recording).findings.filter { $0.kind == .duplicateBinding }.isEmpty)
    }
}
#endif
