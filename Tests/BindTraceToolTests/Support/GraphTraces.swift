import Bind
import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Traces for the `graph` and `report` commands, written in the trace format directly.
enum GraphTraces {
    /// A small app: 'email' mapped to 'normalized', combined with 'password' into 'credentials',
    /// a closure bound to 'credentials', and 'title' leaking a subscription from a scope (its handle dropped).
    static func app(labels: [String]? = nil) -> [UInt8] {
        let names = labels ?? ["email", "normalized", "password", "credentials", "title"]
        var trace = TraceFileWriter()
        trace.thread(1)
        trace.output(1, type: "String", line: 3, label: names[0])
        trace.output(2, kind: .map, type: "String", line: 4, label: names[1])
        trace.edge(1, 2, .map)
        trace.bind(1, to: 1, line: 4, isInternal: true)
        trace.output(3, type: "String", line: 5, label: names[2])
        trace.output(4, kind: .combine, type: "(String, String)", line: 6, label: names[3])
        trace.edge(2, 4, .combine)
        trace.edge(3, 4, .combine)
        trace.bind(2, to: 2, line: 6, isInternal: true)
        trace.bind(3, to: 3, line: 6, isInternal: true)
        trace.bind(4, to: 4, file: "App/View.swift", line: 20)
        trace.update(1)
        trace.output(5, type: "String", file: "App/Model.swift", line: 3, label: names[4])
        trace.beginScope(1, name: "cell", line: 10)
        trace.bind(5, to: 5, file: "App/Cell.swift", line: 12, target: ("Label", 77), scope: 1)
        trace.handleReleased(5)  // the cell dropped its Subscription: nothing can unbind it any more
        trace.endScope(1)
        trace.end()
        return trace.bytes
    }

    /// Two Outputs whose closures update each other: a feedback-cycle error.
    static func loop() -> [UInt8] {
        var trace = TraceFileWriter()
        trace.thread(1)
        trace.output(1, line: 3, label: "a")
        trace.output(2, line: 4, label: "b")
        trace.bind(1, to: 1, line: 20)
        trace.bind(2, to: 2, line: 21)
        let first = trace.update(1)
        let second = trace.update(2, cause: (1, first))
        trace.update(1, cause: (2, second))
        trace.end()
        return trace.bytes
    }

    /// `count` Outputs, each from its own line (so nothing collapses), each mapped from an earlier one.
    static func big(count: Int) -> [UInt8] {
        var trace = TraceFileWriter()
        trace.thread(1)
        var random: UInt64 = 12345
        for index in 1...UInt64(count) {
            trace.output(index, kind: index == 1 ? .output : .map, line: index, label: "node \(index)")
            if index > 1 {
                random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let source = 1 + (random >> 33) % (index - 1)
                trace.edge(source, index, .map)
                trace.bind(index, to: source, line: index, isInternal: true)
            }
        }
        trace.end()
        return trace.bytes
    }
}

/// The text of an SVG document's elements, for checking what was drawn.
struct SVGText {
    let parsed: Bool
    let parseError: String?
    let texts: [String]
    let elements: Set<String>

    init(_ data: Data) {
        let collector = Collector()
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        parser.delegate = collector
        parsed = parser.parse()
        parseError = parser.parserError.map { "\($0) at line \(parser.lineNumber)" }
        texts = collector.texts
        elements = collector.elements
    }

    private final class Collector: NSObject, XMLParserDelegate {
        var texts: [String] = []
        var elements: Set<String> = []
        private var text = ""

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            elements.insert(name.lowercased())
            text = ""
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            if name == "text" { texts.append(text) }
            text = ""
        }
    }
}

/// A fresh directory under the temporary directory, removed by `cleanUp()`.
struct TemporaryDirectory {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("bind-trace-out-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> String { path + "/" + name }

    func contents(_ name: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: file(name))) }

    func cleanUp() { try? FileManager.default.removeItem(atPath: path) }
}
