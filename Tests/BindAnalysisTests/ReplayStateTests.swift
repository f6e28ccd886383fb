import Bind
@_spi(Harness) import BindTraceModel
import Testing

@_spi(Harness) @testable import BindAnalysis

@Suite("Replay: the graph at every moment")
struct ReplayStateTests {
    /// Replays `trace` event by event: the replay, and each event's nesting depth.
    private static func replayed(_ trace: TraceBuilder) -> (Replay, [UInt64: Int]) {
        let replay = Replay()
        var depths: [UInt64: Int] = [:]
        for event in trace.events {
            replay.apply(event)
            depths[event.sequence] = replay.lastDepth
        }
        return (replay, depths)
    }

    @Test("creations, edges, binds and updates build the state; unbinds and releases take it down")
    func buildsAndTearsDown() {
        var trace = TraceBuilder()
        trace.output(1, label: "count")
        trace.output(2, .map, line: 5)
        trace.edge(1, 2)
        trace.bind(1, to: 1, line: 5, isInternal: true)
        trace.bind(2, to: 2, line: 7, target: BinderTarget(type: "Label", identity: 42))
        trace.update(1, preview: "3")
        let middle = trace.update(2, cause: TraceCause(subscription: 1, event: 6), preview: "6")
        let replay = Replay()
        for event in trace.events { replay.apply(event) }

        let state = replay.snapshot()
        #expect(state.sequence == middle)
        #expect(state.outputs.map(\.id) == [1, 2])
        #expect(state.output(1)?.label == "count")
        #expect(state.output(1)?.updateCount == 1)
        #expect(state.output(2)?.lastPreview == "6")
        #expect(state.output(2)?.site == TraceBuilder.site(5))
        #expect(state.edges == [EdgeState(source: 1, derived: 2, operation: .map, role: .operator)])
        #expect(state.subscriptions.map(\.id) == [1, 2])
        #expect(state.subscriptions[0].isInternal)
        #expect(state.subscriptions[1].target == BinderTarget(type: "Label", identity: 42))

        trace.unbind(2)
        trace.unbind(1, reason: .outputReleased)
        trace.release(1)
        trace.release(2)
        for event in trace.events.dropFirst(Int(middle)) { replay.apply(event) }
        let after = replay.snapshot()
        #expect(after.outputs.isEmpty && after.subscriptions.isEmpty && after.edges.isEmpty)
        #expect(replay.errors.isEmpty)
    }

    @Test("an event is nested under the update whose subscription caused it")
    func nesting() {
        var trace = TraceBuilder()
        trace.output(1)
        trace.output(2)
        trace.output(3)
        trace.bind(1, to: 1)
        trace.bind(2, to: 2)
        let top = trace.update(1)
        let child = trace.update(2, cause: TraceCause(subscription: 1, event: top))
        let grandchild = trace.update(3, cause: TraceCause(subscription: 2, event: child))
        let sibling = trace.update(3, cause: TraceCause(subscription: 1, event: top))
        let next = trace.update(1)
        let (replay, depths) = Self.replayed(trace)
        #expect([depths[top], depths[child], depths[grandchild], depths[sibling], depths[next]] == [0, 1, 2, 1, 0])
        #expect(replay.errors.isEmpty)
    }

