/// Removes what could run script from an SVG document before it is embedded.
///
/// The page shows the graph through `<img>`, where SVG never runs script; this is a second wall
/// for anyone who opens the embedded document on its own. It drops `<script>` and
/// `<foreignObject>` elements, every `on…` attribute, and `href`s that are not plain fragments
/// or plain relative links (Graphviz writes `javascript:` only when a label asks for it).
enum SVGCleaner {
    static func clean(_ svg: String) -> String {
        var output = ""
        output.reserveCapacity(svg.utf8.count)
        var rest = Substring(svg)
        // While inside a dropped element: its name, and how many of its kind are open.
        var dropping: (name: String, depth: Int)?
        while let open = rest.firstIndex(of: "<") {
            if dropping == nil { output += rest[..<open] }
            rest = rest[open...]
            if rest.hasPrefix("<!--") || rest.hasPrefix("<![CDATA[") || rest.hasPrefix("<?") || rest.hasPrefix("<!") {
                // Comments, CDATA, declarations: copied through (they never run anything in SVG).
                let terminator = rest.hasPrefix("<!--") ? "-->" : rest.hasPrefix("<![CDATA[") ? "]]>" : ">"
                let end = rest.firstRange(of: terminator).map(\.upperBound) ?? rest.endIndex
                if dropping == nil { output += rest[..<end] }
                rest = rest[end...]
                continue
            }
            // A tag that never closes ends the cleaning: what follows is dropped, never copied raw.
            guard let end = tagEnd(in: rest) else { return output }
            let tag = rest[..<end]
            rest = rest[end...]
            let name = tagName(tag)
            let isClosing = tag.hasPrefix("</")
            let isEmpty = tag.hasSuffix("/>")
            if let current = dropping {
                if name == current.name && !isEmpty {
                    let depth = current.depth + (isClosing ? -1 : 1)
                    dropping = depth == 0 ? nil : (current.name, depth)
                }
                continue
            }
            // Compare local names: `<s:script>` is a script when `s` is bound to the SVG namespace.
            let localName = name.split(separator: ":").last.map(String.init) ?? name
            if localName == "script" || localName == "foreignobject" {
                // Drop the whole element, up to its closing tag (or the rest of the document).
                if !isClosing && !isEmpty { dropping = (name, 1) }
                continue
            }
            output += cleanTag(tag)
        }
        if dropping != nil { return output }
        output += rest
        return output
    }

    /// The index just past the `>` that closes the tag at the start of `text`, skipping quoted
    /// attribute values, or nil when the tag never closes. As in XML, a quote delimits a value only
    /// right after `=`; a stray quote elsewhere does not swallow the rest of the document.
    private static func tagEnd(in text: Substring) -> Substring.Index? {
        var quote: Character?
        var afterEquals = false
        var index = text.index(after: text.startIndex)
        while index < text.endIndex {
            let character = text[index]
            if let open = quote {
                // `<` is not allowed in an XML attribute value: a document with one is broken.
                if character == "<" { return nil }
                if character == open { quote = nil }
            } else if afterEquals && (character == "\"" || character == "'") {
                quote = character
                afterEquals = false
            } else if character == ">" {
                return text.index(after: index)
            } else if character == "<" {
                return nil
            } else if character == "=" {
                afterEquals = true
            } else if !character.isWhitespace {
                afterEquals = false
            }
            index = text.index(after: index)
        }
        return nil
    }

    /// The tag's name as an XML parser reads it: the name characters after `<` or `</` (XML names
    /// take `.`, `_`, `-`, `:`, digits and letters, so `<s.g:script>` is a `script` of prefix
    /// `s.g`), ending at the first other character — `<script"x=>` is a `script` too.
    private static func tagName(_ tag: Substring) -> String {
        tag.dropFirst().drop { $0 == "/" }.prefix(while: isNameCharacter).lowercased()
    }

    private static func isNameCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "." || character == "_" || character == "-"
            || character == ":" || !character.isASCII && !character.isWhitespace
    }

    /// The tag with unsafe attributes removed.
    private static func cleanTag(_ tag: Substring) -> String {
        if tag.hasPrefix("</") { return String(tag) }
        var index = tag.index(after: tag.startIndex)
        while index < tag.endIndex, !tag[index].isWhitespace, tag[index] != ">", tag[index] != "/" {
            index = tag.index(after: index)
        }
        var result = String(tag[..<index])
        // Attributes: name, optional = and a quoted or bare value.
        while index < tag.endIndex {
            while index < tag.endIndex, tag[index].isWhitespace { index = tag.index(after: index) }
            guard index < tag.endIndex else { break }
            if tag[index] == ">" || tag[index] == "/" {
                result += tag[index...]
                break
            }
            let nameStart = index
            while index < tag.endIndex, !tag[index].isWhitespace, tag[index] != "=", tag[index] != ">" {
                index = tag.index(after: index)
            }
            let name = tag[nameStart..<index].lowercased()
            var value: Substring = ""
            var attributeEnd = index
            var lookahead = index
            while lookahead < tag.endIndex, tag[lookahead].isWhitespace { lookahead = tag.index(after: lookahead) }
            if lookahead < tag.endIndex, tag[lookahead] == "=" {
                index = tag.index(after: lookahead)
                while index < tag.endIndex, tag[index].isWhitespace { index = tag.index(after: index) }
                if index < tag.endIndex, tag[index] == "\"" || tag[index] == "'" {
                    let quote = tag[index]
                    let valueStart = tag.index(after: index)
                    let valueEnd = tag[valueStart...].firstIndex(of: quote) ?? tag.endIndex
                    value = tag[valueStart..<valueEnd]
                    index = valueEnd < tag.endIndex ? tag.index(after: valueEnd) : valueEnd
                } else {
                    let valueStart = index
                    while index < tag.endIndex, !tag[index].isWhitespace, tag[index] != ">" {
                        index = tag.index(after: index)
                    }
                    value = tag[valueStart..<index]
                }
                attributeEnd = index
            } else {
                index = attributeEnd
            }
            if name.isEmpty {
                index = tag.index(after: index)
                continue
            }
            if isUnsafe(name: name, value: value) { continue }
            result += " " + tag[nameStart..<attributeEnd]
        }
        return result
    }

    private static func isUnsafe(name: String, value: Substring) -> Bool {
        if name.hasPrefix("on") { return true }
        if name == "href" || name.hasSuffix(":href") || name == "src" || name == "action" || name == "formaction" {
            // Browsers ignore whitespace and control characters inside a scheme: `java\tscript:`.
            let squeezed = value.unicodeScalars.filter { $0.value > 0x20 }.map(Character.init)
            let lowered = String(squeezed).lowercased()
            // Only in-document fragments and plain relative links; an entity could hide a colon.
            if lowered.hasPrefix("#") { return lowered.contains("&") }
            return lowered.contains(":") || lowered.contains("&")
        }
        return false
    }
}
