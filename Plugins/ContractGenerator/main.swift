// nook-contract-gen: writes the Swift that data/contract.json and data/org.nook.Nook1.xml
// declare (run by the ContractPlugin build-tool plugin: `core SCHEMA XML OUTPUT` for NookCore,
// `bus OUTPUT XML...` for NookBus; Interfaces.swift has the XML's half), and with `--docs`
// rewrites the key table of docs/contract.md in place (`make contract-docs`).
//
// What it writes, into NookCore: `PropKey` and its name lookup, `NodeProps` with its storage
// groups, the key sets the validator and renderers know, the dispatch of both prop readers,
// the props encoder, the scene-node tape, `ContractKeys.all`, `NookNames`, the member enums and
// `NookErrorName`. Into NookBus: `NookContract` (each member's signature) and the typed proxies.
// What a key or a method *means* (how a reader checks it, how nookd answers, how a renderer
// draws it) stays hand-written; this only wires it up.
import Foundation

struct Schema: Decodable {
    struct Reader: Decodable {
        var type: String
        var wire: String
        var range: String?
        /// The ordered reader's method takes `diagnostics:` too.
        var reports: Bool?
    }
    struct Prop: Decodable {
        var key: String
        var swift: String
        var on: On
        var read: String
        var `enum`: String?
        var range: [Int]?
        var storage: String
        var doc: String
        /// A check run once this key has been read (the ordered reader), and after all keys (one pass).
        var then: String?
    }
    enum On: Decodable {
        case any
        case kinds([String])
        init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self), text == "any" { self = .any; return }
            self = .kinds(try container.decode([String].self))
        }
    }
    struct SharedKey: Decodable { var key: String; var swift: String; var wire: String; var doc: String }
    struct SceneKey: Decodable { var key: String; var swift: String; var prop: Bool?; var doc: String }
    struct CallKey: Decodable { var key: String; var place: String; var wire: String; var doc: String }

    var readers: [String: Reader]
    var storage: [String: String]
    var kinds: [String]
    var props: [Prop]
    var shared: [SharedKey]
    var sceneKeys: [SceneKey]
    var calls: [CallKey]
    var errors: [ErrorName]
}

enum GenerationError: Error, CustomStringConvertible {
    case invalid(String)
    var description: String { if case .invalid(let text) = self { return "data/contract.json: \(text)" }; return "" }
}

/// Writes Swift source line by line.
struct Source {
    private(set) var text = ""
    var indent = 0
    mutating func line(_ content: String = "") {
        text += content.isEmpty ? "\n" : String(repeating: "    ", count: indent) + content + "\n"
    }
    mutating func block(_ opening: String, _ body: (inout Source) -> Void) {
        line(opening + " {")
        // Cases sit at their switch's indent, as swift-format writes them.
        let step = opening.hasPrefix("switch ") ? 0 : 1
        indent += step
        body(&self)
        indent -= step
        line("}")
    }
}

func quoted(_ text: String) -> String {
    "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
}

func caseName(_ key: String) -> String {
    let parts = key.split(separator: "_")
    return parts.enumerated().map { $0.offset == 0 ? String($0.element) : $0.element.prefix(1).uppercased() + $0.element.dropFirst() }.joined()
}

func swiftType(_ prop: Schema.Prop, _ schema: Schema) -> String {
    prop.read == "choice" ? prop.enum! : schema.readers[prop.read]!.type
}

func wireCase(_ wire: String) throws -> String {
    switch wire {
    case "d": return ".double"
    case "x": return ".date"
    case "t": return ".uint64"
    case "i": return ".integer"
    case "s": return ".string"
    case "b": return ".bool"
    case "(dddd)": return ".edges"
    case "a{sv}": return ".record"
    case "as": return ".strings"
    case "v": return ".view"
    default: throw GenerationError.invalid("unknown wire type \(wire)")
    }
}

