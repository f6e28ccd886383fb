import Bind
@_spi(Harness) import BindAnalysis
@_spi(Harness) import BindTraceModel
import Testing

@Suite("Replay: inconsistent traces are trace errors, not crashes")
struct ReplayTraceErrorTests {
    /// Replays `trace` and returns its errors.
    private func errors(_ trace: TraceBuilder) -> [TraceError] {
        TraceAnalyzer.analyze(events: trace.events).traceErrors
    }

    @Test("an unbind of a subscription the trace never bound")
    func unknownSubscription() {
        var trace = TraceBuilder()
        let unbind = trace.unbind(7)
        let found = errors(trace)
        #expect(found.map(\.kind) == [.unknownSubscription])
        #expect(found.first?.offset == Int(unbind) * 100)
        #expect(found.first?.sequence == unbind)
    }

    @Test("an unbind of a subscription already unbound")
    func unboundTwice() {
        var trace = TraceBuilder()
        trace.output(1)
        trace.bind(1, to: 1)
        trace.unbind(1)
        trace.unbind(1)
        #expect(errors(trace).map(\.kind) == [.unknownSubscription])
        #expect(errors(trace).first?.message.contains("already unbound") == true)
    }

    @Test("an update of an Output after its release")
    func releasedOutput() {
        var trace = TraceBuilder()
        trace.output(1)
        trace.release(1)
        trace.update(1)
        #expect(errors(trace).map(\.kind) == [.releasedOutput])
    }

    @Test("an update of an Output the trace never created")
    func unknownOutput() {
        var trace = TraceBuilder()
        trace.update(9)
        #expect(errors(trace).map(\.kind) == [.unknownOutput])
    }

    @Test("an Output id created twice, while alive or after its release")
    func reusedOutputID() {
        var trace = TraceBuilder()
        trace.output(1)
        trace.output(1)
        trace.release(1)
        trace.output(1)
        #expect(errors(trace).map(\.kind) == [.reusedOutputID, .reusedOutputID])
    }

    @Test("a subscription id bound twice")
    func reusedSubscriptionID() {
        var trace = TraceBuilder()
        trace.output(1)
        trace.bind(1, to: 1)
        trace.bind(1, to: 1)
        trace.unbind(1)
        trace.bind(1, to: 1)
        #expect(errors(trace).map(\.kind) == [.reusedSubscriptionID, .reusedSubscriptionID])
    }

    @Test("a scope id begun twice")
    func reusedScopeID() {
        var trace = TraceBuilder()
        trace.beginScope(1)
        trace.beginScope(1)
        #expect(errors(trace).map(\.kind) == [.reusedScopeID])
    }

    @Test("a cause that is not an update still running on the same thread")
    func causeNotOpen() {
        var trace = TraceBuilder()
        trace.output(1)
        trace.output(2)
        trace.bind(1, to: 1)
        let update = trace.update(1)
        trace.thread = 2
        trace.update(2, cause: TraceCause(subscription: 1, event: update))  // on another thread
        trace.thread = 1
        trace.update(2)  // no cause: the update of 1 is over
        trace.update(2, cause: TraceCause(subscription: 1, event: update))
        #expect(errors(trace).map(\.kind) == [.causeNotOpen, .causeNotOpen])
    }

    @Test("an Output released while subscriptions were still recorded as bound")
    func releasedWhileBound() {
        var trace = TraceBuilder()
        trace.output(1)
        trace.bind(1, to: 1)
        trace.release(1)
        trace.unbind(1)
        #expect(errors(trace).map(\.kind) == [.releasedWhileBound, .unknownSubscription])
    }

    @Test("announcing again what a capture joining a file recording already knows is not an error")
    func reannouncement() {
        var trace = TraceBuilder()
        trace.output(1)
        trace.bind(1, to: 1)
        trace.output(1, label: "count", preexisting: true)
        trace.bind(1, to: 1, preexisting: true)
        let result = TraceAnalyzer.analyze(events: trace.events)
        #expect(result.traceErrors.isEmpty)
        #expect(result.state.output(1)?.label == "count")
    }

    @Test("the unbinds of a released Output carry no cause and do not end the update running")
    func releaseInsideDelivery() {
        var trace = TraceBuilder()
        trace.output(1)
        trace.output(2)
        trace.output(3)
        trace.bind(1, to: 1)
        trace.bind(2, to: 2)
        let update = trace.update(1)
        trace.unbind(2, reason: .outputReleased)
        trace.release(2)
        trace.update(3, cause: TraceCause(subscription: 1, event: update))
        #expect(errors(trace).isEmpty)
    }
}
