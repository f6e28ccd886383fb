#if Tracing
import Bind
@_spi(Harness) import BindAnalysis
@_spi(Harness) import BindTraceModel
import Foundation
import Testing

/// Causes past the depth where Bind defers cascade steps (docs/hardening.md: 128 nested steps per
/// thread): every recorded cause is the update that delivered, and the trace reads as consistent.
@Suite("causes of deferred steps")
struct DeferredCauseTests {
    /// The shape of issue 39 (Benchmarks' `TraceWorkload … deep` at a smaller size): a chain of maps
    /// from `root`, every fourth Output a combine (mapped to one value) of the chain's newest Output
    /// and one from the middle of a spine of maps that also starts at `root`. Each root update runs
    /// the chain `count * 3 / 4` steps deep, past the deferral depth, and fans out at every combine.
    /// Holding `root` keeps them all alive (sources hold what is derived from them).
    static func fanOut(from root: Output<Int>, outputs count: Int) {
        var spine = [root]
        var chain = root
        for index in 1..<count {
            if index % 4 == 0 {
                chain = Output.combine(chain, spine[spine.count / 2]).map { $0.0 &+ $0.1 }
            } else if index % 4 == 2 {
                spine.append(spine[spine.count - 1].map { $0 &+ 1 })
            } else {
                chain = chain.map { $0 &+ 1 }
            }
        }
        chain.bind { _ in }
    }

    @Test("fan-out and combines past the deferral depth, one thread: no inconsistency, every cause delivered")
    func oneThread() throws {
        let recording = BindTrace.capture("deferred causes") {
            let root = Output<Int>(value: 0)
            Self.fanOut(from: root, outputs: 600)
            for value in 1...3 { root.update(withValue: value) }
        }
        let result = try analyze(recording)
        #expect(result.traceErrors == [])
        let events = try #require(recording).events()
        try expectCausesDelivered(events, minimumDepth: 200)
        // Without its `resumed` events (as a reader of 1.3 sees it, or the recorder wrote it before
        // 1.4), the same trace names causes whose frames closed long before: inconsistent.
        let withoutResumed = events.filter { if case .resumed = $0.kind { false } else { true } }
        #expect(withoutResumed.count < events.count, "steps were deferred")
        #expect(!TraceAnalyzer.analyze(events: withoutResumed).traceErrors.isEmpty)
    }

    @Test("fan-out and combines past the deferral depth on four threads at once: the same")
    func fourThreads() throws {
        let recording = BindTrace.capture("deferred causes, four threads") {
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                let root = Output<Int>(value: 0)
                Self.fanOut(from: root, outputs: 400)
                for value in 1...3 { root.update(withValue: value) }
            }
        }
        let result = try analyze(recording)
        #expect(result.traceErrors == [])
        try expectCausesDelivered(try #require(recording).events(), minimumDepth: 150)
    }

    /// Each update caused by a subscription's delivery names an update, fire or bind of the Output
    /// that subscription is bound to; each such delivery to an operator's subscription causes at
    /// most one update (a map's exactly one); and the deepest cause chain is past `minimumDepth`.
    func expectCausesDelivered(_ events: [TraceEvent], minimumDepth: Int) throws {
        var outputOfSubscription: [UInt64: UInt64] = [:]
        var bindOfSubscription: [UInt64: UInt64] = [:]
        var updatedOutput: [UInt64: UInt64] = [:]
        var depth: [UInt64: Int] = [:]
        var causedUpdates: [TraceCause: Int] = [:]
        var deepest = 0
        var wrong = 0
        for event in events {
            switch event.kind {
            case .bound(let binding):
                outputOfSubscription[binding.subscription] = binding.output
                bindOfSubscription[binding.subscription] = event.sequence
            case .updated(let output, let cause, _), .fired(let output, let cause, _):
                updatedOutput[event.sequence] = output
                guard let cause else {
                    depth[event.sequence] = 0
                    continue
                }
                let source = outputOfSubscription[cause.subscription]
                let delivered =
                    updatedOutput[cause.event] == source || bindOfSubscription[cause.subscription] == cause.event
                if !delivered || source == nil { wrong += 1 }
                causedUpdates[cause, default: 0] += 1
                let level = (depth[cause.event] ?? 0) + 1
                depth[event.sequence] = level
                deepest = max(deepest, level)
            default:
                break
            }
        }
        #expect(wrong == 0, "updates whose cause is not a delivery of their source")
        #expect(causedUpdates.values.allSatisfy { $0 == 1 }, "each delivery to an operator causes one update")
        #expect(deepest >= minimumDepth, "the propagation ran past the deferral depth")
    }
}
#endif
