import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

/// What a test needs to know about an SVG file Graphviz wrote: did it parse as XML, and which
/// nodes, edges and clusters did it draw with which text.
struct SVGInspection {
    struct Group: Equatable {
        var title = ""
        var texts: [String] = []
        var tooltips: [String] = []
    }

    var parsed = false
    var parseError: String?
    var nodes: [Group] = []
    var edges: [Group] = []
    var clusters: [Group] = []
    var elementNames: Set<String> = []
    var attributeValues: [String] = []

    init(_ data: Data) {
        let collector = Collector()
        let parser = XMLParser(data: data)
        // Graphviz's DOCTYPE names an external DTD; never fetch it.
        parser.shouldResolveExternalEntities = false
        parser.delegate = collector
        parsed = parser.parse()
        parseError = parser.parserError.map { "\($0)" }
        nodes = collector.groups(of: "node")
        edges = collector.groups(of: "edge")
        clusters = collector.groups(of: "cluster")
        elementNames = collector.elementNames
        attributeValues = collector.attributeValues
    }

    /// The node drawn for the node named `title` (its id).
    func node(titled title: String) -> Group? { nodes.first { $0.title == title } }

    private final class Collector: NSObject, XMLParserDelegate {
        var elementNames: Set<String> = []
        var attributeValues: [String] = []
        private var stack: [(kind: String?, group: Group)] = []
        private var finished: [(kind: String, group: Group)] = []
        private var text = ""
        private var inTitle = false

        func groups(of kind: String) -> [Group] { finished.filter { $0.kind == kind }.map(\.group) }

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            elementNames.insert(name.lowercased())
            attributeValues += attributes.values
            text = ""
            switch name {
            case "g":
                stack.append((attributes["class"], Group()))
            case "title":
                inTitle = true
            case "a":
                if let tooltip = attributes["xlink:title"], let index = currentGroup() {
                    stack[index].group.tooltips.append(tooltip)
                }
            default:
                break
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            switch name {
            case "g":
                if let (kind, group) = stack.popLast(), let kind { finished.append((kind, group)) }
            case "title":
                if let index = currentGroup() { stack[index].group.title = text }
                inTitle = false
            case "text":
                if let index = currentGroup() { stack[index].group.texts.append(text) }
            default:
                break
            }
            text = ""
        }

        /// The innermost enclosing `<g>` with a class (`node`, `edge`, `cluster`).
        private func currentGroup() -> Int? { stack.lastIndex { $0.kind != nil } }
    }
}
