@_spi(Harness) import BindAnalysis
@_spi(Harness) import BindTraceModel
import Testing

/// A Binder target is known by its address, which the allocator gives to the next object. A screen
/// opened again without emptying its bag must read as that screen's leak, wherever its new label lands.
@Suite("Binder targets at a reused address")
struct AddressReuseTests {
    static let label = BinderTarget(type: "Label", identity: 0x7000)

    /// Screens, each in its own scope, bind a label (at one address) to `outputs[i]` into their own
    /// bag and are released without emptying it. Before each bind to the same Output as the last, the
    /// recorder notes that the earlier label is gone; `updateBeforeNote`: an update of that Output
    /// came just before (its frame is still open on the thread when the note comes).
    static func trace(outputs: [UInt64], updateBeforeNote: Bool = false) -> TraceBuilder {
        var trace = TraceBuilder()
        for output in Set(outputs).sorted() { trace.output(output, line: 1, label: "user \(output)") }
        for (index, output) in outputs.enumerated() {
            let scope = UInt64(index + 1)
            let subscription = UInt64(100 + index)
            if updateBeforeNote { trace.update(output) }
            trace.beginScope(scope, name: "details \(index)")
            if index > 0, outputs[index - 1] == output { trace.add(.dangling(subscription: subscription - 1)) }
            trace.bind(subscription, to: output, line: 11, target: label, scope: scope)
            trace.add(.subscriptionContained(subscription: subscription, container: 500 + scope))
            trace.endScope(scope)
            // The screen goes: its bag goes without unbinding, its label with it.
            trace.add(.handleReleased(subscription: subscription))
        }
        return trace
    }

    static func findings(_ trace: TraceBuilder) -> [Finding] {
        let result = TraceAnalyzer.analyze(events: trace.events)
        #expect(result.traceErrors == [])
        return result.findings
    }

    @Test("one Output: the note that the old label is gone is not a delivery; three leaked subscriptions")
    func sameOutput() {
        let findings = Self.findings(Self.trace(outputs: [1, 1, 1]))
        #expect(findings.map(\.kind) == [.leakedSubscription])
        #expect(findings.first?.site?.line == 11)
        #expect(findings.first?.message.contains("3 times") == true, "\(findings.map(\.message))")
    }

    @Test("one Output updated just before each note: still a note, not a delivery")
    func sameOutputAfterUpdate() {
        let findings = Self.findings(Self.trace(outputs: [1, 1, 1], updateBeforeNote: true))
        #expect(findings.map(\.kind) == [.leakedSubscription])
        #expect(findings.first?.message.contains("3 times") == true, "\(findings.map(\.message))")
    }

    @Test("each screen its own Output: not one label bound to several Outputs at once")
    func differentOutputs() {
        let findings = Self.findings(Self.trace(outputs: [1, 2, 3]))
        #expect(!findings.contains { $0.kind == .duplicateBinding }, "\(findings.map(\.message))")
        #expect(!findings.contains { $0.kind == .danglingBinder })
        #expect(findings.map(\.kind).allSatisfy { $0 == .leakedSubscription } && !findings.isEmpty)
    }

    @Test("a real delivery to the gone label is still dangling")
    func deliveryStillDangling() {
        var trace = Self.trace(outputs: [1])
        trace.update(1)
        trace.add(.dangling(subscription: 100))
        let findings = Self.findings(trace)
        #expect(findings.contains { $0.kind == .danglingBinder && $0.site?.line == 11 })
    }
}