    @Test(
        "each thread nests on its own, whatever its number: a hostile one costs one stack",
        arguments: [UInt32(2), 255, 256, 0xE000_0000, .max])
    func threadsNestApart(other: UInt32) {
        var trace = TraceBuilder()
        trace.output(1)
        trace.output(2)
        trace.bind(1, to: 1)
        let outer = trace.update(1)
        trace.thread = other
        let elsewhere = trace.update(2)
        trace.thread = 1
        let inner = trace.update(2, cause: TraceCause(subscription: 1, event: outer))
        trace.thread = other
        let after = trace.update(2)
        let (replay, depths) = Self.replayed(trace)
        #expect([depths[outer], depths[elsewhere], depths[inner], depths[after]] == [0, 0, 1, 0])
        #expect(replay.errors.isEmpty)
        #expect(replay.stacks.mapValues(\.count) == [1: 2, other: 1])
        #expect(TraceAnalyzer.analyze(events: trace.events).summary.threads == 2)
    }
    @Test(
        "forty threads interleaved, each with its frames open while more threads arrive",
        arguments: [UInt32(1), 1000])  // numbers from the direct table, and from the dictionary
    func manyThreads(spacing: UInt32) {
        var trace = TraceBuilder()
        trace.output(1)
        trace.output(2)
        trace.bind(1, to: 1)
        let threads = UInt32(1)...40
        var tops: [UInt32: UInt64] = [:]
        for thread in threads {
            trace.thread = thread * spacing
            tops[thread] = trace.update(1)
        }
        var nested: [UInt64] = []
        for thread in threads.reversed() {
            trace.thread = thread * spacing
            nested.append(trace.update(2, cause: TraceCause(subscription: 1, event: tops[thread]!)))
        }
        let (replay, depths) = Self.replayed(trace)
        #expect(replay.errors.isEmpty)
        #expect(nested.allSatisfy { depths[$0] == 1 })
        #expect(replay.stacks.count == (spacing == 1 ? 40 : 41))  // and thread 1, which bound
        #expect(
            threads.allSatisfy { replay.stacks[$0 * spacing]?.map(\.sequence) == [tops[$0]!, nested[40 - Int($0)]] })
    }

    @Test("a flatMap's inner edges tell the current inner from past ones")
    func flatMapInners() {
        var trace = TraceBuilder()
        trace.output(1)
        trace.output(2, .flatMap)
        trace.edge(1, 2, .flatMap)
        trace.output(3)
        trace.add(.innerSwitch(flatMap: 2, inner: 3))
        trace.output(4)
        trace.add(.innerSwitch(flatMap: 2, inner: 4))
        let state = TraceAnalyzer.analyze(events: trace.events).state
        #expect(
            state.edges == [
                EdgeState(source: 1, derived: 2, operation: .flatMap, role: .operator),
                EdgeState(source: 3, derived: 2, operation: .flatMap, role: .pastInner),
                EdgeState(source: 4, derived: 2, operation: .flatMap, role: .currentInner),
            ])
    }

    @Test("the state can be taken at one moment of the trace")
    func stateAt() {
        var trace = TraceBuilder()
        trace.output(1)
        let moment = trace.output(2)
        trace.release(1)
        let result = TraceAnalyzer.analyze(events: trace.events, options: AnalysisOptions(stateAt: moment))
        #expect(result.state.sequence == moment)
        #expect(result.state.outputs.map(\.id) == [1, 2])
    }

    @Test("released Outputs stay in the state, flagged, only when asked")
    func keepsReleased() {
        var trace = TraceBuilder()
        trace.output(1)
        trace.update(1)
        let release = trace.release(1)
        #expect(TraceAnalyzer.analyze(events: trace.events).state.outputs.isEmpty)
        let kept = TraceAnalyzer.analyze(events: trace.events, options: AnalysisOptions(keepsReleasedOutputs: true))
        #expect(kept.state.outputs.map(\.isReleased) == [true])
        #expect(kept.state.outputs.first?.releasedAt == release)
        #expect(kept.state.outputs.first?.updateCount == 1)
    }

    @Test("memory follows what is alive: fifty thousand short-lived Outputs leave nothing behind")
    func memoryIsFlat() {
        let replay = Replay()
        var sequence: UInt64 = 0
        func apply(_ kind: TraceEvent.Kind) {
            sequence += 1
            replay.apply(TraceEvent(sequence: sequence, time: sequence, thread: 1, offset: 0, kind: kind))
        }
        let site = SourceSite(file: "App/A.swift", line: 1)
        for id in UInt64(1)...50_000 {
            apply(.outputCreated(TraceEvent.OutputCreation(output: id, kind: .output, valueType: "Int", site: site)))
            apply(.bound(TraceEvent.Binding(subscription: id, output: id, site: site)))
            apply(.updated(output: id, cause: nil, preview: nil))
            apply(.unbound(subscription: id, reason: .outputReleased, cause: nil))
            apply(.released(output: id))
        }
        #expect(replay.liveOutputCount == 0 && replay.boundSubscriptionCount == 0)
        #expect(replay.releasedOutputs.rangeCount == 1)
        #expect(replay.endedSubscriptions.rangeCount == 1)
        #expect(replay.stacks.mapValues(\.count) == [1: 1])
        #expect(replay.errors.isEmpty)
    }

    @Test("a capture's focus keeps other tests' leaks out")
    func focus() {
        var trace = TraceBuilder()
        trace.beginScope(1, name: "capture")
        trace.beginScope(2, name: "other test")
        trace.beginScope(3, parent: 1, name: "cell")
        trace.output(5, line: 50)
        trace.output(1, .map, scope: 2, preexisting: false)
        trace.edge(5, 1, .map)
        trace.output(2, .map, line: 9, scope: 3)
        trace.edge(5, 2, .map)
        trace.endScope(3)
        trace.endScope(2)
        trace.endScope(1)
        let all = TraceAnalyzer.analyze(events: trace.events)
        #expect(all.findings.count == 2)
        let focused = TraceAnalyzer.analyze(events: trace.events, options: AnalysisOptions(focusScope: 1))
        #expect(focused.findings.map(\.site) == [TraceBuilder.site(9)])
    }

    @Test("at exit, only what a user can act on: a binding left bound, not the Outputs an app keeps alive")
    func atExitReportsOnlyActionable() {
        var trace = TraceBuilder()
        trace.output(1, preexisting: true)
        trace.bind(1, to: 1, line: 3, preexisting: true)
        trace.output(2, line: 4)
        trace.bind(2, to: 2, line: 5)
        trace.output(3, line: 6)
        let result = TraceAnalyzer.analyze(events: trace.events, options: AnalysisOptions(atExit: true))
        #expect(result.findings.map(\.kind) == [.leakedSubscription])
        #expect(result.findings.first?.message.contains("at exit") == true)
        #expect(result.findings.first?.site == TraceBuilder.site(5))
    }
}