func validate(_ schema: Schema) throws {
    var seen = Set<String>()
    for prop in schema.props {
        guard seen.insert(prop.key).inserted else { throw GenerationError.invalid("prop \(prop.key) twice") }
        guard schema.readers[prop.read] != nil else { throw GenerationError.invalid("prop \(prop.key): unknown reader \(prop.read)") }
        guard schema.storage[prop.storage] != nil else { throw GenerationError.invalid("prop \(prop.key): unknown storage \(prop.storage)") }
        if prop.read == "choice", prop.enum == nil { throw GenerationError.invalid("prop \(prop.key): a choice needs its enum") }
        if prop.read == "count" {
            guard let range = prop.range, range.count == 2, range[0] <= range[1] else {
                throw GenerationError.invalid("prop \(prop.key): a count needs its range [lower, upper]")
            }
        }
        if case .kinds(let kinds) = prop.on {
            for kind in kinds where !schema.kinds.contains(kind) { throw GenerationError.invalid("prop \(prop.key): unknown kind \(kind)") }
        }
    }
    let propKeys = Set(schema.props.map(\.key))
    for scene in schema.sceneKeys where propKeys.contains(scene.key) {
        throw GenerationError.invalid("scene key \(scene.key) is a prop too")
    }
    guard schema.props.count + schema.shared.count <= 64 else { throw GenerationError.invalid("PropKey bits hold at most 64 keys") }
}

// MARK: PropKey

/// Every key of a node's props or its shared mark, once each, in schema order.
func propKeys(_ schema: Schema) -> [(key: String, swift: String)] {
    var keys: [(String, String)] = []
    var seen = Set<String>()
    for prop in schema.props where seen.insert(prop.key).inserted { keys.append((prop.key, caseName(prop.key))) }
    for shared in schema.shared where seen.insert(shared.key).inserted { keys.append((shared.key, caseName(shared.key))) }
    return keys
}

func writePropKey(_ schema: Schema, into out: inout Source) {
    let keys = propKeys(schema)
    out.line("/// Every key a view node's props or its `shared` mark may carry, from data/contract.json.")
    out.line("///")
    out.line("/// Why: a node carries a handful of the forty-odd keys. Looking each of them up by name cost")
    out.line("/// a string hash per key and node; a node's `PropKeySet` is found with one lookup per key it")
    out.line("/// carries (`named`, which dispatches on length and first byte), and readers read only those.")
    out.line("/// Renderers read a plan's props by it too (`props[.value]`), so a key's name is written once.")
    writeKeyEnum(keys, type: "PropKey", conformances: "Int, CaseIterable, Sendable", access: "public ", named: true, into: &out)
    out.line()
}

/// An enum of contract keys: its cases, `name`, and (`named`) the lookup from a name.
func writeKeyEnum(
    _ keys: [(key: String, swift: String)], type: String, conformances: String, access: String, named: Bool, into out: inout Source
) {
    out.block("\(access)enum \(type): \(conformances)") { out in
        for key in keys { out.line("case \(key.swift)") }
        out.line()
        out.block("\(access)var name: String") { out in
            out.block("switch self") { out in
                for key in keys { out.line("case .\(key.swift): \(quoted(key.key))") }
            }
        }
        if named {
            out.line()
            writeNamed(keys, type: type, access: access, into: &out)
        }
    }
}

/// `static func named(_:)`: the key for a name, by its length and first byte and one comparison.
func writeNamed(_ keys: [(key: String, swift: String)], type: String, access: String = "", into out: inout Source) {
    out.line("/// `byName[name]` without hashing: the length and first byte pick at most a few keys, and")
    out.line("/// one string comparison (equal small strings compare as two words) confirms.")
    out.block("\(access)static func named(_ name: String) -> \(type)?") { out in
        out.line("let utf8 = name.utf8")
        out.line("guard let first = utf8.first else { return nil }")
        out.line("let key: \(type)")
        out.block("switch utf8.count") { out in
            let byLength = Dictionary(grouping: keys) { $0.key.utf8.count }
            for length in byLength.keys.sorted() {
                let group = byLength[length]!
                if group.count == 1 {
                    out.line("case \(length): key = .\(group[0].swift)")
                    continue
                }
                out.line("case \(length):")
                out.indent += 1
                out.block("switch first") { out in
                    let byFirst = Dictionary(grouping: group) { $0.key.first! }
                    for first in byFirst.keys.sorted() {
                        let candidates = byFirst[first]!
                        if candidates.count == 1 {
                            out.line("case UInt8(ascii: \(quoted(String(first)))): key = .\(candidates[0].swift)")
                        } else {
                            out.line("case UInt8(ascii: \(quoted(String(first)))):")
                            out.indent += 1
                            for candidate in candidates.dropLast() {
                                out.line("if name == \(quoted(candidate.key)) { return .\(candidate.swift) }")
                            }
                            out.line("key = .\(candidates.last!.swift)")
                            out.indent -= 1
                        }
                    }
                    out.line("default: return nil")
                }
                out.indent -= 1
            }
            out.line("default: return nil")
        }
        out.line("return name == key.name ? key : nil")
    }
}

