import Bind
import BindAnalysis
import BindTraceTestSupport
import Testing

@Suite("leaked-output", .requiresTracing)
struct LeakedOutputTests {
    @Test("a map built on a long-lived Output inside a short-lived scope is a leaked Output at the map")
    func derivedOnLongLived() throws {
        let count = Output<Int>(value: 1)
        var mapLine: UInt = 0

        let recording = BindTrace.capture {
            BindTrace.scope("cell") {
                mapLine = #line; let doubled = count.map { $0 * 2 }
                _ = doubled
            }
        }

        let result = try analyze(recording)
        #expect(kindsAndLines(result) == ["leaked-output@\(mapLine)"])
        let finding = try #require(result.findings.first)
        #expect(finding.message.contains("keeps it alive"))
        #expect(finding.related.contains { $0.note.contains("keeps it alive") })
    }

    @Test("a line leaving two Outputs in each of three screens is counted three times, not six")
    func twoOutputsPerScreenCountOnce() throws {
        let user = Output<String>(value: "Ada")
        let theme = Output<String>(value: "light")
        var line: UInt = 0

        let recording = BindTrace.capture {
            for screen in 0..<3 {
                BindTrace.scope("details \(screen)") {
                    line = #line; let shown = (user.map { $0.uppercased() }, theme.map { $0 + "!" })
                    _ = shown
                }
            }
        }

        let result = try analyze(recording)
        #expect(kindsAndLines(result) == ["leaked-output@\(line)"])
        let message = try #require(result.findings.first?.message)
        #expect(message.hasSuffix("(3 times from this line)"), "\(message)")
    }

    @Test("an operator's own subscription and a chain built on the leak are one finding")
    func chainIsOneFinding() throws {
        let count = Output<Int>(value: 1)
        var chainLine: UInt = 0
        var bindLine: UInt = 0

        let recording = BindTrace.capture {
            BindTrace.scope("cell") {
                chainLine = #line; let text = count.map { $0 * 2 }.filter { $0 > 0 }.map { "\($0)" }
                bindLine = #line; _ = text.bind { _ in }
            }
        }

        let result = try analyze(recording)
        #expect(kindsAndLines(result) == ["leaked-output@\(chainLine)"])
        let finding = try #require(result.findings.first)
        #expect(finding.related.contains { $0.site.line == bindLine && $0.note.contains("still bound") })
        #expect(finding.outputs.count == 3)
    }

    @Test("a retain cycle keeps an Output alive after its scope: the closure that captures it is the line")
    func retainCycle() throws {
        var bindLine: UInt = 0
        var keep: Subscription?

        let recording = BindTrace.capture {
            BindTrace.scope("screen") {
                let name = Output<String>(value: "Ada")
                bindLine = #line; keep = name.bind { _ in _ = name }  // the closure captures its own Output
            }
        }
        keep?.unsubscribe()

        let result = try analyze(recording)
        #expect(kindsAndLines(result) == ["retain-cycle@\(bindLine)"])
    }

    @Test("an Output released with its scope is not a leak")
    func releasedWithScope() throws {
        let recording = BindTrace.capture {
            BindTrace.scope("cell") {
                let local = Output<Int>(value: 1)
                let doubled = local.map { $0 * 2 }
                doubled.bind { _ in }
                local.update(withValue: 2)
            }
        }

        #expect(try analyze(recording).findings.isEmpty)
    }

    @Test("an Output released after its scope ended, but before the trace ended, is not a leak")
    func releasedLater() throws {
        var late: Output<Int>?

        let recording = BindTrace.capture {
            BindTrace.scope("cell") {
                late = Output<Int>(value: 1)
            }
            late = nil
        }

        #expect(late == nil)
        #expect(try analyze(recording).findings.isEmpty)
    }
}
