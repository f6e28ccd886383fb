import Bind
@_spi(Harness) import BindAnalysis
@_spi(Harness) import BindTraceModel
import BindTraceTestSupport
import Testing

@Suite("stopped-combine", .requiresTracing)
struct StoppedCombineTests {
    @Test("a combine whose source is released while its result is bound, then another source updates, is a note")
    func sourceReleasedThenUpdate() throws {
        var combineLine: UInt = 0
        var firstLine: UInt = 0
        var delivered: [Int] = []

        let recording = BindTrace.capture {
            let second = Output<Int>(value: 0).labeled("second")
            var first: Output<Int>? = Output<Int>(value: 0)
            firstLine = #line - 1
            _ = first!.labeled("first")
            let combined = Output<Int>.combine(first!, second)
            combineLine = #line - 1
            let subscription = combined.bind { delivered.append($0.1) }
            first = nil
            second.update(withValue: 7)
            withExtendedLifetime((second, combined, subscription)) {}
        }

        #expect(delivered == [0], "the combine stopped: the update of 'second' was dropped")
        let result = try analyze(recording)
        #expect(kindsAndLines(result) == ["stopped-combine@\(combineLine)"])
        let finding = try #require(result.findings.first)
        #expect(finding.severity == .note)
        #expect(finding.message.contains("'first'"), "\(finding.message)")
        #expect(finding.message.contains("'second'"), "\(finding.message)")
        #expect(finding.related.contains { $0.site.line == firstLine && $0.note.contains("released at event #") })
        let events = try #require(recording).events()
        // (The capture records the whole process: other tests' releases may come between, so the
        // release is the one of the source the stop names.)
        let stopped = try #require(
            events.lazy.compactMap { if case .stopped(_, let source) = $0.kind { source } else { nil } }.first)
        let release = try #require(
            events.first { event in
                if case .released(let output) = event.kind { output == stopped } else { false }
            })
        #expect(finding.message.contains("event #\(release.sequence)"), "names the release event")
    }

    @Test(
        "a combine whose source, made in a helper and not kept, was released before its result was bound: the bind is a note"
    )
    func sourceReleasedBeforeBind() throws {
        var combineLine: UInt = 0
        var firstLine: UInt = 0
        var bindLine: UInt = 0
        var delivered: [Int] = []
        // Given a helper that makes a combine of a source it does not keep
        func combined(with second: Output<Int>) -> Output<(Int, Int)> {
            let first = Output<Int>(value: 0).labeled("first")
            firstLine = #line - 1
            let result = Output<Int>.combine(first, second)
            combineLine = #line - 1
            return result
        }

        let recording = BindTrace.capture {
            let second = Output<Int>(value: 0).labeled("second")
            let result = combined(with: second)
            // when its result is bound after the helper returned, and the kept source updates
            let subscription = result.bind { delivered.append($0.1) }
            bindLine = #line - 1
            second.update(withValue: 7)
            withExtendedLifetime((second, result, subscription)) {}
        }

        // then the update is dropped, and the note is at the combine's line, naming the released
        // source's creation and the bind
        #expect(delivered == [0], "the combine had stopped before the bind")
        let result = try analyze(recording)
        #expect(kindsAndLines(result) == ["stopped-combine@\(combineLine)"])
        let finding = try #require(result.findings.first)
        #expect(finding.severity == .note)
        #expect(finding.message.contains("'first'"), "\(finding.message)")
        #expect(finding.related.contains { $0.site.line == firstLine && $0.note.contains("released at event #") })
        #expect(finding.related.contains { $0.site.line == bindLine })
    }

    @Test("a combine that stopped before anyone bound it, and is never bound, is no finding: nobody listens")
    func stoppedAndNeverBound() throws {
        let recording = BindTrace.capture {
            let second = Output<Int>(value: 0)
            var first: Output<Int>? = Output<Int>(value: 0)
            let combined = Output<Int>.combine(first!, second)
            first = nil
            second.update(withValue: 7)
            withExtendedLifetime((second, combined)) {}
        }
        #expect(try analyze(recording).findings.isEmpty)
    }

    @Test("the same combine with its sources kept alive delivers every update and has no finding")
    func sourcesKept() throws {
        var delivered: [Int] = []

        let recording = BindTrace.capture {
            let second = Output<Int>(value: 0)
            let first = Output<Int>(value: 0)
            let combined = Output<Int>.combine(first, second)
            let subscription = combined.bind { delivered.append($0.1) }
            second.update(withValue: 7)
            withExtendedLifetime((first, second, combined, subscription)) {}
        }

        #expect(delivered == [0, 7])
        #expect(try analyze(recording).findings.isEmpty)
    }

    @Test("a source released with no later update of another source is no finding: nothing was dropped")
    func releasedWithoutLaterUpdate() throws {
        let recording = BindTrace.capture {
            let second = Output<Int>(value: 0)
            var first: Output<Int>? = Output<Int>(value: 0)
            let combined = Output<Int>.combine(first!, second)
            let subscription = combined.bind { _ in }
            first = nil
            withExtendedLifetime((second, combined, subscription)) {}
        }

        let events = try #require(recording).events()
        #expect(events.contains { if case .stopped = $0.kind { true } else { false } }, "the stop is recorded")
        #expect(try analyze(recording).findings.isEmpty)
    }

    @Test("a combine nobody listens to any more stops in silence: its result was unbound before the update")
    func resultUnbound() throws {
        let recording = BindTrace.capture {
            let second = Output<Int>(value: 0)
            var first: Output<Int>? = Output<Int>(value: 0)
            let combined = Output<Int>.combine(first!, second)
            let subscription = combined.bind { _ in }
            subscription.unsubscribe()
            first = nil
            second.update(withValue: 7)
            withExtendedLifetime((second, combined)) {}
        }

        #expect(try analyze(recording).findings.isEmpty)
    }
}