// MARK: Call keys

/// `CallKey`: the keys of `StartActivity`'s spec and `UpdateActivity`'s changes, and the key
/// sets of each call.
func writeCallKeys(_ schema: Schema, into out: inout Source) {
    var keys: [(key: String, swift: String)] = []
    for call in schema.calls where call.place != "end" && !keys.contains(where: { $0.key == call.key }) {
        keys.append((call.key, caseName(call.key)))
    }
    out.line("/// The keys `StartActivity`'s spec and `UpdateActivity`'s changes may carry, from")
    out.line("/// data/contract.json (its `calls` of place `activity` and `update`).")
    writeKeyEnum(keys, type: "CallKey", conformances: "Int, CaseIterable, Sendable", access: "public ", named: true, into: &out)
    out.line()
    let endKeys = schema.calls.filter { $0.place == "end" }.map { (key: $0.key, swift: caseName($0.key)) }
    out.line("/// The keys `EndActivity`'s options may carry, from data/contract.json.")
    writeKeyEnum(endKeys, type: "EndKey", conformances: "Int, CaseIterable, Sendable", access: "public ", named: false, into: &out)
    out.line()
    func names(_ places: Set<String>) -> String {
        var seen = Set<String>()
        return schema.calls.filter { places.contains($0.place) && seen.insert($0.key).inserted }.map { quoted($0.key) }.joined(separator: ", ")
    }
    out.block("extension ContractKeys") { out in
        out.line("/// The keys `StartActivity`'s spec takes.")
        out.line("public static let startKeys: Set<String> = [\(names(["activity"]))]")
        out.line("/// The keys `UpdateActivity`'s changes take.")
        out.line("public static let updateKeys: Set<String> = [\(names(["activity", "update"]))]")
        out.line("/// The keys `EndActivity`'s options take.")
        out.line("public static let endKeys: Set<String> = [\(names(["end"]))]")
    }
    out.line()
}

// MARK: Key sets

func kinds(of prop: Schema.Prop, _ schema: Schema) -> [String] {
    switch prop.on {
    case .any: return schema.kinds
    case .kinds(let kinds): return kinds
    }
}

func writeKeySets(_ schema: Schema, into out: inout Source) {
    let common = schema.props.filter { if case .any = $0.on { return true }; return false }
    out.block("extension ViewValidator") { out in
        out.line("/// Props any kind may carry.")
        out.line("static let commonKeys: Set<String> = [\(common.map { quoted($0.key) }.joined(separator: ", "))]")
        out.line()
        out.line("/// Props of each kind beyond the common ones.")
        out.line("static let kindKeys: [NodeKind: Set<String>] = [")
        out.indent += 1
        for kind in schema.kinds {
            let own = schema.props.filter { if case .kinds(let kinds) = $0.on { return kinds.contains(kind) }; return false }
            if own.isEmpty { continue }
            out.line(".\(kind): [\(own.map { quoted($0.key) }.joined(separator: ", "))],")
        }
        out.indent -= 1
        out.line("]")
        out.line()
        out.line("static let sharedKeys: Set<String> = [\(schema.shared.map { quoted($0.key) }.joined(separator: ", "))]")
    }
    out.line()
    out.block("extension ContractKeys") { out in
        out.line("/// Every key a scene node may carry in a plan: its props, and the keys the broker adds that")
        out.line("/// renderers read as props (`expanded_classes`, `suppressed`).")
        let keys = schema.props.map(\.key) + schema.sceneKeys.filter { $0.prop == true }.map(\.key)
        out.line("public static let sceneNodePropKeys: Set<String> = [\(keys.map(quoted).joined(separator: ", "))]")
    }
    out.line()
    out.block("extension NodePropsReader") { out in
        out.line("/// Whether a node of `kind` reads `key` (`ViewValidator.knownMask`, as a switch).")
        out.block("static func reads(_ kind: NodeKind, _ key: PropKey) -> Bool") { out in
            out.block("switch key") { out in
                var byKinds: [[String]: [String]] = [:]
                var order: [[String]] = []
                for key in propKeys(schema) {
                    let props = schema.props.filter { $0.key == key.key }
                    let readBy = props.isEmpty ? [] : schema.kinds.filter { kind in props.contains { kinds(of: $0, schema).contains(kind) } }
                    if byKinds[readBy] == nil { order.append(readBy) }
                    byKinds[readBy, default: []].append(".\(key.swift)")
                }
                for kinds in order {
                    let test: String
                    if kinds.isEmpty { test = "false" }
                    else if kinds == schema.kinds { test = "true" }
                    else { test = kinds.map { "kind == .\($0)" }.joined(separator: " || ") }
                    out.line("case \(byKinds[kinds]!.joined(separator: ", ")): \(test)")
                }
            }
        }
    }
    out.line()
}


