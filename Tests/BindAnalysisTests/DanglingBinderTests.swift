#if Tracing
import Bind
import BindAnalysis
import Testing

@Suite("dangling-binder")
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
#endif
