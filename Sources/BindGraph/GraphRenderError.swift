/// Why a ``GraphDocument`` could not be drawn.
@_spi(Harness) public enum GraphRenderError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Two nodes share an id (after sanitising; ids differing only in control characters collide).
    case duplicateNodeID(String)
    /// Edge number `edgeIndex` names a node id that is not in the document.
    case unknownNode(String, edgeIndex: Int)
    /// Graphviz could not create its context (its plugin configuration is missing or broken).
    case contextUnavailable
    /// Graphviz refused to create a graph object (out of memory).
    case graphConstructionFailed(String)
    /// The layout engine is unknown or failed; `messages` are Graphviz's own words.
    case layoutFailed(engine: String, messages: [String])
    /// The output format is unknown or rendering failed; `messages` are Graphviz's own words.
    case renderFailed(format: String, messages: [String])
    /// Graphviz finished but reported errors on the way (the picture would be wrong).
    case graphvizErrors([String])

    public var description: String {
        switch self {
        case .duplicateNodeID(let id):
            return "two nodes have the id \(Self.quoted(id))"
        case .unknownNode(let id, let edgeIndex):
            return "edge \(edgeIndex) refers to node \(Self.quoted(id)), which is not in the graph"
        case .contextUnavailable:
            return "Graphviz could not start (is its plugin configuration installed? try `dot -c`)"
        case .graphConstructionFailed(let what):
            return "Graphviz could not create \(what)"
        case .layoutFailed(let engine, let messages):
            return "Graphviz layout \(Self.quoted(engine)) failed" + Self.because(messages)
        case .renderFailed(let format, let messages):
            return "Graphviz could not render \(Self.quoted(format))" + Self.because(messages)
        case .graphvizErrors(let messages):
            return "Graphviz reported errors" + Self.because(messages)
        }
    }

    private static func quoted(_ text: String) -> String {
        "\"" + GraphLabel.singleLine(text, limits: .shortLine) + "\""
    }

    /// Graphviz may repeat a message once per node; a description shows the first few.
    private static func because(_ messages: [String]) -> String {
        let shown = 3
        guard !messages.isEmpty else { return "" }
        let more = messages.count > shown ? " (and \(messages.count - shown) more)" : ""
        return ": " + messages.prefix(shown).joined(separator: "; ") + more
    }
}