// MARK: NodeProps

func writeNodeProps(_ schema: Schema, into out: inout Source) {
    let groups = schema.storage.keys.filter { $0 != "inline" }.sorted { a, b in
        // In the order the props first name them.
        (schema.props.firstIndex { $0.storage == a } ?? 0) < (schema.props.firstIndex { $0.storage == b } ?? 0)
    }
    out.line("/// Props every node may carry, plus the kind-specific ones (unused ones stay nil).")
    out.line("///")
    out.line("/// Stored sparsely: the `inline` props of data/contract.json (on nearly every node) in the")
    out.line("/// struct, the rest in groups allocated only when one of their props is set, so a typical")
    out.line("/// node costs a few words rather than ~40 inline optionals. An emptied group is dropped, so")
    out.line("/// equal props always have equal storage and `Hashable` stays structural.")
    out.block("public struct NodeProps: Hashable, Sendable") { out in
        for prop in schema.props where prop.storage == "inline" {
            out.line("/// \(prop.doc)")
            out.line("public var \(prop.swift): \(swiftType(prop, schema))?")
        }
        for group in groups { out.line("private var \(group)Group: PropGroupBox<\(schema.storage[group]!)>?") }
        out.line()
        out.line("public init() {}")
        for group in groups {
            let type = schema.storage[group]!
            out.line()
            out.line("/// Whether any of `\(type)` is set: code that reads several skips nodes with none.")
            out.line("var has\(type): Bool { \(group)Group != nil }")
            out.line("/// Every prop of `\(type)` in one read (nil: none set): each getter reads the box again.")
            out.line("var \(group)Props: \(type)? { \(group)Group?.value }")
        }
        for prop in schema.props where prop.storage != "inline" {
            out.line()
            out.line("/// \(prop.key): \(prop.doc)")
            out.block("public var \(prop.swift): \(swiftType(prop, schema))?") { out in
                out.line("get { \(prop.storage)Group?.value.\(prop.swift) }")
                out.line("set { PropGroupBox.edit(&\(prop.storage)Group) { $0.\(prop.swift) = newValue } }")
            }
        }
    }
    out.line()
    for group in groups {
        out.block("struct \(schema.storage[group]!): PropGroup") { out in
            for prop in schema.props where prop.storage == group { out.line("var \(prop.swift): \(swiftType(prop, schema))?") }
        }
        out.line()
    }
}

// MARK: Readers

/// The arguments after the key (or value) that a reader call passes.
func readerArguments(_ prop: Schema.Prop) -> String {
    switch prop.read {
    case "choice": return ", \(prop.enum!).self"
    case "count": return ", in: \(prop.range![0])...\(prop.range![1])"
    default: return ""
    }
}

