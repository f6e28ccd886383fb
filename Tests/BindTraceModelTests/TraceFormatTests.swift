import BindTraceFormat
@_spi(Harness) import BindTraceModel
import BindTraceTestSupport
import Testing

@Suite("The format: one encoder and one decoder for every record")
struct TraceFormatTests {
    static let site = SourceSite(file: "App/Screen.swift", line: 12)

    /// One event of every kind, with every optional field set somewhere.
    static let everyKind: [TraceEvent.Kind] = [
        .outputCreated(
            TraceEvent.OutputCreation(
                output: 1, kind: .map, valueType: "String", site: site, label: "email", scope: 3, preexisting: true)),
        .edge(source: 1, derived: 2, operation: .flatMap),
        .innerSwitch(flatMap: 2, inner: 1),
        .bound(
            TraceEvent.Binding(
                subscription: 4, output: 1, site: site, isInternal: true,
                target: BinderTarget(type: "UILabel", identity: 0xDEAD_BEEF), scope: 3, preexisting: true,
                cause: TraceCause(subscription: 9, event: 1))),
        .updated(output: 1, cause: TraceCause(subscription: 4, event: 4), preview: "\"a@b\""),
        .fired(output: 2, cause: nil, preview: nil),
        .unbound(subscription: 4, reason: .container, cause: nil),
        .dangling(subscription: 4),
        .released(output: 2),
        .scopeBegan(id: 3, parent: 1, name: "sign-in", site: site),
        .scopeEnded(id: 3),
        .mark(name: "tap", scope: 3),
        .labeled(output: 1, label: "email field"),
        .subscriptionContained(subscription: 4, container: 77),
        .handleReleased(subscription: 4),
        .calledAt(event: 6, site: SourceSite(file: "App/Model.swift", line: 40)),
    ]

    @Test("every event kind written by the shared encoder reads back as itself")
    func roundTrip() throws {
        var trace = TraceWriter()
        for kind in Self.everyKind { trace.event(kind) }
        trace.end()
        let reader = try TraceReader(bytes: trace.bytes)
        let events = try reader.readAll()
        #expect(events.map(\.kind) == Self.everyKind)
        #expect(events.map(\.sequence) == Array(1...UInt64(Self.everyKind.count)))
        #expect(reader.gaps.isEmpty)
        #expect(reader.warnings.isEmpty)
    }

    @Test("a call site is defined once and read back by id; a site out of order or undefined is corruption")
    func callSites() throws {
        // Given two root updates called at one site
        var trace = TraceWriter()
        let site = SourceSite(file: "App/Model.swift", line: 40)
        let first = trace.event(.updated(output: 1, cause: nil, preview: nil))
        trace.event(.calledAt(event: first, site: site))
        let second = trace.event(.updated(output: 1, cause: nil, preview: nil))
        trace.event(.calledAt(event: second, site: site))
        trace.end()

        // Then both read back with it, and JSON Lines names it
        let events = try TraceReader(bytes: trace.bytes).readAll()
        #expect(events[1].kind == .calledAt(event: first, site: site))
        #expect(events[3].kind == .calledAt(event: second, site: site))
        #expect(JSONLines.line(for: events[1]).contains(#""root":1,"site":"App/Model.swift:40""#))

        // And a site defined out of order, or named but never defined, stops the reader
        var outOfOrder = TraceWriter()
        let file = outOfOrder.string("App/Model.swift")
        outOfOrder.record(.site(id: 2, file: file, line: 1))
        outOfOrder.record(.site(id: 1, file: file, line: 2))
        #expect(throws: TraceReadError.self) { try TraceReader(bytes: outOfOrder.bytes).readAll() }
        var undefined = TraceWriter()
        undefined.event(.updated(output: 1, cause: nil, preview: nil))
        undefined.raw(tag: 31, fields: [1, 1, 9])
        #expect(throws: TraceReadError.self) { try TraceReader(bytes: undefined.bytes).readAll() }
    }

