@_spi(Harness) import BindAnalysis
@_spi(Harness) import BindTraceModel

/// Builds a graph state the way the analysis does: from trace events, replayed.
struct TraceStates {
    private(set) var events: [TraceEvent] = []
    static let file = "App/Screen.swift"

    static func site(_ line: UInt, file: String = file) -> SourceSite { SourceSite(file: file, line: line) }

    @discardableResult
    mutating func add(_ kind: TraceEvent.Kind) -> UInt64 {
        let sequence = UInt64(events.count + 1)
        events.append(
            TraceEvent(sequence: sequence, time: sequence * 1000, thread: 1, offset: Int(sequence) * 100, kind: kind))
        return sequence
    }

    mutating func output(
        _ id: UInt64, _ kind: OutputKind = .output, line: UInt = 1, file: String = file, label: String? = nil,
        type: String = "Int"
    ) {
        add(
            .outputCreated(
                .init(output: id, kind: kind, valueType: type, site: Self.site(line, file: file), label: label)))
    }

    /// `derived` made by `operation` from `sources`, with the operator's own subscriptions.
    mutating func derive(
        _ derived: UInt64, _ operation: OutputKind, from sources: [UInt64], line: UInt = 5, label: String? = nil
    ) {
        output(derived, operation, line: line, label: label)
        for source in sources {
            add(.edge(source: source, derived: derived, operation: operation))
            bind(1_000 + derived * 10 + source, to: source, line: line, isInternal: true)
        }
    }

    mutating func bind(
        _ subscription: UInt64, to output: UInt64, line: UInt = 9, file: String = file, isInternal: Bool = false,
        target: String? = nil
    ) {
        add(
            .bound(
                .init(
                    subscription: subscription, output: output, site: Self.site(line, file: file),
                    isInternal: isInternal,
                    target: target.map { BinderTarget(type: $0, identity: subscription) })))
    }

    mutating func update(_ output: UInt64, preview: String? = nil) {
        add(.updated(output: output, cause: nil, preview: preview))
    }

    mutating func release(_ output: UInt64) { add(.released(output: output)) }

    func state(at sequence: UInt64? = nil, keepingReleased: Bool = false) -> GraphState {
        TraceAnalyzer.analyze(events: events, options: .init(keepsReleasedOutputs: keepingReleased, stateAt: sequence))
            .state
    }

    /// The sign-in shape: email → map → ignoringDuplicates, combined with password; a relay
    /// flatMapped to requests; filter, merge, reduce; a Label binder ×2 and a closure.
    static func signIn() -> TraceStates {
        var trace = TraceStates()
        trace.output(1, label: "email", type: "String")
        trace.output(2, label: "password", type: "String")
        trace.output(3, .relay, label: "tapped", type: "()")
        trace.derive(4, .map, from: [1])
        trace.derive(5, .ignoringDuplicates, from: [4], label: "normalized email")
        trace.derive(6, .combine, from: [5, 2], label: "credentials")
        trace.derive(7, .filter, from: [6])
        trace.derive(8, .flatMap, from: [3], label: "session")
        trace.output(9, label: "request 1")
        trace.add(.innerSwitch(flatMap: 8, inner: 9))
        trace.output(10, label: "request 2")
        trace.add(.innerSwitch(flatMap: 8, inner: 10))
        trace.derive(11, .merge, from: [7, 8], label: "status")
        trace.derive(12, .reduce, from: [11], label: "count")
        trace.bind(20, to: 11, line: 30, file: "App/View.swift", target: "Label")
        trace.bind(21, to: 11, line: 30, file: "App/View.swift", target: "Label")
        trace.bind(22, to: 5, line: 31, file: "App/View.swift")
        trace.update(1, preview: "ada@example.com")
        return trace
    }
}
