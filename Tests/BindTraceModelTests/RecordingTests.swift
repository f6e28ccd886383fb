import Bind
@_spi(Harness) import BindTraceModel
import BindTraceTestSupport
import Foundation
import Testing

final class Screen {
    var title = ""
}

@Suite("The instrumented build records every event", .requiresTracing)
struct RecordingTests {
    @Test("creation, edges, binds, updates, fires, unbinds and releases carry ids, sites and causes")
    func everyEventKind() throws {
        var createLine: UInt = 0
        var mapLine: UInt = 0
        var bindLine: UInt = 0
        var binderLine: UInt = 0
        var relayLine: UInt = 0
        // Not inside `#require(…)`: a macro's argument reads every `#line` (and `bind`'s default
        // `line:`) as the macro's own line, which would make the lines below all equal.
        let captured = BindTrace.capture {
            createLine = #line; let name = Output<String>(value: "Ada").labeled("name")
            mapLine = #line; let length = name.map { $0.count }
            let container = SubscriptionContainer()
            bindLine = #line; length.bind { _ in }.add(to: container)
            var screen: Screen? = Screen()
            binderLine = #line; name.bind(to: Binder(screen!, \.title))
            relayLine = #line; let tapped = Relay<Void>()
            tapped.bind { name.update(withValue: "Grace") }
            BindTrace.mark("before tap")
            tapped.fire()
            screen = nil
            name.update(withValue: "Lin")
            container.unsubscribe()
        }
        let recording = try #require(captured)
        #expect(Set([createLine, mapLine, bindLine, binderLine, relayLine]).count == 5, "each line is its own")
        let events = try ownEvents(of: recording)
        let file = "BindTraceModelTests/RecordingTests.swift"

        let creations = events.compactMap { event -> TraceEvent.OutputCreation? in
            if case .outputCreated(let creation) = event.kind { return creation } else { return nil }
        }
        let name = try #require(creations.first { $0.kind == .output })
        #expect(name.site == SourceSite(file: file, line: createLine))
        #expect(name.valueType == "String")
        #expect(name.scope == recording.scope)
        let length = try #require(creations.first { $0.kind == .map })
        #expect(length.site == SourceSite(file: file, line: mapLine))
        #expect(length.valueType == "Int")
        let relay = try #require(creations.first { $0.kind == .relay })
        #expect(relay.site.line == relayLine)
        #expect(Set(creations.map(\.output)).count == creations.count, "ids are never reused")

        #expect(events.contains { $0.kind == .labeled(output: name.output, label: "name") })
        #expect(events.contains { $0.kind == .edge(source: name.output, derived: length.output, operation: .map) })

        let bindings = events.compactMap { event -> TraceEvent.Binding? in
            if case .bound(let binding) = event.kind { return binding } else { return nil }
        }
        let internalBind = try #require(bindings.first { $0.isInternal })
        #expect(internalBind.output == name.output)
        #expect(internalBind.site.line == mapLine, "an operator's own bind is recorded at the operator's call site")
        let closureBind = try #require(bindings.first { $0.output == length.output })
        #expect(closureBind.site == SourceSite(file: file, line: bindLine))
        #expect(!closureBind.isInternal)
        let binderBind = try #require(bindings.first { $0.target != nil })
        #expect(binderBind.site.line == binderLine)
        #expect(binderBind.target?.type == "Screen")
        let relayBind = try #require(bindings.first { $0.output == relay.output })

        // The fire of the relay causes an update of `name`, which causes an update of `length`.
        let fire = try #require(events.first { if case .fired(relay.output, nil, _) = $0.kind { true } else { false } })
        let caused = try #require(
            events.first { event in
                if case .updated(name.output, let cause?, _) = event.kind {
                    return cause == TraceCause(subscription: relayBind.subscription, event: fire.sequence)
                }
                return false
            })
        #expect(
            events.contains { event in
                if case .updated(length.output, let cause?, _) = event.kind {
                    return cause == TraceCause(subscription: internalBind.subscription, event: caused.sequence)
                }
                return false
            })
        #expect(events.contains { if case .mark("before tap", recording.scope) = $0.kind { true } else { false } })
        #expect(events.contains { $0.kind == .dangling(subscription: binderBind.subscription) })
        #expect(
            events.contains {
                if case .unbound(closureBind.subscription, .container, _) = $0.kind { true } else { false }
            })
        // Leaving the capture released every Output, unbinding what was still bound.
        for creation in creations {
            #expect(events.contains { $0.kind == .released(output: creation.output) })
        }
        #expect(
            events.contains {
                if case .unbound(relayBind.subscription, .outputReleased, _) = $0.kind { true } else { false }
            })
        #expect(events.map(\.sequence) == events.map(\.sequence).sorted())
        #expect(events.first.map { events.last!.time >= $0.time } == true)
    }

    @Test("a new Binder target at a dead target's address: the old binding is recorded dangling before the bind")
    func reusedTargetAddress() throws {
        // The recorder compares the new target with the earlier binding's, whose `Binder` value is
        // long gone (only the bound closure keeps that target's record alive): under ASan, where
        // freed memory is quarantined and never reused, the test checks that read alone.
        var reused = false
        let recording = try #require(
            BindTrace.capture {
                let title = Output<String>(value: "Ada")
                var screen: Screen? = Screen()
                let address = ObjectIdentifier(screen!)
                title.bind(to: Binder(screen!, \.title))
                screen = nil
                // glibc's malloc hands a freed block to the next allocation of its size.
                var candidates: [Screen] = []
                for _ in 0..<64 {
                    let candidate = Screen()
                    candidates.append(candidate)
                    if ObjectIdentifier(candidate) == address {
                        reused = true
                        break
                    }
                }
                title.bind(to: Binder(candidates.last!, \.title))
            })
        #expect(reused || Sanitizer.any, "the freed address was not reused: nothing compared")
        let events = try ownEvents(of: recording)
        let binds = events.filter { if case .bound(let binding) = $0.kind { binding.target != nil } else { false } }
        try #require(binds.count == 2)
        guard case .bound(let first) = binds[0].kind, case .bound(let second) = binds[1].kind else { return }
        #expect((first.target?.identity == second.target?.identity) == reused)
        let dangling = events.firstIndex { $0.kind == .dangling(subscription: first.subscription) }
        if reused {
            let secondBind = try #require(events.firstIndex { $0.sequence == binds[1].sequence })
            #expect(try #require(dangling) < secondBind)
        } else {
            #expect(dangling == nil, "a live or different target is not a dead one")
        }
    }

    @Test("an initial delivery is caused by its bind, and flatMap records each switch")
    func initialDeliveryAndFlatMap() throws {
        let recording = try #require(
            BindTrace.capture {
                let first = Output<Int>(value: 1)
                let second = Output<Int>(value: 2)
                let selector = Output<Bool>(value: true)
                let selected = selector.flatMap { $0 ? first : second }
                let mirror = Output<Int>()
                selected.bind { mirror.update(withValue: $0) }
                selector.update(withValue: false)
            })
        let events = try ownEvents(of: recording)
        let switches = events.filter { if case .innerSwitch = $0.kind { true } else { false } }
        #expect(switches.count == 2)
        let binds = events.compactMap { event -> (UInt64, TraceEvent.Binding)? in
            if case .bound(let binding) = event.kind { return (event.sequence, binding) } else { return nil }
        }
        let userBind = try #require(binds.first { !$0.1.isInternal })
        #expect(
            events.contains { event in
                if case .updated(_, let cause?, _) = event.kind {
                    return cause == TraceCause(subscription: userBind.1.subscription, event: userBind.0)
                }
                return false
            })
    }

    @Test("Outputs created before the recording started are announced when they are used")
    func preexistingOutputs() throws {
        let earlyLine: UInt = #line; let early = Output<Int>(value: 0)
        let subscription = early.bind { _ in }
        let recording = try #require(
            BindTrace.capture {
                early.update(withValue: 1)
                subscription.unsubscribe()
            })
        let events = try recording.events()
        // Preexisting, unless another test's capture was already recording when `early` was made.
        let announced = events.compactMap { event -> TraceEvent.OutputCreation? in
            if case .outputCreated(let creation) = event.kind { creation } else { nil }
        }
        let creation = try #require(announced.first { $0.site.line == earlyLine })
        #expect(events.contains { if case .updated(creation.output, _, _) = $0.kind { true } else { false } })
        #expect(
            events.contains {
                if case .bound(let binding) = $0.kind { binding.output == creation.output } else { false }
            })
        #expect(events.contains { if case .unbound(_, .unsubscribe, _) = $0.kind { true } else { false } })
    }

    @Test("an Output made and labelled while nothing records is announced with its label, kind and site")
    func labelledBeforeRecording() throws {
        // Its trace info is made only when needed: the label must still reach a later recording.
        let line: UInt = #line; let early = Relay<Int>().labeled("early-relay")
        let other = Output<Int>()
        let recording = try #require(
            BindTrace.capture {
                let merged = Output.merge(early, other)
                early.update(withValue: 1)
                withExtendedLifetime(merged) {}
            })
        let events = try recording.events()
        let creations = events.compactMap { event -> TraceEvent.OutputCreation? in
            if case .outputCreated(let creation) = event.kind { creation } else { nil }
        }
        let creation = try #require(creations.first { $0.site.line == line })
        #expect(creation.label == "early-relay")
        #expect(creation.kind == .relay)
        #expect(creation.valueType == "Int")
        let merged = try #require(creations.first { $0.kind == .merge })
        #expect(
            events.contains {
                if case .edge(creation.output, merged.output, .merge) = $0.kind { true } else { false }
            })
        #expect(events.contains { if case .fired(creation.output, _, _) = $0.kind { true } else { false } })
    }

    @Test("value previews are short and off unless asked for")
    func valuePreviews() throws {
        let long = String(repeating: "x", count: 1000)
        let recording = try #require(
            BindTrace.capture {
                let text = Output<String>()
                text.update(withValue: "hidden")
                BindTrace.recordsValuePreviews = true
                text.update(withValue: long)
                BindTrace.recordsValuePreviews = false
            })
        let previews = try ownEvents(of: recording).compactMap { event -> String?? in
            if case .updated(_, _, let preview) = event.kind { preview } else { nil }
        }
        #expect(previews.count == 2)
        #expect(previews.first == .some(nil))
        let shown = try #require(previews.last ?? nil)
        #expect(shown.utf8.count <= 120)
        #expect(shown.hasSuffix("…"))
    }

    @Test("8 threads × 50,000 updates: nothing is lost and each thread's order is kept")
    func concurrentRecording() async throws {
        let threads = 8
        let updates = 50_000
        let recording = try #require(
            BindTrace.capture {
                let outputs = (0..<threads).map { _ in (Output<Int>(), Output<Int>()) }
                DispatchQueue.concurrentPerform(iterations: threads) { thread in
                    // Alternating between two Outputs makes each thread's order visible in the trace.
                    let (even, odd) = outputs[thread]
                    for value in 0..<updates { (value % 2 == 0 ? even : odd).update(withValue: value) }
                }
            })
        let events = try ownEvents(of: recording)
        var perOutput: [UInt64: Int] = [:]
        var lastByPair: [UInt64: UInt64] = [:]
        var pairOf: [UInt64: UInt64] = [:]
        var creations: [UInt64] = []
        for event in events {
            switch event.kind {
            case .outputCreated(let creation): creations.append(creation.output)
            case .updated(let output, _, _):
                perOutput[output, default: 0] += 1
                if pairOf.isEmpty {
                    for index in stride(from: 0, to: creations.count, by: 2) {
                        pairOf[creations[index]] = creations[index]
                        pairOf[creations[index + 1]] = creations[index]
                    }
                }
                let pair = pairOf[output]!
                #expect(lastByPair[pair] != output, "two updates of one Output in a row: order lost")
                lastByPair[pair] = output
            default: break
            }
        }
        #expect(perOutput.count == threads * 2)
        #expect(perOutput.values.allSatisfy { $0 == updates / 2 })
    }
}