    @Test("the handle events have names and JSON Lines fields")
    func handleEventsInJSONLines() throws {
        var trace = TraceWriter()
        trace.event(.subscriptionContained(subscription: 4, container: 77))
        trace.event(.handleReleased(subscription: 5))
        let events = try TraceReader(bytes: trace.bytes).readAll()
        #expect(events.map(\.kind.name) == ["subscriptionContained", "handleReleased"])
        #expect(
            JSONLines.line(for: events[0]).hasSuffix(
                #""event":"subscriptionContained","subscription":4,"container":77}"#))
        #expect(JSONLines.line(for: events[1]).hasSuffix(#""event":"handleReleased","subscription":5}"#))
    }

    @Test("the recorder's in-place update encoding writes exactly what the general encoder writes")
    func hotPathMatchesEncoder() {
        let values: [UInt64] = [0, 1, 127, 128, 300, 1 << 35, .max]
        for fire in [false, true] {
            for delta in values {
                for output in values {
                    for back in [0, 1, 129, UInt64.max] {
                        let cause = back == 0 ? CauseField.none : CauseField(back: back, subscription: output ^ 7)
                        var expected: [UInt8] = []
                        let event: EventRecord =
                            fire
                            ? .fire(output: output, cause: cause, preview: nil)
                            : .update(output: output, cause: cause, preview: nil)
                        TraceRecord.event(delta: delta, event).encode(into: &expected)
                        var buffer = [UInt8](repeating: 0xAA, count: 64)
                        let count = buffer.withUnsafeMutableBufferPointer {
                            RecordEncoder.encodeUpdate(
                                at: $0.baseAddress!, fire: fire, delta: delta, output: output, causeBack: cause.back,
                                causeSubscription: cause.subscription)
                        }
                        #expect(Array(buffer.prefix(count)) == expected, "delta \(delta) output \(output) back \(back)")
                    }
                }
            }
        }
    }

    @Test("the recorder's in-place bind and unbind encodings write exactly what the general encoder writes")
    func bindHotPathsMatchEncoder() {
        let values: [UInt64] = [0, 1, 127, 128, 300, 1 << 35, .max]
        let flagSets: [UInt64] = [
            0, TraceFormat.BindFlag.preexisting, TraceFormat.BindFlag.internal,
            TraceFormat.BindFlag.preexisting | TraceFormat.BindFlag.internal,
        ]
        for value in values {
            for other in values {
                for back in [0, 1, 129, UInt64.max] {
                    let cause = back == 0 ? CauseField.none : CauseField(back: back, subscription: other ^ 7)
                    for flags in flagSets {
                        var expected: [UInt8] = []
                        TraceRecord.event(
                            delta: other,
                            .bound(
                                subscription: value, output: other, file: value ^ 3, line: other, flags: flags,
                                target: nil, scope: value, cause: cause)
                        ).encode(into: &expected)
                        var buffer = [UInt8](repeating: 0xAA, count: 128)
                        let count = buffer.withUnsafeMutableBufferPointer {
                            RecordEncoder.encodeBound(
                                at: $0.baseAddress!, delta: other, subscription: value, output: other, file: value ^ 3,
                                line: other, flags: flags, scope: value, cause: cause)
                        }
                        #expect(count <= 92)
                        #expect(Array(buffer.prefix(count)) == expected, "bound \(value) \(other) \(back) \(flags)")
                    }
                    for reason in UnbindReason.allCases {
                        var expected: [UInt8] = []
                        TraceRecord.event(delta: value, .unbound(subscription: other, reason: reason, cause: cause))
                            .encode(into: &expected)
                        var buffer = [UInt8](repeating: 0xAA, count: 64)
                        let count = buffer.withUnsafeMutableBufferPointer {
                            RecordEncoder.encodeUnbound(
                                at: $0.baseAddress!, delta: value, subscription: other, reason: reason, cause: cause)
                        }
                        #expect(count <= 52)
                        #expect(Array(buffer.prefix(count)) == expected, "unbound \(value) \(other) \(back) \(reason)")
                    }
                }
            }
        }
    }

    @Test("a long record's length takes several bytes and still decodes")
    func longRecord() throws {
        var trace = TraceWriter()
        let preview = String(repeating: "é", count: 5000)
        trace.event(.updated(output: 1, cause: nil, preview: preview))
        let events = try TraceReader(bytes: trace.bytes).readAll()
        #expect(events.map(\.kind) == [.updated(output: 1, cause: nil, preview: preview)])
    }
}

@Suite("The reader says when a trace is not whole")
struct TraceGapTests {
    private func read(_ bytes: [UInt8]) throws -> TraceReader {
        let reader = try TraceReader(bytes: bytes)
        _ = try reader.readAll()
        return reader
    }

