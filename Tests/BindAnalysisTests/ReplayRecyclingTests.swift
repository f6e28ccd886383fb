import Bind
@_spi(Harness) import BindTraceModel
import Testing

@_spi(Harness) @testable import BindAnalysis

/// The replay reuses the node of a subscription or a released Output nothing refers to any more for
/// the next bind or creation, and the group of a Binder target bound once for the next one: nothing
/// of the earlier use may show.
@Suite("Replay: recycled nodes and binding groups")
struct ReplayRecyclingTests {
    private static let label = BinderTarget(type: "Label", identity: 0x42)

    @Test("a new bind in the storage of an unbound subscription whose scope ended starts clean")
    func reusedNodeStartsClean() throws {
        var trace = TraceBuilder()
        trace.output(1, line: 1, label: "feed")
        trace.beginScope(10, name: "first cell", line: 3)
        trace.bind(1, to: 1, line: 4, target: Self.label, scope: 10)
        trace.update(1)
        trace.add(.dangling(subscription: 1))  // its Label is gone
        trace.unbind(1)
        trace.endScope(10)
        trace.beginScope(20, name: "second cell", line: 6)
        trace.bind(2, to: 1, line: 7, scope: 20)  // a closure, never unbound
        let second = trace.endScope(20)
        trace.update(1)

        let replay = Replay()
        var firstNode: ObjectIdentifier?
        for event in trace.events {
            replay.apply(event)
            if firstNode == nil, let node = replay.subscription(id: 1) { firstNode = ObjectIdentifier(node) }
        }

        // Given the first subscription's node was reused for the second…
        let reused = try #require(replay.subscription(id: 2))
        #expect(ObjectIdentifier(reused) == firstNode)
        // …then the second is what its own bind made: no dangling delivery, its own scope and site.
        #expect(
            replay.subscriptionState(2)
                == SubscriptionState(
                    id: 2, output: 1, site: TraceBuilder.site(7), isInternal: false, target: nil, scope: 20,
                    isPreexisting: false, boundAt: second - 1, danglingDeliveries: 0))
        #expect(reused.firstDangling == 0 && reused.supersededBy == nil && reused.bindingGroup == nil)
        // And the findings are each subscription's own: the first a dangling Binder, the second a leak
        // (a dangling delivery carried over would have hidden it).
        let findings = replay.finish()
        #expect(findings.map(\.kind) == [.danglingBinder, .leakedSubscription])
        #expect(findings.map(\.site) == [TraceBuilder.site(4), TraceBuilder.site(7)])
        #expect(findings.map(\.subscriptions) == [[1], [2]])
        #expect(replay.errors.isEmpty)
    }

    @Test("a new Output in the storage of a released one starts clean")
    func reusedOutputStartsClean() throws {
        var trace = TraceBuilder()
        trace.output(3, line: 1, label: "theme")
        // An Output of a first screen, bound by a second one after the first ended (shared), then released.
        trace.beginScope(10, name: "first screen", line: 3)
        trace.output(1, line: 5, label: "store", scope: 10)
        trace.add(.updated(output: 1, cause: nil, preview: "7"))
        trace.endScope(10)
        trace.beginScope(12, name: "second screen", line: 8)
        trace.bind(1, to: 1, line: 9, scope: 12)
        trace.unbind(1)
        trace.endScope(12)
        trace.release(1)
        // A third screen's Output derived from the long-lived theme, which keeps it alive after the screen.
        trace.beginScope(20, name: "third screen", line: 11)
        let created = trace.output(2, .map, line: 12, scope: 20)
        trace.edge(3, 2)
        trace.bind(5, to: 3, line: 12, isInternal: true, scope: 20)
        trace.bind(6, to: 2, line: 13, scope: 20)
        trace.endScope(20)

        let replay = Replay()
        var firstNode: ObjectIdentifier?
        for event in trace.events {
            replay.apply(event)
            if firstNode == nil, let node = replay.output(id: 1) { firstNode = ObjectIdentifier(node) }
        }

        // Given the released Output's node was reused for the new one…
        let reused = try #require(replay.output(id: 2))
        #expect(ObjectIdentifier(reused) == firstNode)
        // …then the new Output is what its creation made: no label, value, updates or edges of the old one…
        #expect(
            replay.outputState(2)
                == OutputState(
                    id: 2, kind: .map, valueType: "Int", site: TraceBuilder.site(12), label: nil, scope: 20,
                    isPreexisting: false, createdAt: created, updateCount: 0, lastPreview: nil, isReleased: false,
                    releasedAt: nil))
        #expect(reused.incoming.map(\.source) == [3] && reused.outgoing.isEmpty && reused.boundCount == 1)
        // …and not shared, as the old one was: the third screen left it behind, kept by the theme.
        #expect(replay.finish().map(\.kind) == [.leakedOutput])
        #expect(replay.finish().first?.site == TraceBuilder.site(12))
        #expect(replay.errors.isEmpty)
    }

    @Test("subscriptions a finding still holds are not reused, however many binds follow")
    func heldNodesStay() {
        var trace = TraceBuilder()
        trace.output(1, line: 1, label: "title")
        trace.output(2, line: 2, label: "subtitle")
        // One Label bound twice from one line at once, by two configurations (two scopes: not one
        // loop): a duplicate binding that holds both.
        trace.beginScope(10, name: "cell", line: 3)
        trace.bind(1, to: 1, line: 4, target: Self.label, scope: 10)
        trace.beginScope(11, parent: 10, name: "cell", line: 3)
        trace.bind(2, to: 2, line: 4, target: Self.label, scope: 11)
        trace.update(1)
        trace.unbind(1)
        trace.unbind(2)
        trace.endScope(11)
        trace.endScope(10)
        // Then cells that bind and unbind cleanly, with other Labels, from the same line.
        for cell in UInt64(0)..<20 {
            let scope = 100 + cell
            let subscription = 3 + cell
            trace.beginScope(scope, name: "cell", line: 3)
            trace.bind(
                subscription, to: 1 + cell % 2, line: 4,
                target: BinderTarget(type: "Label", identity: 0x1000 + cell), scope: scope)
            trace.update(1 + cell % 2)
            trace.unbind(subscription)
            trace.endScope(scope)
        }

        let result = TraceAnalyzer.analyze(events: trace.events)

        #expect(result.findings.map(\.kind) == [.duplicateBinding])
        #expect(result.findings.first?.subscriptions == [1, 2])
        #expect(result.findings.first?.outputs == [1, 2])
        #expect(result.findings.first?.site == TraceBuilder.site(4))
        #expect(result.findings.first?.message.contains("(2 targets)") == false)
        #expect(result.traceErrors.isEmpty)
    }

    @Test("a Binder target bound again after its group emptied forms a new group of its own")
    func reusedGroupStartsClean() {
        var trace = TraceBuilder()
        trace.output(1, line: 1, label: "title")
        // One binding of a Label, unbound: its group empties and waits to be reused.
        trace.bind(1, to: 1, line: 4, target: Self.label)
        trace.unbind(1)
        // Another Label from another line takes that group; the first Label, bound twice, a new one.
        let other = BinderTarget(type: "Label", identity: 0x99)
        trace.bind(2, to: 1, line: 8, target: other)
        trace.bind(3, to: 1, line: 4, target: Self.label)
        trace.bind(4, to: 1, line: 4, target: Self.label)
        trace.update(1)

        let findings = TraceAnalyzer.analyze(events: trace.events).findings

        #expect(findings.map(\.kind) == [.duplicateBinding])
        #expect(findings.first?.site == TraceBuilder.site(4))
        #expect(findings.first?.subscriptions == [3, 4])
    }
}
