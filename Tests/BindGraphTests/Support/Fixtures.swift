@_spi(Harness) @testable import BindGraph

/// Small documents the tests share.
enum Fixtures {
    /// Three nodes in a chain a → b → c, titled "first", "second", "third".
    static func chain() -> GraphDocument {
        GraphDocument(
            nodes: [
                .init(id: "a", title: "first", lines: ["Relay<String>"]),
                .init(id: "b", title: "second", lines: ["map"]),
                .init(id: "c", title: "third", lines: ["filter"], faded: true),
            ],
            edges: [.init(from: "a", to: "b", label: "map"), .init(from: "b", to: "c", style: .dashed)]
        )
    }

    /// One node whose title and detail line are `text`, pointing at a plain node.
    static func single(label text: String, tooltip: String? = nil) -> GraphDocument {
        GraphDocument(
            nodes: [
                .init(id: "hostile", title: text, lines: [text], tooltip: tooltip), .init(id: "plain", title: "plain"),
            ],
            edges: [.init(from: "hostile", to: "plain", label: text)]
        )
    }
}

extension Array where Element == UInt8 {
    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
}