func writeReaders(_ schema: Schema, into out: inout Source) {
    let common = schema.props.filter { if case .any = $0.on { return true }; return false }
    out.block("extension NodePropsReader") { out in
        out.line("/// Reads every key `kind` takes, in schema order (common keys first), into `p`: which of")
        out.line("/// two bad props is named is the first in that order.")
        out.block("func readKeys(kind: NodeKind, into p: inout NodeProps, diagnostics: inout [Diagnostic]) throws(ViewValidationError)") { out in
            func read(_ prop: Schema.Prop, _ out: inout Source) {
                let reports = schema.readers[prop.read]!.reports == true ? ", diagnostics: &diagnostics" : ""
                out.line("if let value = try \(prop.read)(.\(caseName(prop.key))\(readerArguments(prop))\(reports)) { p.\(prop.swift) = value }")
                if let then = prop.then { out.line("try \(then)(p)") }
            }
            for prop in common { read(prop, &out) }
            // Kinds that read the same keys share a case.
            var cases: [(kinds: [String], props: [Schema.Prop])] = []
            for kind in schema.kinds {
                let own = schema.props.filter { if case .kinds(let kinds) = $0.on { return kinds.contains(kind) }; return false }
                if let index = cases.firstIndex(where: { $0.props.map(\.key) == own.map(\.key) }) {
                    cases[index].kinds.append(kind)
                } else {
                    cases.append(([kind], own))
                }
            }
            out.block("switch kind") { out in
                for entry in cases {
                    out.line("case \(entry.kinds.map { ".\($0)" }.joined(separator: ", ")):")
                    out.indent += 1
                    if entry.props.isEmpty { out.line("break") }
                    for prop in entry.props { read(prop, &out) }
                    out.indent -= 1
                }
            }
        }
    }
    out.line()
    out.block("extension OnePassReader") { out in
        out.line("/// Reads `value` as prop `key` into `p`; false when it is not good (the ordered reader then")
        out.line("/// names the problem). `key` is one the node's kind reads.")
        out.line("@inline(__always)")
        out.block("mutating func read(_ key: PropKey, _ value: PropValue, into p: inout NodeProps) -> Bool") { out in
            out.block("switch key") { out in
                for prop in schema.props {
                    out.line("case .\(caseName(prop.key)):")
                    out.indent += 1
                    out.line("guard let read = \(prop.read)(value\(readerArguments(prop))) else { return false }")
                    out.line("p.\(prop.swift) = read")
                    out.indent -= 1
                }
                let sharedOnly = propKeys(schema).filter { key in !schema.props.contains { $0.key == key.key } }
                if !sharedOnly.isEmpty {
                    out.line("case \(sharedOnly.map { ".\($0.swift)" }.joined(separator: ", ")):")
                    out.line("    // Shared-mark keys: `reads` never lets them through on a node.")
                    out.line("    return false")
                }
            }
            out.line("return true")
        }
        out.line()
        out.line("/// The checks that span keys (`then` in the schema), once every key is read.")
        out.block("static func checksHold(_ p: NodeProps) -> Bool") { out in
            let checks = schema.props.compactMap(\.then)
            out.line("return " + (checks.isEmpty ? "true" : checks.map { "\($0)(p)" }.joined(separator: " && ")))
        }
    }
    out.line()
}

// MARK: Encoders

/// Keys written at a scene node's level, in wire (byte) order: props and scene keys together.
enum NodeLevelKey {
    case prop(Schema.Prop)
    case scene(Schema.SceneKey)
    var key: String {
        switch self {
        case .prop(let prop): prop.key
        case .scene(let scene): scene.key
        }
    }
}

