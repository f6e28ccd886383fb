import Bind
@_spi(Harness) import BindTraceModel
import BindTraceTestSupport
import Foundation

/// The events of `recording` that belong to its own scope: Outputs created and subscriptions bound
/// inside it, and every later event about them. Tests run in parallel, so a capture also holds
/// other tests' events.
func ownEvents(of recording: BindTrace.Recording) throws -> [TraceEvent] {
    var scopes: Set<UInt64> = [recording.scope]
    var outputs: Set<UInt64> = []
    var subscriptions: Set<UInt64> = []
    var own: [TraceEvent] = []
    var ownSequences: Set<UInt64> = []
    for event in try recording.events() {
        var mine = false
        switch event.kind {
        case .scopeBegan(let id, let parent, _, _):
            if id == recording.scope || scopes.contains(parent) {
                scopes.insert(id)
                mine = true
            }
        case .scopeEnded(let id): mine = scopes.contains(id)
        case .outputCreated(let creation):
            if scopes.contains(creation.scope) && !creation.preexisting {
                outputs.insert(creation.output)
                mine = true
            }
        case .bound(let binding):
            if outputs.contains(binding.output) || scopes.contains(binding.scope) {
                subscriptions.insert(binding.subscription)
                mine = true
            }
        default:
            // Every other kind is about Outputs, subscriptions, scopes or events already kept.
            mine = event.kind.subjects.contains { subject in
                switch subject {
                case .output(let output): outputs.contains(output)
                case .subscription(let subscription): subscriptions.contains(subscription)
                case .scope(let scope): scopes.contains(scope)
                case .event(let sequence): ownSequences.contains(sequence)
                }
            }
        }
        if mine {
            own.append(event)
            ownSequences.insert(event.sequence)
        }
    }
    return own
}

/// A fresh path for a trace file in the temporary directory.
func temporaryTracePath(_ name: String = #function) -> String {
    let safe = name.filter { $0.isLetter || $0.isNumber }
    return NSTemporaryDirectory() + "bind-\(safe)-\(UInt32.random(in: 0...UInt32.max)).trace"
}

/// The directory of the built products (where `swift test` put this test bundle).
func productsDirectory() -> URL {
    var url = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    while url.path != "/" {
        if FileManager.default.fileExists(atPath: url.appendingPathComponent("TraceFixture").path) { return url }
        url.deleteLastPathComponent()
    }
    return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
}

/// A trace built record by record for testing the reader on bad input: the shared `TraceWriter`
/// without its clock, plus raw records.
struct TraceBytes {
    var writer: TraceWriter
    var bytes: [UInt8] {
        get { writer.bytes }
        set { writer.bytes = newValue }
    }

    init(major: UInt16 = 1, minor: UInt16 = 0) {
        writer = TraceWriter(major: major, minor: minor, clock: false)
    }

    static func varint(_ value: UInt64) -> [UInt8] { TraceWriter.varint(value) }

    mutating func record(_ tag: UInt8, _ fields: [UInt64], trailing: [UInt8] = []) {
        writer.raw(tag: tag, fields: fields, trailing: trailing)
    }

    mutating func string(_ id: UInt64, _ text: String) { writer.record(.string(id: id, utf8: Array(text.utf8))) }
    mutating func clock() { writer.record(.clock(ticks: 1000, nanoseconds: 5000, ticksPerSecond: 1_000_000_000)) }
    /// An update event of `output` with no cause and no preview.
    mutating func update(_ output: UInt64) {
        writer.event(.updated(output: output, cause: nil, preview: nil), delta: 1)
    }
}
