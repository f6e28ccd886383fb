/// What made an Output: recorded in traces and drawn in graphs.
///
/// The raw values are part of the trace format (docs/trace-format.md): never renumber them.
public enum OutputKind: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    case output = 0, relay, combine, merge, map, flatMap, filter, reduce, ignoringDuplicates

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
