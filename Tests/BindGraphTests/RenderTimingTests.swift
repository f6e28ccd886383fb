import Foundation
import Testing

@_spi(Harness) @testable import BindGraph

private let timingDirectory = ProcessInfo.processInfo.environment["BIND_GRAPH_TIMING_DIR"].map {
    URL(fileURLWithPath: $0)
}

/// Opt-in measurements for docs/graph-rendering.md, not specifications: run with
/// `BIND_GRAPH_TIMING_DIR=/tmp/timing swift test --filter RenderTimingTests`. Each size writes
/// `dag-N.dot` (canonical DOT emitted by Graphviz from our graph, our attributes included) so the
/// command-line tools can lay out exactly the same graph, and prints our own times.
@Suite("Render timings", .serialized, .enabled(if: timingDirectory != nil))
struct RenderTimingTests {
    static let directory = timingDirectory

    @Test(
        "random DAGs of 1,000 and 10,000 nodes",
        arguments: [
            (500, GraphLayout.dot), (1_000, .dot), (1_000, .sfdp), (2_000, .dot), (2_000, .sfdp), (10_000, .sfdp),
        ])
    func timing(nodes: Int, layout: GraphLayout) throws {
        let directory = try #require(Self.directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let document = GraphDocument.randomDAG(nodes: nodes)
        let renderer = GraphvizRenderer()

        let start = ContinuousClock.now
        let rendered = try renderer.render(document, format: .svg, layout: layout)
        let elapsed = ContinuousClock.now - start
        print(
            "timing: \(nodes) nodes, \(layout) → svg: \(elapsed) (\(rendered.data.count) bytes, warnings: \(rendered.warnings))"
        )

        let dot = try renderer.render(document, format: .canonicalDOT, layout: layout)
        try dot.data.write(to: directory.appendingPathComponent("dag-\(nodes)-\(layout).dot"))
    }

    @Test("a sample picture with clusters, a faded node and a legend")
    func sample() throws {
        let directory = try #require(Self.directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var document = Fixtures.chain()
        document.title = "Sample: sign-in screen"
        document.direction = .leftToRight
        document.clusters = [.init(key: "vm", title: "SignInViewModel", fillColor: .paleGray)]
        document.nodes[0].cluster = "vm"
        document.nodes[1].cluster = "vm"
        document.nodes.append(
            .init(
                id: "x", title: #"<script>"q" \N &lt;"#,
                lines: ["bad \u{FFFD} \u{1B}[31m", String(repeating: "long ", count: 40)], fillColor: .paleRed,
                borderColor: .red))
        document.edges.append(.init(from: "c", to: "x", label: "flatMap", style: .bold, color: .red))
        document.legend = .init(
            nodes: [
                .init(label: "alive"), .init(label: "leaked", fillColor: .paleRed, borderColor: .red),
                .init(label: "deallocated", faded: true),
            ],
            edges: [.init(label: "binding"), .init(label: "flatMap inner", style: .dashed)]
        )
        for format in [GraphFormat.svg, .png, .dot] {
            try GraphvizRenderer().render(document, format: format).data.write(
                to: directory.appendingPathComponent("sample.\(format == .dot ? "gv" : format.rawValue)"))
        }
    }
}