/// Checks that every update and bind in `events` is of an Output created earlier in them, and
/// that every cause names an earlier update, fire or bind delivering to a subscription bound
/// earlier (a cause counts events back, so one misplaced event breaks those after it). Returns
/// how many updates there are.
@discardableResult
private func checkConsistent(_ events: [TraceEvent]) -> Int {
    var created: Set<UInt64> = []
    var bound: Set<UInt64> = []
    var deliveries: Set<UInt64> = []
    var updates = 0
    for event in events {
        if let cause = event.kind.cause {
            #expect(deliveries.contains(cause.event), "a cause names an earlier update, fire or bind")
            #expect(bound.contains(cause.subscription), "a cause names a subscription bound earlier")
        }
        switch event.kind {
        case .outputCreated(let creation): created.insert(creation.output)
        case .bound(let binding):
            #expect(created.contains(binding.output), "a bind of an Output the trace created")
            bound.insert(binding.subscription)
            deliveries.insert(event.sequence)
        case .updated(let output, _, _), .fired(let output, _, _):
            #expect(created.contains(output), "an update of an Output the trace created")
            deliveries.insert(event.sequence)
            updates += 1
        default: break
        }
    }
    return updates
}

/// Updates are recorded without the recording lock, into their thread's ring, and merged into the
/// stream in sequence order (docs/trace-format.md, "Threads"): the merge must lose nothing, keep
/// causes pointing at the right events, and never hand a capture an update it was not told of.
@Suite("Updates recorded by several threads at once", .requiresTracing)
struct RingRecordingTests {
    @Test("a chain of ten maps updated 20,000 times on one thread: none lost, each derived update caused by the last")
    func longRunsOfOneThread() throws {
        // Given a chain of ten maps: its updates fill the thread's ring, and the recorder's buffer,
        // many times over, so the merge hands buffers on in the middle of a ring's run
        let stages = 10
        let updates = 20_000
        let recording = try #require(
            BindTrace.capture {
                var chain = [Output<Int>()]
                for _ in 0..<stages { chain.append(chain[chain.count - 1].map { $0 + 1 }) }
                chain[stages].bind { _ in }
                // When the app updates its source again and again
                for value in 0..<updates { chain[0].update(withValue: value) }
            })
        let events = try ownEvents(of: recording).filter { if case .updated = $0.kind { true } else { false } }