func writeEncoders(_ schema: Schema, into out: inout Source) {
    out.block("extension NodeProps") { out in
        out.line("/// `rawProps` in a dictionary with room for `extra` more keys besides a node's usual")
        out.line("/// few, so a caller that adds its own keys (a scene node's `slot`, `path`, ...) does not")
        out.line("/// make it grow and rehash every key.")
        out.block("func rawProps(reservingRoomFor extra: Int) -> [String: PropValue]") { out in
            out.line("var out = [String: PropValue](minimumCapacity: 6 + extra)")
            for prop in schema.props {
                out.line("if let value = \(prop.swift) { out[\(quoted(prop.key))] = .contract(value) }")
            }
            out.line("return out")
        }
        out.line()
        out.line("/// Each prop that is set, as `rawProps` holds it, keys in the order the wire writes a")
        out.line("/// dictionary (sorted): what writes a validated view into a message or checks it, without")
        out.line("/// building the dictionary. `ViewNodeWireTests` holds it to `rawProps`.")
        out.block("public func forEachRawProp<E: Error>(_ body: (String, PropValue) throws(E) -> Void) throws(E)") { out in
            for prop in schema.props.sorted(by: { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }) {
                out.line("if let value = \(prop.swift) { try body(\(quoted(prop.key)), .contract(value)) }")
            }
        }
    }
    out.line()
    out.line("/// The scene keys a scene node's entry carries besides its props.")
    writeKeyEnum(schema.sceneKeys.map { ($0.key, $0.swift) }, type: "SceneKey", conformances: "CaseIterable, Sendable", access: "public ", named: false, into: &out)
    out.block("extension SceneKey") { out in
        out.line("/// The scene keys that ride among a node's props (not view props themselves).")
        let carried = schema.sceneKeys.filter { $0.prop == true }.map { "." + $0.swift }
        out.line("public static let carriedInProps: [SceneKey] = [\(carried.joined(separator: ", "))]")
    }
    out.line()
    out.block("extension WireWriter") { out in
        out.line("/// One entry of a scene's `nodes` (or a delta's `upserted`, with `index`), as")
        out.line("/// `merging(scene.wireEntry(for: node), into: [])` writes it, without building the")
        out.line("/// dictionary: every key in wire order, the props read straight from `NodeProps`.")
        out.line("/// `WireTapeSceneNodeTests` holds it to the dictionary's tape on random and full nodes.")
        out.block("mutating func appendSceneNode(_ node: SceneNode, index: Int?, suppressed: Bool)") { out in
            out.line("let props = node.props")
            let all = schema.props.map(NodeLevelKey.prop) + schema.sceneKeys.map(NodeLevelKey.scene)
            for entry in all.sorted(by: { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }) {
                switch entry {
                case .prop(let prop):
                    out.line("if let value = props.\(prop.swift) { appendProp(\(quoted(prop.key)), value) }")
                case .scene(let scene):
                    out.line("appendSceneKey(.\(scene.swift), of: node, index: index, suppressed: suppressed)")
                }
            }
        }
    }
    out.line()
}

// MARK: The documented table

func tableRows(_ schema: Schema) throws -> [String] {
    var rows: [String] = []
    for prop in schema.props {
        let place: String
        switch prop.on {
        case .any: place = ".anyNode"
        case .kinds(let kinds): place = ".nodes([\(kinds.map { ".\($0)" }.joined(separator: ", "))])"
        }
        rows.append("ContractKey(\(quoted(prop.key)), \(place), \(try wireCase(propWire(prop, schema))), \(quoted(propDoc(prop)))),")
    }
    for shared in schema.shared {
        rows.append("ContractKey(\(quoted(shared.key)), .shared, \(try wireCase(shared.wire)), \(quoted(shared.doc))),")
    }
    for call in schema.calls {
        rows.append("ContractKey(\(quoted(call.key)), .\(call.place), \(try wireCase(call.wire)), \(quoted(call.doc))),")
    }
    return rows
}

// MARK: The docs' table

/// docs/contract.md's "Keys and types" table: `ContractKeys.markdownTable`, written from the
/// schema (a test holds the two equal).
func markdownTable(_ schema: Schema) -> String {
    var lines = ["| key | where | type | meaning |", "|---|---|---|---|"]
    for prop in schema.props {
        let place: String
        switch prop.on {
        case .any: place = "any node"
        case .kinds(let kinds): place = kinds.map { "`\($0)`" }.joined(separator: ", ")
        }
        lines.append("| `\(prop.key)` | \(place) | `\(propWire(prop, schema))` | \(propDoc(prop)) |")
    }
    for shared in schema.shared { lines.append("| `\(shared.key)` | in `shared` | `\(shared.wire)` | \(shared.doc) |") }
    let places = ["activity": "`StartActivity`, `UpdateActivity`", "update": "`UpdateActivity`", "end": "`EndActivity` options"]
    for call in schema.calls { lines.append("| `\(call.key)` | \(places[call.place] ?? call.place) | `\(call.wire)` | \(call.doc) |") }
    return lines.joined(separator: "\n") + "\n"
}

func propWire(_ prop: Schema.Prop, _ schema: Schema) -> String { prop.read == "count" ? "i" : schema.readers[prop.read]!.wire }

func propDoc(_ prop: Schema.Prop) -> String {
    guard let range = prop.range else { return prop.doc }
    return prop.doc.isEmpty ? "\(range[0])...\(range[1])" : "\(prop.doc); \(range[0])...\(range[1])"
}

