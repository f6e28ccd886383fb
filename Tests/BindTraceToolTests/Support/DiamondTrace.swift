@_spi(Harness) import BindTraceModel
import BindTraceTestSupport

/// A sign-in form's diamond, as the recorder writes it (1.3, with values and call sites):
/// 'email' (1) → map 'valid' (2) and map 'long enough' (3) → combine 'can submit' (4) → a closure
/// (App/Form.swift:20) that sets 'status' (5), which a Binder shows (App/View.swift:30). One root
/// update of 'email' at App/Form.swift:40 reaches the combine twice: first with one map's new value
/// and the other's old one ("invalid" for a moment), then with both ("ok").
struct DiamondTrace {
    var writer = TraceWriter()
    /// The events of the propagation, by name.
    var root: UInt64 = 0
    var firstMap: UInt64 = 0
    var firstCombine: UInt64 = 0
    var firstStatus: UInt64 = 0
    var secondMap: UInt64 = 0
    var secondCombine: UInt64 = 0
    var secondStatus: UInt64 = 0
    /// How many events the trace holds.
    var events: UInt64 { writer.sequence }

    static let form = "App/Form.swift"

    /// `meet`: whether the two maps update inside one propagation (the glitch); false for the clean
    /// twin, whose second map is driven by a later root update of its own.
    init(meet: Bool = true) {
        writer.thread(1, name: "main")
        output(1, .output, "String", line: 3, label: "email")
        output(2, .map, "Bool", line: 5, label: "valid")
        output(3, .map, "Bool", line: 6, label: "long enough")
        output(4, .combine, "(Bool, Bool)", line: 7, label: "can submit")
        output(5, .output, "String", line: 8, label: "status")
        edge(1, 2, .map)
        bind(1, to: 1, line: 5, isInternal: true)
        edge(1, 3, .map)
        bind(2, to: 1, line: 6, isInternal: true)
        edge(2, 4, .combine)
        bind(3, to: 2, line: 7, isInternal: true)
        edge(3, 4, .combine)
        bind(4, to: 3, line: 7, isInternal: true)
        bind(5, to: 4, line: 20)
        writer.event(
            .bound(
                TraceEvent.Binding(
                    subscription: 6, output: 5, site: SourceSite(file: "App/View.swift", line: 30),
                    target: BinderTarget(type: "App.StatusLabel", identity: 0x1000))))

        root = update(1, "ada@example.com", cause: nil)
        writer.event(.calledAt(event: root, site: SourceSite(file: Self.form, line: 40)))
        firstMap = update(2, "true", cause: TraceCause(subscription: 1, event: root))
        firstCombine = update(4, "(true, false)", cause: TraceCause(subscription: 3, event: firstMap))
        firstStatus = update(5, "invalid", cause: TraceCause(subscription: 5, event: firstCombine))
        var secondRoot = root
        if !meet {
            secondRoot = update(1, "ada@example.com", cause: nil)
            writer.event(.calledAt(event: secondRoot, site: SourceSite(file: Self.form, line: 41)))
        }
        secondMap = update(3, "true", cause: TraceCause(subscription: 2, event: secondRoot))
        secondCombine = update(4, "(true, true)", cause: TraceCause(subscription: 4, event: secondMap))
        secondStatus = update(5, "ok", cause: TraceCause(subscription: 5, event: secondCombine))
        writer.end()
    }

    var bytes: [UInt8] { writer.bytes }

    private mutating func output(_ id: UInt64, _ kind: OutputKind, _ type: String, line: UInt, label: String) {
        writer.event(
            .outputCreated(
                TraceEvent.OutputCreation(
                    output: id, kind: kind, valueType: type, site: SourceSite(file: Self.form, line: line),
                    label: label)))
    }

    private mutating func edge(_ source: UInt64, _ derived: UInt64, _ operation: OutputKind) {
        writer.event(.edge(source: source, derived: derived, operation: operation))
    }

    private mutating func bind(_ subscription: UInt64, to output: UInt64, line: UInt, isInternal: Bool = false) {
        writer.event(
            .bound(
                TraceEvent.Binding(
                    subscription: subscription, output: output, site: SourceSite(file: Self.form, line: line),
                    isInternal: isInternal)))
    }

    private mutating func update(_ output: UInt64, _ value: String, cause: TraceCause?) -> UInt64 {
        writer.event(.updated(output: output, cause: cause, preview: value))
    }
}