        // Then every update is there, in the chain's order: a root, then ten updates each caused
        // by the one just before it (a cause counts events back, so one misplaced record shows)
        try #require(events.count == updates * (stages + 1))
        var misplaced = 0
        var timeWentBack = 0
        for index in events.indices {
            let cause = events[index].kind.cause
            if index % (stages + 1) == 0 {
                if cause != nil { misplaced += 1 }
            } else if cause?.event != events[index - 1].sequence {
                misplaced += 1
            }
            if index > 0 && events[index].time < events[index - 1].time { timeWentBack += 1 }
        }
        #expect(misplaced == 0)
        #expect(timeWentBack == 0)
    }

    @Test("captures that begin and end while 4 threads update: each is consistent and gets updates")
    func capturesJoinWhileThreadsUpdate() throws {
        let threads = 4
        let stop = Output<Int>(value: 0)
        let finished = DispatchGroup()
        for _ in 0..<threads {
            finished.enter()
            Thread {
                // Each thread's chain: an update, its delivery, and a derived update it causes.
                let source = Output<Int>(value: 0)
                let derived = source.map { $0 + 1 }
                let subscription = derived.bind { _ in }
                var value = 0
                while stop.value == 0 {
                    value += 1
                    source.update(withValue: value)
                }
                subscription.unsubscribe()
                finished.leave()
            }.start()
        }
        var updatesSeen = 0
        for _ in 0..<100 {
            let recording = try #require(BindTrace.capture { usleep(100) })
            let reader = try recording.reader()
            let events = try reader.readAll()
            #expect(reader.warnings.isEmpty)
            updatesSeen += checkConsistent(events)
        }
        stop.update(withValue: 1)
        finished.wait()
        #expect(updatesSeen > 0, "the threads' updates reached the captures")
    }

    @Test("a capture begun during a delivery: the running one keeps its causes, the new one reads them as top level")
    func captureJoiningMidDelivery() throws {
        final class Joined: @unchecked Sendable {
            let begun = DispatchSemaphore(value: 0)
            let finish = DispatchSemaphore(value: 0)
            let ended = DispatchSemaphore(value: 0)
            var recording: BindTrace.Recording?
        }
        let joined = Joined()
        let outer = try #require(
            BindTrace.capture {
                let source = Output<Int>(value: 0).labeled("joined source")
                let derived = Output<Int>(value: 0).labeled("joined derived")
                source.bind { value in
                    guard value == 1 else { return }
                    // Another test's capture begins on another thread while this delivery runs.
                    Thread {
                        joined.recording = BindTrace.capture {
                            joined.begun.signal()
                            joined.finish.wait()
                        }
                        joined.ended.signal()
                    }.start()
                    joined.begun.wait()
                    derived.update(withValue: value)
                    joined.finish.signal()
                }
                source.update(withValue: 1)
                joined.ended.wait()
            })

        let events = try ownEvents(of: outer)
        let labels = Dictionary(
            events.compactMap { event -> (String, UInt64)? in
                if case .labeled(let output, let label) = event.kind { (label, output) } else { nil }
            }, uniquingKeysWith: { first, _ in first })
        let source = try #require(labels["joined source"])
        let derived = try #require(labels["joined derived"])
        let sourceUpdate = try #require(
            events.first { if case .updated(source, _, _) = $0.kind { true } else { false } })
        let derivedUpdate = try #require(
            events.first { if case .updated(derived, _, _) = $0.kind { true } else { false } })
        #expect(derivedUpdate.kind.cause?.event == sourceUpdate.sequence, "the running capture keeps the cause")

        let inner = try #require(joined.recording)
        let reader = try inner.reader()
        let innerEvents = try reader.readAll()
        let innerDerived = innerEvents.filter { if case .updated(derived, _, _) = $0.kind { true } else { false } }
        #expect(innerDerived.count == 1, "the update after the join is in the new capture")
        #expect(innerDerived.first?.kind.cause == nil, "its cause came before the capture: read as top level")
        #expect(reader.causesBeforeStart >= 1)
        #expect(reader.warnings.isEmpty, "a capture joining during a delivery is expected, not a problem")
    }

    @Test("64 threads that each update, then end: every update is in the trace, in each thread's order")
    func threadsThatEnd() throws {
        let rounds = 16
        let threadsPerRound = 4
        let updates = 5_000
        let recording = try #require(
            BindTrace.capture {
                for _ in 0..<rounds {
                    let finished = DispatchGroup()
                    for _ in 0..<threadsPerRound {
                        finished.enter()
                        Thread {
                            let output = Output<Int>(value: 0).labeled("ending thread")
                            for value in 1...updates { output.update(withValue: value) }
                            finished.leave()
                        }.start()
                    }
                    finished.wait()
                }
            })
        let events = try recording.events()
        checkConsistent(events)
        // Per Output: its updates, counted; each thread's updates are of its own Output, so a
        // thread number that changes within one Output's updates means two threads shared a ring.
        var counts: [UInt64: Int] = [:]
        var threadOf: [UInt64: UInt32] = [:]
        var own: Set<UInt64> = []
        for event in events {
            if case .labeled(let output, "ending thread") = event.kind { own.insert(output) }
            if case .outputCreated(let creation) = event.kind, creation.label == "ending thread" {
                own.insert(creation.output)
            }
            guard case .updated(let output, _, _) = event.kind, own.contains(output) else { continue }
            counts[output, default: 0] += 1
            if let thread = threadOf[output] {
                #expect(thread == event.thread, "one Output's updates all come from its thread")
            }
            threadOf[output] = event.thread
        }
        #expect(counts.count == rounds * threadsPerRound)
        #expect(counts.values.allSatisfy { $0 == updates })
        #expect(Set(threadOf.values).count == rounds * threadsPerRound, "each thread has a number of its own")
    }
}

