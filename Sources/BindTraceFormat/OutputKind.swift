/// What made an Output: recorded in traces and drawn in graphs.
///
/// The raw values are part of the trace format (docs/trace-format.md): never renumber them.
public enum OutputKind: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    /// An `Output` the app made: it stores its latest value.
    case output = 0
    /// A `Relay`: a stateless Output that forgets each value once it has passed it on.
    case relay
    /// `combine`: the latest pair of values of two sources.
    case combine
    /// `merge`: every value of either source.
    case merge
    /// `map`: a transform applied to each value.
    case map
    /// `flatMap`: the values of the inner Output the latest value picks.
    case flatMap
    /// `filter`: the values that pass a test.
    case filter
    /// `reduce`: the running result over every value.
    case reduce
    /// `ignoringDuplicates`: a value only when it differs from the one before.
    case ignoringDuplicates

    /// The kind as traces, summaries and reports spell it: `output`, `relay`, `map`, `flatMap`, ….
    public var description: String {
        switch self {
        case .output: "output"
        case .relay: "relay"
        case .combine: "combine"
        case .merge: "merge"
        case .map: "map"
        case .flatMap: "flatMap"
        case .filter: "filter"
        case .reduce: "reduce"
        case .ignoringDuplicates: "ignoringDuplicates"
        }
    }

    /// Whether this kind is made by an operator from other Outputs.
    package var isDerived: Bool { self != .output && self != .relay }
}