/// Replaces the table that starts with the header row in `doc` with the schema's.
func rewriteDocs(_ schema: Schema, doc: URL) throws {
    let text = try String(contentsOf: doc, encoding: .utf8)
    var lines = text.components(separatedBy: "\n")
    guard let start = lines.firstIndex(of: "| key | where | type | meaning |") else {
        throw GenerationError.invalid("\(doc.path) has no table headed '| key | where | type | meaning |'")
    }
    var end = start
    while end < lines.count, lines[end].hasPrefix("|") { end += 1 }
    lines.replaceSubrange(start..<end, with: markdownTable(schema).dropLast().components(separatedBy: "\n"))
    let rewritten = lines.joined(separator: "\n")
    if rewritten != text { try rewritten.write(to: doc, atomically: true, encoding: .utf8) }
}

// MARK: Main

let arguments = CommandLine.arguments
if arguments.count == 4, arguments[1] == "--docs" {
    do {
        let schema = try JSONDecoder().decode(Schema.self, from: try Data(contentsOf: URL(fileURLWithPath: arguments[2])))
        try validate(schema)
        try rewriteDocs(schema, doc: URL(fileURLWithPath: arguments[3]))
        exit(0)
    } catch {
        FileHandle.standardError.write("nook-contract-gen: \(error)\n".data(using: .utf8)!)
        exit(1)
    }
}
/// Writes `text` to `path` only when it changed, so an unchanged schema rebuilds nothing.
func writeIfChanged(_ text: String, to path: String) throws {
    let output = URL(fileURLWithPath: path)
    if (try? String(contentsOf: output, encoding: .utf8)) != text {
        try text.write(to: output, atomically: true, encoding: .utf8)
    }
}

func readInterfaces(_ path: String) throws -> Introspection {
    try Introspection(xml: try String(contentsOf: URL(fileURLWithPath: path), encoding: .utf8))
}

/// NookCore's part: the keys of data/contract.json, the names of the XML, the error names.
func coreSource(schemaPath: String, interfacesPath: String) throws -> String {
    let data = try Data(contentsOf: URL(fileURLWithPath: schemaPath))
    let schema = try JSONDecoder().decode(Schema.self, from: data)
    try validate(schema)
    let interfaces = try readInterfaces(interfacesPath)
    var out = Source()
    out.line("// Generated by nook-contract-gen from data/contract.json and data/org.nook.Nook1.xml: edit those, not this file.")
    out.line()
    writePropKey(schema, into: &out)
    writeKeySets(schema, into: &out)
    writeNodeProps(schema, into: &out)
    writeReaders(schema, into: &out)
    writeEncoders(schema, into: &out)
    writeCallKeys(schema, into: &out)
    let rows = try tableRows(schema)
    out.block("extension ContractKeys") { out in
        out.line("/// The rows, in the order the docs list them: docs/contract.md's table (`markdownTable`).")
        out.line("public static let all: [ContractKey] = [")
        out.indent += 1
        for row in rows { out.line(row) }
        out.indent -= 1
        out.line("]")
    }
    out.line()
    writeNames(interfaces, into: &out)
    writeErrorNames(schema.errors, into: &out)
    return out.text
}

/// NookBus's part: every member's signature as a value, and the typed proxies.
func busSource(interfacesPaths: [String]) throws -> String {
    let contracts = try interfacesPaths.map(readInterfaces)
    var out = Source()
    out.line("// Generated by nook-contract-gen from the introspection XML in data/: edit that, not this file.")
    out.line("import NookCore")
    out.line()
    writeBusContract(contracts, into: &out)
    for contract in contracts { writeProxies(contract, into: &out) }
    return out.text
}

do {
    switch (arguments.count, arguments.dropFirst().first) {
    case (5, "core"): try writeIfChanged(try coreSource(schemaPath: arguments[2], interfacesPath: arguments[3]), to: arguments[4])
    case (4..., "bus"): try writeIfChanged(try busSource(interfacesPaths: Array(arguments[3...])), to: arguments[2])
    default:
        FileHandle.standardError.write("usage: nook-contract-gen core SCHEMA XML OUTPUT | bus OUTPUT XML... | --docs SCHEMA DOC\n".data(using: .utf8)!)
        exit(2)
    }
} catch {
    FileHandle.standardError.write("nook-contract-gen: \(error)\n".data(using: .utf8)!)
    exit(1)
}
