import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// What a test needs of a recorded SVG, read with FoundationXML's parser (so reading it at all
/// proves it is well-formed XML): the root's attributes, and each `<rect>` with an id, its
/// attributes and its `<animate>` children.
struct SVGDocument {
    struct Animation {
        var attribute: String
        var keyTimes: [Double]
        var values: [Double]
    }

    struct Rect {
        var id: String
        var attributes: [String: String]
        var animations: [String: Animation] = [:]

        /// The attribute's value at the start and at the end of the recording.
        func ends(_ name: String) -> (first: Double, last: Double)? {
            if let animation = animations[name], let first = animation.values.first, let last = animation.values.last {
                return (first, last)
            }
            guard let value = attributes[name].flatMap(Double.init) else { return nil }
            return (value, value)
        }
    }

    var root: [String: String] = [:]
    var rects: [String: Rect] = [:]

    init(data: Data) throws {
        let reader = Reader()
        let parser = XMLParser(data: data)
        parser.delegate = reader
        guard parser.parse() else {
            throw SVGProblem("not well-formed XML: \(parser.parserError.map { "\($0)" } ?? "?") at line \(parser.lineNumber)")
        }
        root = reader.root
        rects = reader.rects
    }

    struct SVGProblem: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    private final class Reader: NSObject, XMLParserDelegate {
        var root: [String: String] = [:]
        var rects: [String: Rect] = [:]
        var open: [String?] = []  // the id of each open element that is a rect with an id

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            if name == "svg", root.isEmpty { root = attributes }
            if name == "animate", let owner = open.last ?? nil, let attribute = attributes["attributeName"] {
                let numbers = { (text: String?) in (text ?? "").split(separator: ";").compactMap { Double($0) } }
                rects[owner]?.animations[attribute] = Animation(attribute: attribute, keyTimes: numbers(attributes["keyTimes"]),
                                                                values: numbers(attributes["values"]))
            }
            if name == "rect", let id = attributes["id"] {
                rects[id] = Rect(id: id, attributes: attributes)
                open.append(id)
            } else {
                open.append(nil)
            }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            _ = open.popLast()
        }
    }
}