/// Every test that records to a file: one file recording at a time (captures may run alongside).
@Suite("Trace files", .serialized, .requiresTracing)
struct TraceFileTests {
    @Test("a recording to a file is read back whole, with an end record")
    func fileRoundTrip() throws {
        let path = temporaryTracePath()
        defer { unlink(path) }
        try BindTrace.startRecording(toFile: path)
        let counter = Output<Int>(value: 0).labeled("file counter")
        for value in 1...500 { counter.update(withValue: value) }
        BindTrace.stopRecording()
        let reader = try TraceReader(path: path)
        let events = try reader.readAll()
        #expect(reader.isComplete)
        #expect(reader.warnings.isEmpty)
        let labeled = events.compactMap { event -> UInt64? in
            if case .labeled(let output, "file counter") = event.kind { output } else { nil }
        }
        let id = try #require(labeled.first)
        #expect(events.filter { if case .updated(id, _, _) = $0.kind { true } else { false } }.count == 500)
    }

    @Test("a file recorded while 4 threads update fast: the rings are merged in turn, nothing is lost")
    func fileWhileThreadsUpdateFast() throws {
        // Each thread fills its ring many times, so the rings are merged by a full ring's own
        // thread, by the other threads' locked events, by the flusher and at stop.
        let threads = 4
        let updates = 40_000
        let path = temporaryTracePath()
        defer { unlink(path) }
        try BindTrace.startRecording(toFile: path)
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            let source = Output<Int>(value: 0).labeled("fast file source")
            let derived = source.map { $0 + 1 }
            let subscription = derived.bind { _ in }
            for value in 1...updates { source.update(withValue: value) }
            subscription.unsubscribe()
        }
        BindTrace.stopRecording()
        let reader = try TraceReader(path: path)
        let events = try reader.readAll()
        #expect(reader.isComplete)
        #expect(reader.warnings.isEmpty)
        #expect(reader.lostEvents == 0)
        checkConsistent(events)
        var sources: Set<UInt64> = []
        var counts: [UInt64: Int] = [:]
        for event in events {
            if case .labeled(let output, "fast file source") = event.kind { sources.insert(output) }
            if case .updated(let output, _, _) = event.kind, sources.contains(output) {
                counts[output, default: 0] += 1
            }
        }
        #expect(counts.count == threads)
        #expect(counts.values.allSatisfy { $0 == updates })
    }

    @Test("files recorded one after another while threads update: each holds only its own stream's events")
    func filesOneAfterAnother() throws {
        // Two threads keep updating while files open and close: whatever they record as a file
        // closes must reach that file or no file, never the next one (whose strings and Outputs
        // it would not know).
        final class Stop: @unchecked Sendable {
            let lock = NSLock()
            var stopped = false
            var isStopped: Bool { lock.withLock { stopped } }
        }
        let stop = Stop()
        let finished = DispatchGroup()
        for _ in 0..<2 {
            finished.enter()
            Thread {
                let source = Output<Int>(value: 0).labeled("updated across files")
                let derived = source.map { $0 + 1 }
                let subscription = derived.bind { _ in }
                var value = 0
                while !stop.isStopped {
                    value += 1
                    source.update(withValue: value)
                }
                subscription.unsubscribe()
                finished.leave()
            }.start()
        }
        defer {
            stop.lock.withLock { stop.stopped = true }
            finished.wait()
        }
        for _ in 0..<20 {
            let path = temporaryTracePath()
            defer { unlink(path) }
            try BindTrace.startRecording(toFile: path)
            usleep(2_000)
            BindTrace.stopRecording()
            let reader = try TraceReader(path: path)
            let events = try reader.readAll()
            #expect(reader.isComplete)
            checkConsistent(events)
        }
    }

    @Test("starting to record an unwritable path is a clear error")
    func unwritablePath() {
        #expect(throws: TraceRecordingError.self) { try BindTrace.startRecording(toFile: "/nonexistent/dir/x.trace") }
    }

    @Test("a process killed with SIGKILL leaves a trace readable up to its last flush")
    func killedProcess() throws {
        let path = temporaryTracePath()
        defer { unlink(path) }
        let process = Process()
        process.executableURL = productsDirectory().appendingPathComponent("TraceFixture")
        process.arguments = ["2000"]
        process.environment = ProcessInfo.processInfo.environment.merging(["BIND_TRACE": path]) { $1 }
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        // The fixture says when 2000 updates are past a flush, then keeps updating until killed.
        let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        #expect(line.hasPrefix("flushed 2000"))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)

        let reader = try TraceReader(path: path)
        let events = try reader.readAll()
        let updates = events.filter { if case .updated = $0.kind { true } else { false } }.count
        #expect(updates >= 2000)
        #expect(!reader.isComplete)
        #expect(!reader.warnings.isEmpty, "a killed recording is reported, not presented as complete")
    }
}
