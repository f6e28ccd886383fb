import Bind
import BindAnalysis
import BindTraceTestSupport
import Testing

@Suite("glitch: which merges and combines a recorded propagation glitches", .requiresTracing)
struct GlitchRuleTests {
    private func glitchLines(_ recording: BindTrace.Recording?) throws -> [String] {
        kindsAndLines(try analyze(recording)).filter { $0.hasPrefix("glitch@") }
    }

    @Test("two Relays fired from one tap and merged into an activity log are two events, not a glitch")
    func mergedRelays() throws {
        // Given an activity log merging the analytics and navigation events one tap produces
        let tap = Relay<Void>()
        let analytics = Relay<String>()
        let navigation = Relay<String>()
        let log = Label()

        // When the tap fires once
        let recording = BindTrace.capture {
            let bag = SubscriptionContainer()
            tap.bind {
                analytics.update(withValue: "tap")
                navigation.update(withValue: "push detail")
            }.add(to: bag)
            Output.merge(analytics, navigation).bind { log.text += $0 + ";" }.add(to: bag)
            tap.fire()
            bag.unsubscribe()
        }

        // Then the log has both entries, and no glitch is reported
        #expect(log.text == "tap;push detail;")
        #expect(try glitchLines(recording) == [])
    }

    @Test("maps of one Relay merged are events too: one fire delivering through both is not a glitch")
    func mergedMapsOfARelay() throws {
        // Given two descriptions of one tap event, merged
        let tap = Relay<Int>()
        let log = Label()

        // When the tap fires once
        let recording = BindTrace.capture {
            let bag = SubscriptionContainer()
            Output.merge(tap.map { "tap \($0)" }, tap.map { "analytics \($0)" })
                .bind { log.text += $0 + ";" }.add(to: bag)
            tap.update(withValue: 1)
            bag.unsubscribe()
        }

        // Then both reach the log, and no glitch is reported
        #expect(log.text == "tap 1;analytics 1;")
        #expect(try glitchLines(recording) == [])
    }

    @Test("a merge of merged Relays and a map of a Relay, fired from one tap, carries events only: no glitch")
    func nestedMergeOfRelays() throws {
        // Given an activity log merging a merge of two Relays with a description of the tap itself
        let tap = Relay<Void>()
        let analytics = Relay<String>()
        let navigation = Relay<String>()
        var entries: [String] = []

        // When the tap fires once
        let recording = BindTrace.capture {
            let bag = SubscriptionContainer()
            tap.bind {
                analytics.update(withValue: "tap")
                navigation.update(withValue: "push detail")
            }.add(to: bag)
            Output.merge(Output.merge(analytics, navigation), tap.map { "tapped" })
                .bind { entries.append($0) }.add(to: bag)
            tap.fire()
            bag.unsubscribe()
        }

        // Then all three events reach the log, and no glitch is reported
        #expect(entries.sorted() == ["push detail", "tap", "tapped"])
        #expect(try glitchLines(recording) == [])
    }

    @Test("a merge of two state Outputs derived from one update is still a glitch")
    func mergedStateDiamond() throws {
        // Given two derivations of one state Output, merged
        let email = Output<String>(value: "a")
        var mergeLine: UInt = 0
        var seen: [String] = []

        // When the source updates once
        let recording = BindTrace.capture {
            let bag = SubscriptionContainer()
            mergeLine = #line; let merged = Output.merge(email.map { "valid \($0)" }, email.map { "long \($0)" })
            merged.bind { seen.append($0) }.add(to: bag)
            email.update(withValue: "ada@example.com")
            bag.unsubscribe()
        }

        // Then the merge delivered twice for one change: a glitch at the merge line
        #expect(seen.suffix(2) == ["valid ada@example.com", "long ada@example.com"])
        #expect(try glitchLines(recording) == ["glitch@\(mergeLine)"])
    }

    @Test("a tap that updates two state Outputs, merged, is still a glitch: they carry state, not events")
    func tapUpdatingMergedState() throws {
        // Given a tap whose handler updates two state Outputs a merge joins
        let tap = Relay<Void>()
        let title = Output<String>(value: "Inbox")
        let subtitle = Output<String>(value: "0 unread")
        var mergeLine: UInt = 0

        // When the tap fires once
        let recording = BindTrace.capture {
            let bag = SubscriptionContainer()
            tap.bind {
                title.update(withValue: "Inbox (1)")
                subtitle.update(withValue: "1 unread")
            }.add(to: bag)
            mergeLine = #line; Output.merge(title, subtitle).bind { _ in }.add(to: bag)
            tap.fire()
            bag.unsubscribe()
        }

        // Then the merge is judged as before
        #expect(try glitchLines(recording) == ["glitch@\(mergeLine)"])
    }
}
