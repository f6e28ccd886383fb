import Bind
import BindAnalysis
import BindTraceTestSupport
import Testing

@Suite("dangling-binder", .requiresTracing)
struct DanglingBinderTests {
    @Test("a Binder still bound after its target is gone, and still delivered to, is dangling")
    func targetGone() throws {
        let title = Output<String>(value: "Ada")
        var bindLine: UInt = 0

        let recording = BindTrace.capture {
            var label: Label? = Label()
            bindLine = #line; _ = title.bind(to: label!.binding[\.text])
            label = nil
            title.update(withValue: "Grace")
            title.update(withValue: "Linus")
        }

        let result = try analyze(recording)
        #expect(kindsAndLines(result) == ["dangling-binder@\(bindLine)"])
        #expect(result.findings.first?.message.contains("2 values") == true)
    }

    @Test("a Binder unbound when its target goes away is not dangling")
    func unboundWithTarget() throws {
        let title = Output<String>(value: "Ada")

        let recording = BindTrace.capture {
            var label: Label? = Label()
            let subscription = title.bind(to: label!.binding[\.text])
            subscription.unsubscribe()
            label = nil
            title.update(withValue: "Grace")
        }

        #expect(try analyze(recording).findings.isEmpty)
    }
}

/// A card whose owner lets it go when the user signs out: it empties its bag in `deinit`.
private final class ProfileCard {
    let name = Label()
    let bag = SubscriptionContainer()
    let emptiesBag: Bool

    init(emptiesBag: Bool) { self.emptiesBag = emptiesBag }

    deinit { if emptiesBag { bag.unsubscribe() } }
}

private final class CardHost {
    var card: ProfileCard?
    let bag = SubscriptionContainer()
}

@Suite("dangling-binder mid-update", .requiresTracing)
struct DanglingMidUpdateTests {
    /// The user Output's first subscriber releases the card; the second is the card's Binder.
    static func signOut(emptiesBag: Bool) throws -> (AnalysisResult, bindLine: UInt) {
        let user = Output<String>(value: "Ada")
        var bindLine: UInt = 0
        let recording = BindTrace.capture {
            let host = CardHost()
            user.bind { [weak host] in if $0 == "signed-out" { host?.card = nil } }.add(to: host.bag)
            host.card = ProfileCard(emptiesBag: emptiesBag)  // only the host keeps it
            bindLine = #line; user.bind(to: host.card!.name.binding[\.text]).add(to: host.card!.bag)
            user.update(withValue: "signed-out")
            #expect(host.card == nil)
            host.bag.unsubscribe()
        }
        return (try analyze(recording), bindLine)
    }

    @Test("a card unbound by an earlier subscriber of the same update gets the value in flight: no finding, no error")
    func unboundMidUpdate() throws {
        let (result, _) = try Self.signOut(emptiesBag: true)
        #expect(result.findings.isEmpty, "\(result.findings.map(\.message))")
    }

    @Test("the same card that does not empty its bag is delivered to after it is gone: dangling")
    func stillBoundMidUpdate() throws {
        let (result, line) = try Self.signOut(emptiesBag: false)
        #expect(kindsAndLines(result).contains("dangling-binder@\(line)"), "\(kindsAndLines(result))")
    }
}
