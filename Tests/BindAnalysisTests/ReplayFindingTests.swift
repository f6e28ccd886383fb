import Bind
@_spi(Harness) import BindAnalysis
@_spi(Harness) import BindTraceModel
import Testing

@Suite("Replay: findings on hand-built traces")
struct ReplayFindingTests {
    @Test("a flatMap switching to an Output downstream of itself is a structural cycle")
    func structuralCycle() {
        var trace = TraceBuilder()
        trace.output(1, line: 1)
        trace.output(2, .flatMap, line: 2)
        trace.edge(1, 2, .flatMap)
        trace.output(3, .map, line: 3)
        trace.edge(2, 3)
        trace.add(.innerSwitch(flatMap: 2, inner: 3))
        let findings = TraceAnalyzer.analyze(events: trace.events).findings
        #expect(findings.map(\.kind) == [.structuralCycle])
        #expect(findings.first?.site == TraceBuilder.site(2))
        #expect(findings.first?.related.map(\.site) == [TraceBuilder.site(3)])
    }

    @Test("a loop run many times, entered from either end, is one feedback cycle with its deepest depth")
    func feedbackOnce() {
        var trace = TraceBuilder()
        trace.output(1, line: 1, label: "a")
        trace.output(2, line: 2, label: "b")
        trace.bind(1, to: 1, line: 10)  // a → b
        trace.bind(2, to: 2, line: 20)  // b → a
        for entry in [UInt64(1), 2, 1] {
            let first = trace.update(entry)
            let other = entry == 1 ? UInt64(2) : 1
            let second = trace.update(other, cause: TraceCause(subscription: entry, event: first))
            let third = trace.update(entry, cause: TraceCause(subscription: other, event: second))
            if entry == 2 {
                let fourth = trace.update(other, cause: TraceCause(subscription: entry, event: third))
                trace.update(entry, cause: TraceCause(subscription: other, event: fourth))
            }
        }
        let findings = TraceAnalyzer.analyze(events: trace.events).findings
        #expect(findings.map(\.kind) == [.feedbackCycle])
        let finding = findings[0]
        #expect(finding.site == TraceBuilder.site(10))
        #expect(finding.related.map(\.site.line) == [2, 20, 1])
        #expect(finding.message.contains("depth 3"))
        #expect(finding.message.hasPrefix("'b' (Int) is updated again"))
    }

    @Test("an update of the same Output on another thread, interleaved, is not a feedback cycle")
    func interleavedThreads() {
        var trace = TraceBuilder()
        trace.output(1)
        trace.output(2)
        trace.bind(1, to: 1)
        let onFirst = trace.update(1)
        trace.thread = 2
        let onSecond = trace.update(1)
        trace.thread = 1
        trace.update(2, cause: TraceCause(subscription: 1, event: onFirst))
        trace.thread = 2
        trace.update(2, cause: TraceCause(subscription: 1, event: onSecond))
        let result = TraceAnalyzer.analyze(events: trace.events)
        #expect(result.findings.isEmpty)
        #expect(result.traceErrors.isEmpty)
    }

    @Test("a new target at the address of a dead one is not a duplicate binding")
    func reusedAddress() {
        var trace = TraceBuilder()
        let target = BinderTarget(type: "Label", identity: 0xA0)
        trace.output(1)
        trace.bind(1, to: 1, line: 7, target: target)  // the first label, then it dies without unbinding
        trace.bind(2, to: 1, line: 7, target: target)  // a new label at the same address
        trace.update(1)
        trace.add(.dangling(subscription: 1))  // the first one's target is gone, the second's is not
        let findings = TraceAnalyzer.analyze(events: trace.events).findings
        #expect(findings.map(\.kind) == [.danglingBinder])
    }

    @Test("the same target bound twice, both delivered to, is a duplicate binding")
    func sameTargetTwice() {
        var trace = TraceBuilder()
        let target = BinderTarget(type: "Label", identity: 0xA0)
        trace.output(1)
        trace.bind(1, to: 1, line: 7, target: target)
        trace.bind(2, to: 1, line: 7, target: target)
        trace.update(1)
        let findings = TraceAnalyzer.analyze(events: trace.events).findings
        #expect(findings.map(\.kind) == [.duplicateBinding])
        #expect(findings.first?.subscriptions == [1, 2])
    }

    @Test("findings come sorted by site")
    func sortedBySite() {
        var trace = TraceBuilder()
        trace.output(9, line: 90)
        trace.beginScope(1)
        for (id, line) in [(3, 30), (1, 10), (2, 20)] as [(UInt64, UInt)] {
            trace.output(id, .map, line: line, scope: 1)
            trace.edge(9, id, .map)
        }
        trace.endScope(1)
        let lines = TraceAnalyzer.analyze(events: trace.events).findings.map { $0.site?.line }
        #expect(lines == [10, 20, 30])
    }
}