    @Test("a whole trace has no gaps")
    func whole() throws {
        var trace = TraceWriter()
        trace.event(.released(output: 1))
        trace.end()
        #expect(try read(trace.bytes).gaps.isEmpty)
    }

    @Test("lost records are summed and reported as lost events")
    func lostEvents() throws {
        var trace = TraceWriter()
        trace.event(.released(output: 1))
        trace.record(.lost(count: 40))
        trace.event(.released(output: 2))
        trace.record(.lost(count: 2))
        trace.end()
        let reader = try read(trace.bytes)
        #expect(reader.lostEvents == 42)
        #expect(reader.gaps == [.lostEvents(42)])
        #expect(reader.gaps.map(\.description) == ["the recorder lost 42 events"])
    }

    @Test("a trace without its end record, and one cut inside a record, say so")
    func cutAndUnended() throws {
        var trace = TraceWriter()
        trace.event(.released(output: 1))
        #expect(try read(trace.bytes).gaps == [.noEndRecord])
        trace.event(.released(output: 2))
        let cut = try read(Array(trace.bytes.dropLast(1)))
        #expect(cut.gaps == [.cutShort(ignoredBytes: 4), .noEndRecord])
        #expect(cut.ignoredBytes == 4)  // tag, length, a 2-byte tick delta: the output id was cut
    }
}

@Suite("The reader's strings are bounded and stored once")
struct TraceStringTests {
    @Test("a label shared by 5,000 Outputs is stored once, even when defined again under new ids")
    func sharedLabel() throws {
        var trace = TraceWriter()
        let label = String(repeating: "x", count: 1024)
        for output in 1...5000 {
            // A hostile writer defines the same text again and again; the recorder would reuse one id.
            let id = UInt64(output)
            trace.record(.string(id: id, utf8: Array(label.utf8)))
            trace.record(.event(delta: 1, .label(output: UInt64(output), label: id)))
        }
        let events = try TraceReader(bytes: trace.bytes).readAll()
        let labels = events.compactMap { event -> String? in
            if case .labeled(_, let text) = event.kind { text } else { nil }
        }
        #expect(labels.count == 5000)
        let storages = Set(
            labels.map { text in
                text.utf8.withContiguousStorageIfAvailable { UInt(bitPattern: $0.baseAddress) } ?? 0
            })
        #expect(storages.count == 1, "one copy of the label, not one per Output")
    }

    @Test("a string longer than the reader's limit is corruption at its offset, before it is kept")
    func stringTooLong() throws {
        var trace = TraceWriter()
        let offset = trace.bytes.count
        trace.record(.string(id: 1, utf8: [UInt8](repeating: 65, count: 16 * 1024 + 1)))
        #expect(
            throws: TraceReadError.malformedRecord(
                offset: offset, tag: 2, reason: "string of 16385 bytes (at most 16384)")
        ) { try TraceReader(bytes: trace.bytes).readAll() }
    }

    @Test("a record longer than 64 KiB is refused by its claimed length")
    func recordTooLong() throws {
        var trace = TraceWriter()
        let offset = trace.bytes.count
        trace.raw(tag: 14, fields: [], trailing: [UInt8](repeating: 0, count: 64 * 1024 + 1))
        #expect(throws: TraceReadError.recordTooLong(offset: offset, length: 64 * 1024 + 1)) {
            try TraceReader(bytes: trace.bytes).readAll()
        }
    }
}
