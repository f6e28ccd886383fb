extension GraphDocument {
    /// A reproducible random directed acyclic graph, for benchmarks and size tests.
    ///
    /// Node `i` is titled "output i"; each of the `Int(edgesPerNode × nodes)` edges runs from a
    /// uniformly chosen node to a uniformly chosen later one, so the graph is acyclic and edges
    /// span the whole graph (the hard case for `dot`'s crossing minimisation). The same arguments
    /// give the same document on every platform.
    ///
    /// - Complexity: O(nodes + edges).
    /// - Note: a benchmark and test hook, not API: `@_spi(Harness) import BindGraph`.
    @_spi(Harness) public static func randomDAG(nodes count: Int, edgesPerNode: Double = 1.5, seed: UInt64 = 1)
        -> GraphDocument
    {
        var random = SplitMix64(seed: seed)
        let count = max(count, 0)
        var document = GraphDocument(title: "Random DAG: \(count) nodes")
        document.nodes = (0..<count).map { index in
            Node(id: "n\(index)", title: "output \(index)", lines: ["map · \(index % 5) subscribers"])
        }
        guard count > 1 else { return document }
        let edgeCount = Int(edgesPerNode * Double(count))
        document.edges.reserveCapacity(edgeCount)
        for _ in 0..<edgeCount {
            let head = 1 + Int(random.next() % UInt64(count - 1))
            let tail = Int(random.next() % UInt64(head))
            document.edges.append(Edge(from: "n\(tail)", to: "n\(head)"))
        }
        return document
    }
}

/// Sebastiano Vigna's SplitMix64: tiny, fast, and identical everywhere (unlike the system generator).
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
