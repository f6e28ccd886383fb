import Bind
import Testing

@Suite("Relay")
struct RelayTests {
    @Test("a Relay passes each value to its bound closures and stores nothing")
    func relayPassesValuesOn() {
        let events = Relay<Int>()
        let (recorder, _) = events.recorded()

        events.update(withValue: 1)
        events.update(withValue: 2)

        #expect(recorder.values == [1, 2])
        #expect(events.value == nil)
    }

    @Test("a closure bound after an update is not called with it")
    func relayDoesNotReplayToLaterBinds() {
        let events = Relay<Int>()
        events.update(withValue: 1)

        let (recorder, _) = events.recorded()

        #expect(recorder.values.isEmpty)
    }

    @Test("fire() calls every closure of a Relay<Void>")
    func fireCallsClosures() {
        let tapped = Relay<Void>()
        let (recorder, _) = tapped.recorded()

        tapped.fire()
        tapped.fire()

        #expect(recorder.count == 2)
    }

    @Test("initial stores nothing into a Relay")
    func initialDoesNotStore() {
        let events = Relay<Int>()
        #expect(events.initial(1).value == nil)
        #expect(events.recorded().0.values.isEmpty)
    }

    @Test("a map of a Relay does not replay to a closure bound later")
    func mapOfRelayDoesNotReplay() {
        let events = Relay<Int>()
        let doubled = events.map { $0 * 2 }
        events.update(withValue: 1)

        let (recorder, _) = doubled.recorded()

        #expect(recorder.values.isEmpty)
        #expect(doubled.value == nil)
    }

    @Test("a combine built after a Relay fired does not see that value")
    func combineBuiltLaterDoesNotReplay() {
        let events = Relay<Int>()
        let state = Output<String>(value: "a")
        events.update(withValue: 1)

        let (recorder, _) = Output<Int>.combine(events, state).recorded()

        #expect(recorder.values.isEmpty)
    }

    @Test("a combine pairs a Relay's value only with the update it arrives in")
    func combineDoesNotRememberRelayValues() {
        // Given a combine of a Relay and an Output
        let events = Relay<Int>()
        let state = Output<String>(value: "a")
        let combined = Output<Int>.combine(events, state)
        let (recorder, _) = combined.recorded()
        // When the Relay fires, then only the Output updates
        events.update(withValue: 1)
        state.update(withValue: "b")
        // Then the Relay's old value is not paired again
        #expect(recorder.values.map(\.0) == [1])
        #expect(recorder.values.map(\.1) == ["a"])
        // And nothing replays to a closure bound later
        #expect(combined.recorded().0.values.isEmpty)
    }
}
