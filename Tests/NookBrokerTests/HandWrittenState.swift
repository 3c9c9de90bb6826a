import Foundation

/// A `state.json` written by hand, as an attacker or a broken tool could leave it: plain JSON
/// objects in the stored format (docs/broker.md, "Persistence"), no broker code involved.
enum HandWrittenState {
    typealias JSON = [String: Any]

    static func node(_ kind: String, _ props: JSON = [:], _ children: [JSON] = []) -> JSON {
        ["kind": kind, "props": props, "children": children]
    }

    static func text(_ text: String, _ extra: JSON = [:]) -> JSON {
        node("text", extra.merging(["text": ["s": text]]) { a, _ in a })
    }

    /// A view `levels` deep: vstacks down to a text.
    static func deep(_ levels: Int) -> JSON {
        (1..<levels).reduce(text("bottom")) { inner, _ in node("vstack", [:], [inner]) }
    }

    /// An activity with the three required views (`minimal` replaceable) and a start order.
    static func activity(_ id: String, order: UInt64, minimal: JSON? = nil, views: JSON = [:]) -> JSON {
        var all: JSON = ["compact_leading": text("L"), "compact_trailing": text("T"), "minimal": minimal ?? text("M")]
        all.merge(views) { _, new in new }
        return ["id": id, "accessibility_label": "label of \(id)", "relevance": 0, "start_order": order, "views": all]
    }

    static func module(_ id: String, activities: [JSON], content: JSON = [:], compactOrder: UInt64? = nil) -> JSON {
        var module: JSON = ["id": id, "display_name": id, "version": "1", "content": content, "activities": activities]
        if let compactOrder { module["compact_order"] = compactOrder }
        return module
    }

    static func file(modules: [JSON], counter: UInt64 = 100, presentation: Any = NSNull(), settings: Any = NSNull(), tokens: Any = NSNull()) -> JSON {
        ["format": "nook-state", "version": 1, "registry": ["counter": counter, "modules": modules],
         "presentation": presentation, "settings": settings, "tokens": tokens]
    }

    static func write(_ file: JSON, to directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let data = try JSONSerialization.data(withJSONObject: file, options: [.sortedKeys])
        try data.write(to: directory.appendingPathComponent("state.json"))
    }

    static func write(text: String, to directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: directory.appendingPathComponent("state.json"))
    }

    /// Files in `directory` whose names start with `prefix` (`state.rejected-`), sorted.
    static func files(_ directory: URL, prefix: String) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasPrefix(prefix) }.sorted().map { directory.appendingPathComponent($0) }
    }

    static func text(of url: URL) -> String { (try? String(contentsOf: url, encoding: .utf8)) ?? "" }
}
