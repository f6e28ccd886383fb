@_spi(Harness) import BindAnalysis
@_spi(Harness) import BindTraceModel
import BindTraceTestSupport
import Testing

/// Cells that each bind to a long-lived Output in their scope; every third leaks its subscription
/// (drops its handle while it is bound), every fifth binds a Binder whose target goes away; one
/// update names an Output never created.
private func leakyCells(_ count: UInt64) -> TraceBuilder {
    var trace = TraceBuilder()
    trace.output(1, line: 10, label: "theme")
    for cell in 1...count {
        trace.thread = UInt32(1 + cell % 2)
        let scope = 100 + cell
        let item = 1000 + cell
        trace.beginScope(scope, name: "cell", line: 20)
        trace.output(item, line: 21, scope: scope)
        let bind = trace.bind(cell, to: 1, line: 22, scope: scope)
        let target = cell % 5 == 0 ? BinderTarget(type: "Label", identity: 0xB000 + cell) : nil
        trace.bind(10_000 + cell, to: item, line: 23, target: target, scope: scope)
        let update = trace.update(1, cause: nil, preview: cell % 4 == 0 ? "\(cell)" : nil)
        trace.update(item, cause: TraceCause(subscription: cell, event: update))
        if target != nil { trace.add(.dangling(subscription: 10_000 + cell)) }
        _ = bind
        trace.unbind(10_000 + cell)
        if cell % 3 != 0 { trace.unbind(cell) } else { trace.add(.handleReleased(subscription: cell)) }
        trace.release(item)
        trace.endScope(scope)
        trace.update(1)
    }
    trace.update(999_999)
    return trace
}

@Suite("Analysis read ahead on a second thread")
struct ReadAheadAnalysisTests {
    @Test("the pipelined analysis finds exactly what a plain sequential read finds")
    func sameFindings() throws {
        let bytes = leakyCells(400).bytes
        for options in [AnalysisOptions(), AnalysisOptions(stateAt: 1234)] {
            let plain = TraceAnalyzer.analyze(events: try TraceReader(bytes: bytes).readAll(), options: options)
            #expect(!plain.findings.isEmpty)
            #expect(!plain.traceErrors.isEmpty)
            for readAhead in [true, false] {
                var batches = 0
                var lastCount: UInt64 = 0
                let result = try TraceAnalyzer.analyze(
                    reader: TraceReader(bytes: bytes), options: options, readAhead: readAhead
                ) { _, events in
                    batches += 1
                    #expect(events >= lastCount)
                    lastCount = events
                }
                #expect(result.findings == plain.findings)
                #expect(result.traceErrors == plain.traceErrors)
                #expect(result.summary == plain.summary)
                #expect(result.state == plain.state)
                #expect(lastCount == plain.summary.events)
                #expect(batches >= 1)
            }
        }
    }

    @Test("a read error in the middle is thrown after every event before it was replayed")
    func errorInTheMiddle() throws {
        var bytes = leakyCells(50).bytes
        bytes.removeLast(2)  // the end record
        let offset = bytes.count
        bytes += [TraceFormat.Tag.update.rawValue, 1, 0x80]  // a field running past its record
        bytes += leakyCells(5).bytes.dropFirst(TraceFormat.headerSize)
        let expected = TraceReadError.malformedRecord(
            offset: offset, tag: TraceFormat.Tag.update.rawValue, reason: "record ends inside a field")
        for readAhead in [true, false] {
            var replayed: UInt64 = 0
            #expect(throws: expected) {
                _ = try TraceAnalyzer.analyze(
                    reader: TraceReader(bytes: bytes), options: AnalysisOptions(), readAhead: readAhead
                ) { _, events in replayed = events }
            }
            let before = try TraceReader(bytes: Array(bytes.prefix(offset))).readAll()
            #expect(replayed == UInt64(before.count))
        }
    }

    @Test("binds and creations batched with string ids judge as decoded events do; one text under two ids is one")
    func bindsByStringID() throws {
        // Given a cell's file name and a Binder type each defined under two ids (as another recording
        // thread may), and one Label bound from one line to one Output three times, under both ids (to
        // three different Outputs in one go it would be a loop over sources, not a duplicate)
        var trace = TraceWriter()
        let texts = ["App/Cell.swift", "Int", "Label", "App/Cell.swift", "Label", "thread 1"]
        for (index, text) in texts.enumerated() {
            trace.record(.string(id: UInt64(index + 1), utf8: Array(text.utf8)))
        }
        trace.record(.thread(index: 1, name: 6))
        var sequence: UInt64 = 0
        func add(_ event: EventRecord) {
            trace.record(.event(delta: 100, event))
            sequence += 1
        }
        for (output, file) in [(1, 1), (2, 4), (3, 1)] as [(UInt64, UInt64)] {
            add(
                .outputCreated(
                    output: output, kind: .output, valueType: 2, file: file, line: 7, label: 0, scope: 0,
                    preexisting: false, cause: .none))
        }
        for (subscription, output, file, type) in [(10, 1, 1, 3), (11, 1, 4, 5), (12, 1, 1, 3)]
            as [(UInt64, UInt64, UInt64, UInt64)]
        {
            add(
                .bound(
                    subscription: subscription, output: output, file: file, line: 9, flags: TraceFormat.BindFlag.binder,
                    target: EventRecord.BoundTarget(type: type, identity: 0xCE11), scope: 0, cause: .none))
        }
        add(.update(output: 1, cause: .none, preview: nil))
        add(.update(output: 3, cause: .none, preview: nil))
        trace.end()
        // When it is judged from batches and from decoded events
        let options = AnalysisOptions(atExit: true)
        let plain = TraceAnalyzer.analyze(events: try TraceReader(bytes: trace.bytes).readAll(), options: options)
        // Then both find one duplicate binding at the bind line, with the same summary and state
        let duplicates = plain.findings.filter { $0.kind == .duplicateBinding }
        #expect(duplicates.count == 1)
        #expect(duplicates.first?.site == SourceSite(file: "App/Cell.swift", line: 9))
        #expect(duplicates.first?.subscriptions.sorted() == [10, 11, 12])
        #expect(plain.summary.topSites.map(\.site) == [SourceSite(file: "App/Cell.swift", line: 7)])
        for readAhead in [true, false] {
            let result = try TraceAnalyzer.analyze(
                reader: TraceReader(bytes: trace.bytes), options: options, readAhead: readAhead
            ) { _, _ in }
            #expect(result.findings == plain.findings)
            #expect(result.traceErrors == plain.traceErrors)
            #expect(result.summary == plain.summary)
            #expect(result.state == plain.state)
        }
    }
}
