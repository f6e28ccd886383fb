import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

/// What an XML parser saw in a document: whether it is well-formed, and every element and attribute name.
public struct XMLScan {
    public var isWellFormed: Bool
    public var elements: [String]
    public var attributes: [String]
    public var error: String?

    public init(_ text: String) {
        let delegate = Collector()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = delegate
        isWellFormed = parser.parse()
        error = parser.parserError.map { "\($0)" }
        elements = delegate.elements
        attributes = delegate.attributes
    }

    private final class Collector: NSObject, XMLParserDelegate {
        var elements: [String] = []
        var attributes: [String] = []

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
            attributes attributeDict: [String: String] = [:]
        ) {
            elements.append(elementName)
            attributes.append(contentsOf: attributeDict.keys)
        }
    }
}
