import Bind
import BindTraceFormat
@_spi(Harness) import BindTraceModel
import BindTraceTestSupport
import Foundation
import Testing

/// Subscriptions bound while nothing records, then unbound, contained or dropped while a recording
/// runs: the untraced bind and unbind do no tracing work, so the recording must still name each of
/// them as a binding it knows before it says what happened to it.
@Suite("Subscriptions bound before a recording", .requiresTracing)
struct PreexistingSubscriptionTests {
    @Test("a subscription bound before a recording and unsubscribed during it is recorded bound, then unbound")
    func unsubscribedDuringRecording() throws {
        // Given a subscription bound while nothing records (unless another test's capture runs).
        let bindLine: UInt = #line; let (output, subscription) = boundEarly()
        // When it is unsubscribed during a recording.
        let recording = try #require(BindTrace.capture { subscription.unsubscribe() })
        // Then the recording binds it (announced with its site) before it unbinds it.
        let events = try recording.events()
        let bound = try #require(events.firstIndex { $0.isBind(atLine: bindLine) })
        let id = try #require(events[bound].boundSubscription)
        let unbound = try #require(events.firstIndex { $0.kind.isUnbind(of: id, reason: .unsubscribe) })
        #expect(bound < unbound)
        withExtendedLifetime(output) {}
    }

    @Test("a handle bound before a recording and released during it is recorded released, its binding announced first")
    func handleReleasedDuringRecording() throws {
        // Given a handle bound while nothing records.
        let output = Output<Int>(value: 0)
        let bindLine: UInt = #line; var handle: Subscription? = output.bind { _ in }
        // When the app drops the handle during a recording, still bound.
        let recording = try #require(BindTrace.capture { _ = handle.take() })
        // Then the release names a binding the recording announced before it.
        let events = try recording.events()
        let bound = try #require(events.firstIndex { $0.isBind(atLine: bindLine) })
        let id = try #require(events[bound].boundSubscription)
        let released = try #require(events.firstIndex { $0.kind == .handleReleased(subscription: id) })
        #expect(bound < released)
        withExtendedLifetime(output) {}
    }

    @Test("a handle unsubscribed and then released during a recording is unbound, with no release of a live binding")
    func unsubscribedThenReleased() throws {
        let output = Output<Int>(value: 0)
        let bindLine: UInt = #line; var handle: Subscription? = output.bind { _ in }
        let recording = try #require(
            BindTrace.capture {
                handle?.unsubscribe()
                _ = handle.take()
            })
        let events = try recording.events()
        let id = try #require(events.first { $0.isBind(atLine: bindLine) }?.boundSubscription)
        #expect(events.contains { $0.kind.isUnbind(of: id, reason: .unsubscribe) })
        #expect(!events.contains { $0.kind == .handleReleased(subscription: id) })
        withExtendedLifetime(output) {}
    }

    @Test("a subscription bound before a recording and contained during it is announced before it is contained")
    func containedDuringRecording() throws {
        let bindLine: UInt = #line; let (output, subscription) = boundEarly()
        let container = SubscriptionContainer()
        let recording = try #require(BindTrace.capture { subscription.add(to: container) })
        let events = try recording.events()
        let bound = try #require(events.firstIndex { $0.isBind(atLine: bindLine) })
        let id = try #require(events[bound].boundSubscription)
        let contained = try #require(
            events.firstIndex {
                if case .subscriptionContained(id, _) = $0.kind { true } else { false }
            })
        #expect(bound < contained)
        container.unsubscribe()
        withExtendedLifetime(output) {}
    }

    @Test("bind + unbind churn while recordings start and stop: every unbind names a binding bound before it")
    func churnAcrossRecordingStarts() throws {
        // Given an Output with 100 subscribers, and a thread binding and unbinding one more on it
        // in a loop (so binds made before a recording starts are unbound after it has).
        let output = Output<Int>(value: 0)
        let kept = (0..<100).map { _ in output.bind { _ in } }
        let churnLine: UInt = #line; let churn = ChurnThread(output: output, line: churnLine)
        churn.start()
        defer { churn.stop() }
        for _ in 0..<5 {
            // When a recording starts and stops while the churn runs: 200 operations or more inside
            // each (counted from within the recording, which takes a while to begin).
            let recording = try #require(
                BindTrace.capture { churn.waitForOperations(after: churn.operations + 200) })
            // Then every unbind in it names a subscription the recording bound (or announced) before.
            let events = try recording.events()
            var known: Set<UInt64> = []
            var churned: Set<UInt64> = []
            var orphans: [UInt64] = []
            var churnUnbinds = 0
            for event in events {
                switch event.kind {
                case .bound(let binding):
                    known.insert(binding.subscription)
                    if event.isBind(atLine: churnLine) { churned.insert(binding.subscription) }
                case .unbound(let id, _, _):
                    if !known.contains(id) { orphans.append(id) }
                    if churned.contains(id) { churnUnbinds += 1 }
                default: break
                }
            }
            #expect(orphans.isEmpty, "unbinds of subscriptions this recording never bound: \(orphans.prefix(5))")
            #expect(churnUnbinds >= 100, "the churn's unbinds are in the recording")
        }
        withExtendedLifetime(kept) {}
    }

    /// An Output with one closure bound (at the caller's line, with the returned handle).
    private func boundEarly(line: UInt = #line) -> (Output<Int>, Subscription) {
        let output = Output<Int>(value: 0)
        return (output, output.bind({ _ in }, line: line))
    }
}

/// A thread that binds a closure to `output` (its site: `line` of this file) and unsubscribes it,
/// over and over, until stopped.
private final class ChurnThread: @unchecked Sendable {
    private let output: Output<Int>
    private let line: UInt
    private let condition = NSCondition()
    private var count = 0
    private var stopping = false
    private var thread: Thread?

    init(output: Output<Int>, line: UInt) {
        self.output = output
        self.line = line
    }

    var operations: Int { condition.withLock { count } }

    func start() {
        let thread = Thread { [self] in
            while !condition.withLock({ stopping }) {
                output.bind({ _ in }, line: line).unsubscribe()
                condition.withLock {
                    count += 1
                    condition.broadcast()
                }
            }
        }
        self.thread = thread
        thread.start()
    }

    /// Returns once the thread has made `target` bind + unbind operations in all.
    func waitForOperations(after target: Int) {
        condition.withLock {
            while count < target { condition.wait() }
        }
    }

    func stop() {
        condition.withLock { stopping = true }
        // The thread ends at its next check; the Output outlives it (held by the thread's closure).
    }
}

extension TraceEvent {
    /// Whether this is the bind of a closure bound at `line` of this file.
    fileprivate func isBind(atLine line: UInt) -> Bool {
        if case .bound(let binding) = kind {
            binding.site.line == line && binding.site.file.hasSuffix("PreexistingSubscriptionTests.swift")
        } else {
            false
        }
    }

    fileprivate var boundSubscription: UInt64? {
        if case .bound(let binding) = kind { binding.subscription } else { nil }
    }
}

extension TraceEvent.Kind {
    fileprivate func isUnbind(of id: UInt64, reason: UnbindReason) -> Bool {
        if case .unbound(id, reason, _) = self { true } else { false }
    }
}
