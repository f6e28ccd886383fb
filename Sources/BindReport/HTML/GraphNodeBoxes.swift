/// Where each Output's node sits in the graph's SVG, for the page to draw highlights over the
/// `<img>` (which shows the graph inert, so nothing in it can be selected or styled).
///
/// Read from the SVG Graphviz wrote: the `viewBox`, the graph group's `scale(…)`/`translate(…)`, and
/// for each node group whose `<title>` is an Output node's id (`o12`, or `g12` for a collapsed
/// group whose first member is Output 12) or a subscriber node's (`o12-s1x2y`) the bounding box of its first shape (`<path d>`,
/// `<polygon points>` or `<ellipse>`). Anything else in the document is ignored; a document it
/// cannot read gives no boxes, and the page simply highlights nothing.
struct GraphNodeBoxes {
    struct Box: Equatable {
        /// The node's id in the graph: `o12`, `g12`, or a subscriber's `o12-s1x2y`.
        let node: String
        /// In `viewBox` units, from the top left.
        let x: Double
        let y: Double
        let width: Double
        let height: Double
    }

    var viewWidth: Double = 0
    var viewHeight: Double = 0
    var boxes: [Box] = []

    init(svg: String) {
        let text = Array(svg.utf8)
        guard let viewBox = Self.attribute("viewBox", in: text, from: 0).map(Self.numbers), viewBox.count == 4 else {
            return
        }
        viewWidth = viewBox[2]
        viewHeight = viewBox[3]
        var scale = (x: 1.0, y: 1.0)
        var translate = (x: 0.0, y: 0.0)
        if let graph = Self.find(Array("class=\"graph\"".utf8), in: text, from: 0),
            let transform = Self.attribute("transform", in: text, from: graph)
        {
            if let values = Self.function("scale", in: transform), let x = values.first {
                scale = (x, values.count > 1 ? values[1] : x)
            }
            if let values = Self.function("translate", in: transform), let x = values.first {
                translate = (x, values.count > 1 ? values[1] : 0)
            }
        }
        var position = 0
        while let node = Self.find(Array("class=\"node\"".utf8), in: text, from: position) {
            position = node + 1
            guard let titleStart = Self.find(Array("<title>".utf8), in: text, from: node),
                let titleEnd = Self.find(Array("</title>".utf8), in: text, from: titleStart)
            else { break }
            let name = String(decoding: text[(titleStart + 7)..<titleEnd], as: UTF8.self)
            guard Self.isOutputNode(name) || Self.isSubscriberNode(name) else { continue }
            let next = Self.find(Array("class=\"node\"".utf8), in: text, from: titleEnd) ?? text.count
            guard let points = Self.shapePoints(in: Array(text[titleEnd..<next])), !points.isEmpty else { continue }
            let xs = points.map { ($0.x + translate.x) * scale.x }
            let ys = points.map { ($0.y + translate.y) * scale.y }
            guard let minX = xs.min(), let maxX = xs.max(), let minY = ys.min(), let maxY = ys.max() else { continue }
            boxes.append(Box(node: name, x: minX, y: minY, width: maxX - minX, height: maxY - minY))
        }
    }

    /// `o12` or `g12`: the nodes of Outputs (``TraceGraphBuilder``'s ids), never a legend's or a subscriber's.
    private static func isOutputNode(_ name: String) -> Bool {
        guard let first = name.first, first == "o" || first == "g", name.count > 1, name.count < 22 else {
            return false
        }
        return name.dropFirst().allSatisfy(\.isASCII) && name.dropFirst().allSatisfy(\.isNumber)
    }

    /// `o12-s1x2y`: a subscriber node hanging off Output node `o12` (``TraceGraphBuilder``'s ids).
    static func isSubscriberNode(_ name: String) -> Bool {
        guard let dash = name.firstIndex(of: "-"), isOutputNode(String(name[..<dash])) else { return false }
        let rest = name[name.index(after: dash)...]
        return rest.count > 1 && rest.count < 20 && rest.first == "s"
            && rest.dropFirst().allSatisfy { $0.isASCII && ($0.isNumber || $0.isLowercase) }
    }

    /// The corners (an ellipse's) or points (a polygon's, a path's) of the first shape in `text`.
    private static func shapePoints(in text: [UInt8]) -> [(x: Double, y: Double)]? {
        let shapes: [(tag: String, attribute: String)] = [("<path", "d"), ("<polygon", "points"), ("<ellipse", "")]
        let found = shapes.compactMap { shape in find(Array(shape.tag.utf8), in: text, from: 0).map { ($0, shape) } }
        guard let (start, shape) = found.min(by: { $0.0 < $1.0 }) else { return nil }
        if shape.tag == "<ellipse" {
            guard let cx = attribute("cx", in: text, from: start).flatMap({ numbers($0).first }),
                let cy = attribute("cy", in: text, from: start).flatMap({ numbers($0).first }),
                let rx = attribute("rx", in: text, from: start).flatMap({ numbers($0).first }),
                let ry = attribute("ry", in: text, from: start).flatMap({ numbers($0).first })
            else { return nil }
            return [(cx - rx, cy - ry), (cx + rx, cy + ry)]
        }
        guard let values = attribute(shape.attribute, in: text, from: start).map(numbers) else { return nil }
        // Graphviz writes absolute coordinates in pairs (M x,y C x,y x,y …; points="x,y x,y …").
        return stride(from: 0, to: values.count - 1, by: 2).map { (values[$0], values[$0 + 1]) }
    }

    /// The numbers in `text`, in order (signs, decimals; letters and separators skipped).
    private static func numbers(_ text: String) -> [Double] {
        var result: [Double] = []
        var current = ""
        for character in text {
            if character.isNumber || character == "." || (character == "-" && current.isEmpty) {
                current.append(character)
            } else {
                if let value = Double(current) { result.append(value) }
                current = character == "-" ? "-" : ""
            }
        }
        if let value = Double(current) { result.append(value) }
        return result
    }

    /// The arguments of `name(…)` in a transform list.
    private static func function(_ name: String, in transform: String) -> [Double]? {
        let text = Array(transform.utf8)
        let opening = Array((name + "(").utf8)
        guard let start = find(opening, in: text, from: 0),
            let end = text[(start + opening.count)...].firstIndex(of: UInt8(ascii: ")"))
        else { return nil }
        return numbers(String(decoding: text[(start + opening.count)..<end], as: UTF8.self))
    }

    /// The value of the first ` name="…"` at or after `from`.
    private static func attribute(_ name: String, in text: [UInt8], from: Int) -> String? {
        let key = Array(" \(name)=\"".utf8)
        guard let start = find(key, in: text, from: from) else { return nil }
        let valueStart = start + key.count
        guard let end = text[valueStart...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
        return String(decoding: text[valueStart..<end], as: UTF8.self)
    }

    private static func find(_ needle: [UInt8], in text: [UInt8], from: Int) -> Int? {
        guard !needle.isEmpty, from >= 0, text.count >= needle.count, from <= text.count - needle.count else {
            return nil
        }
        var index = from
        while index <= text.count - needle.count {
            if text[index] == needle[0] && text[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
