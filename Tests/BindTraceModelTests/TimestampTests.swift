#if Tracing
import Bind
import BindTraceFormat
import BindTraceModel
import Foundation
import Testing

@Suite("One clock read per propagation: events with a cause carry no time of their own (format 1.4)")
struct TimestampTests {
    /// Each event of `recording` beside the tick delta its record carries, in the trace's order.
    private func eventsWithDeltas(of recording: BindTrace.Recording) throws -> [(event: TraceEvent, delta: UInt64)] {
        let deltas = try records(of: recording.bytes).compactMap { record -> UInt64? in
            if case .event(let delta, _) = record { delta } else { nil }
        }
        let events = try recording.events()
        try #require(events.count == deltas.count, "one event per event record")
        return Array(zip(events, deltas))
    }

    @Test("the updates a root update causes on its thread have a tick delta of 0; each root update reads the clock")
    func causedUpdatesAreNotStamped() throws {
        // Given a chain of three maps with a subscriber at its end
        let captured = BindTrace.capture("caused updates") {
            let source = Output<Int>(value: 0).labeled("timestamps source")
            let first = source.map { $0 + 1 }
            let second = first.map { $0 * 2 }
            let third = second.map { $0 - 1 }
            third.bind { _ in }
            // When the app updates the source twice, 2 ms apart
            source.update(withValue: 1)
            Thread.sleep(forTimeInterval: 0.002)
            source.update(withValue: 2)
            withExtendedLifetime((first, second, third)) {}
        }
        let recording = try #require(captured)
        let own = Set(try ownEvents(of: recording).map(\.sequence))
        let updates = try eventsWithDeltas(of: recording).filter { entry in
            guard own.contains(entry.event.sequence), case .updated = entry.event.kind else { return false }
            return true
        }

        // Then every update the chain passed on was written without a clock read
        let caused = updates.filter { $0.event.kind.cause != nil }
        #expect(caused.count >= 6, "three maps, two propagations")
        #expect(caused.allSatisfy { $0.delta == 0 })
        // and the two root updates were stamped: the sleep between them shows in their times
        let roots = updates.filter { $0.event.kind.cause == nil }
        try #require(roots.count == 2)
        #expect(roots[1].event.time - roots[0].event.time >= 1_900_000)
    }

    @Test("an Output made and bound inside a subscription's closure is not stamped either, nor a calledAt")
    func causedStructuralEventsAreNotStamped() throws {
        // Given a Relay whose subscription makes and binds an Output
        final class Made: @unchecked Sendable { var outputs: [Output<Int>] = [] }
        let made = Made()
        let captured = BindTrace.capture("caused bind") {
            let tapped = Relay<Void>()
            tapped.bind {
                let inner = Output<Int>(value: 1)
                inner.bind { _ in }
                made.outputs.append(inner)
            }
            // When the app fires it
            tapped.fire()
        }
        let recording = try #require(captured)
        let own = Set(try ownEvents(of: recording).map(\.sequence))
        let entries = try eventsWithDeltas(of: recording).filter { own.contains($0.event.sequence) }

        // Then the creation and the bind the closure made carry a cause and a tick delta of 0
        let inClosure = entries.filter { entry in
            switch entry.event.kind {
            case .outputCreated, .bound: entry.event.kind.cause != nil
            default: false
            }
        }
        #expect(inClosure.count == 2)
        #expect(inClosure.allSatisfy { $0.delta == 0 })
        // and the fire that ran it is a root (no cause); the `calledAt` naming its call site is not stamped
        let fire = try #require(entries.first { if case .fired = $0.event.kind { true } else { false } })
        #expect(fire.event.kind.cause == nil)
        let calledAt = try #require(entries.first { if case .calledAt = $0.event.kind { true } else { false } })
        #expect(calledAt.delta == 0)
    }
}
#endif
