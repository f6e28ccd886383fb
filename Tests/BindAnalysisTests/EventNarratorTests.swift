@_spi(Harness) import BindAnalysis
@_spi(Harness) import BindTraceModel
import Testing

@Suite("EventNarrator: one line per event, Outputs named as in findings")
struct EventNarratorTests {
    let site = SourceSite(file: "App/Screen.swift", line: 3)
    let bindSite = SourceSite(file: "App/View.swift", line: 20)

    private func event(_ sequence: UInt64, _ kind: TraceEvent.Kind) -> TraceEvent {
        TraceEvent(sequence: sequence, time: sequence, thread: 1, offset: 0, kind: kind)
    }

    @Test("an Output is named by its label, else kind, type and site, while it lives; the id only once it is gone")
    func namesFollowTheOutputsLife() {
        var narrator = EventNarrator()
        let created = narrator.tell(
            event(1, .outputCreated(.init(output: 1, kind: .output, valueType: "String", site: site, label: "email"))))
        let derived = narrator.tell(
            event(2, .outputCreated(.init(output: 2, kind: .map, valueType: "Int", site: site, label: nil))))
        let edge = narrator.tell(event(3, .edge(source: 1, derived: 2, operation: .map)))
        let updated = narrator.tell(event(4, .updated(output: 1, cause: nil, preview: "\"ada\"")))
        let released = narrator.tell(event(5, .released(output: 1)))
        let after = narrator.tell(event(6, .updated(output: 1, cause: nil, preview: nil)))
        let labelled = narrator.tell(event(7, .labeled(output: 2, label: "count")))
        let renamed = narrator.tell(event(8, .updated(output: 2, cause: nil, preview: nil)))

        #expect(created.text == "create 'email' (String) at App/Screen.swift:3")
        #expect(derived.text == "create map → Int at Screen.swift:3")
        #expect(edge.text == "map → Int at Screen.swift:3 is map of 'email' (String)")
        #expect(updated.text == "update 'email' (String) = \"ada\"")
        #expect(updated.outputs == [1] && updated.sites == [site])
        #expect(released.text == "release 'email' (String)")
        #expect(released.labels.contains("email"), "a release still matches --label")
        #expect(after.text == "update an Output the trace never created (#1)")
        #expect(labelled.text == "label map → Int at Screen.swift:3 as 'count'")
        #expect(renamed.text == "update 'count' (Int)")
    }

    @Test("a bind names what was bound; its updates say which subscription caused them; an unbind names the Output")
    func subscriptionsAndCauses() {
        var narrator = EventNarrator()
        _ = narrator.tell(
            event(1, .outputCreated(.init(output: 1, kind: .output, valueType: "Int", site: site, label: "count"))))
        _ = narrator.tell(event(2, .scopeBegan(id: 9, parent: 0, name: "cell 0", site: site)))
        let bound = narrator.tell(
            event(
                3,
                .bound(
                    .init(
                        subscription: 4, output: 1, site: bindSite,
                        target: BinderTarget(type: "UIKit.UILabel", identity: 1),
                        scope: 9))))
        let caused = narrator.tell(
            event(4, .updated(output: 1, cause: TraceCause(subscription: 4, event: 3), preview: nil)))
        let unbound = narrator.tell(event(5, .unbound(subscription: 4, reason: .unbind, cause: nil)))
        let ended = narrator.tell(event(6, .scopeEnded(id: 9)))

        #expect(
            bound.text
                == "bind subscription 4 (Binder to UILabel) to 'count' (Int) at App/View.swift:20 in scope 'cell 0' (#9)"
        )
        #expect(caused.via == "via subscription 4 bound at App/View.swift:20")
        #expect(caused.sites == [site, bindSite])
        #expect(unbound.text.hasPrefix("unbind subscription 4 from 'count' (Int)"))
        #expect(unbound.outputs == [1])
        #expect(ended.text == "end scope 'cell 0' (#9)")
    }

    @Test("strings from the trace are quoted shortened: a long label costs the same on every line")
    func longStringsAreShortened() {
        var narrator = EventNarrator()
        let label = String(repeating: "x", count: 16_384)
        _ = narrator.tell(
            event(1, .outputCreated(.init(output: 1, kind: .output, valueType: "Int", site: site, label: label))))
        var longest = 0
        for sequence in UInt64(2)...100 {
            let line = narrator.tell(event(sequence, .updated(output: 1, cause: nil, preview: label)))
            longest = max(longest, line.text.utf8.count)
        }
        let mark = narrator.tell(event(101, .mark(name: label, scope: 0)))

        #expect(longest < 2 * Narrator.quotedLimit + 100)
        #expect(mark.text.utf8.count < Narrator.quotedLimit + 100)
        #expect(mark.text.contains("more bytes)"))
    }

    @Test("an Output announced again when a capture begins is not called one created before the recording")
    func reannouncedOutputWasCreatedInThisTrace() {
        var narrator = EventNarrator()
        _ = narrator.tell(
            event(1, .outputCreated(.init(output: 1, kind: .output, valueType: "String", site: site, label: "email"))))
        let again = narrator.tell(
            event(
                2,
                .outputCreated(
                    .init(
                        output: 1, kind: .output, valueType: "String", site: site, label: "email", preexisting: true))))
        let before = narrator.tell(
            event(
                3,
                .outputCreated(
                    .init(output: 2, kind: .output, valueType: "Int", site: site, label: "count", preexisting: true))))
        #expect(again.text.contains("created earlier in this trace"), "\(again.text)")
        #expect(!again.text.contains("before the recording"))
        #expect(before.text.contains("created before the recording"))
    }
}
