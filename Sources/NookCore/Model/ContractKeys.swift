/// Every key a client sends inside a view or an activity call, with its D-Bus type: the table
/// docs/contract.md shows ("Keys and types") for clients in any language.
///
/// Contract: the rows are exactly the keys `ViewValidator` and the broker's spec readers
/// accept, each with the type they read (tests hold both equal, and the page equal to
/// `markdownTable`). Where the type is `d`, any D-Bus integer is accepted too; where it is
/// `x`, `t`, `i` and `u` are (contract 1.1).
///
/// ```swift
/// ContractKeys.viewProp("font_size", on: .text)?.type   // .double
/// ```
public struct ContractKey: Hashable, Sendable {
    /// A key's D-Bus type, in signature spelling.
    public enum WireType: String, Hashable, Sendable {
        case double = "d"
        /// Unix microseconds wherever a view or a spec carries one.
        case date = "x"
        case uint64 = "t"
        case string = "s"
        case bool = "b"
        /// `padding`: top, leading, bottom, trailing.
        case edges = "(dddd)"
        case record = "a{sv}"
        case strings = "as"
        /// A variant holding a view node `(sa{sv}av)`.
        case view = "v"
    }

    /// Where a key goes.
    public enum Place: Hashable, Sendable {
        /// A prop of any view node.
        case anyNode
        /// A prop of these node kinds only.
        case nodes([NodeKind])
        /// A key inside a node's `shared` a{sv}.
        case shared
        /// `StartActivity` spec and `UpdateActivity` changes.
        case activity
        /// `UpdateActivity` changes only.
        case update
        /// `EndActivity` options.
        case end
    }

    public var key: String
    public var place: Place
    public var type: WireType
    /// What it means, briefly, for the docs' table.
    public var meaning: String

    public init(_ key: String, _ place: Place, _ type: WireType, _ meaning: String) {
        self.key = key
        self.place = place
        self.type = type
        self.meaning = meaning
    }
}

public enum ContractKeys {
    static let stacks: [NodeKind] = [.vstack, .hstack, .zstack]

    /// The rows, in the order the docs list them.
    public static let all: [ContractKey] = [
        ContractKey("width", .anyNode, .double, "fixed width, pt"),
        ContractKey("height", .anyNode, .double, "fixed height, pt"),
        ContractKey("min_width", .anyNode, .double, "pt"),
        ContractKey("max_width", .anyNode, .double, "pt"),
        ContractKey("min_height", .anyNode, .double, "pt"),
        ContractKey("max_height", .anyNode, .double, "pt"),
        ContractKey("padding", .anyNode, .edges, "top, leading, bottom, trailing, pt"),
        ContractKey("opacity", .anyNode, .double, "0...1"),
        ContractKey("classes", .anyNode, .string, "the class string (docs/classes-and-tokens.md)"),
        ContractKey("group", .anyNode, .string, "`\"\"` an anonymous group, else its name"),
        ContractKey("group_state", .anyNode, .record, "state name -> b (`focus`, `disabled`, `active`)"),
        ContractKey("identity", .anyNode, .string, "keeps a group's identity across updates"),
        ContractKey("role", .anyNode, .string, "`header`; addition: `button` (a control drawn as a button)"),
        ContractKey("animation_value", .anyNode, .string, "animates the subtree when it changes (rule 17)"),
        ContractKey("action", .anyNode, .string, "makes the node a control: its action id (rule 1's charset), sent back in ActionInvoked (contract 1.1)"),
        ContractKey("action_label", .anyNode, .string, "the control's accessible name (contract 1.1)"),
        ContractKey("shared", .anyNode, .record, "a shared-element mark: the keys below"),
        ContractKey("animate", .anyNode, .bool, "on a `SetContent` root: false applies it without animation"),
        ContractKey("spacing", .nodes(stacks), .double, "pt between children"),
        ContractKey("alignment", .nodes(stacks), .string, "`leading`, `center`, `trailing`, `top`, `bottom`"),
        ContractKey("stagger", .nodes(stacks), .bool, "children appear one after the other"),
        ContractKey("text", .nodes([.text]), .string, "the text"),
        ContractKey("font_size", .nodes([.text]), .double, "pt"),
        ContractKey("font_weight", .nodes([.text]), .string, "`regular`, `semibold`, `bold`, ..."),
        ContractKey("monospaced_digits", .nodes([.text]), .bool, "digits of equal width"),
        ContractKey("timer_end", .nodes([.text]), .date, "unix µs: the renderer counts down to it"),
        ContractKey("color", .nodes([.text, .image, .shape]), .string, "`#RRGGBB` or `#RRGGBBAA`"),
        ContractKey("symbol", .nodes([.image]), .string, "an icon name (docs/module-guide.md)"),
        ContractKey("uri", .nodes([.image]), .string, "an image file, `file:///...`"),
        ContractKey("shape", .nodes([.shape]), .string, "`rect`, `rounded_rect`, `circle`, `capsule`"),
        ContractKey("corner_radius", .nodes([.shape]), .double, "pt"),
        ContractKey("value", .nodes([.progress]), .double, "0...1"),
        ContractKey("start", .nodes([.progress]), .date, "unix µs: with `end`, the renderer advances it"),
        ContractKey("end", .nodes([.progress]), .date, "unix µs"),
        ContractKey("style", .nodes([.progress]), .string, "`linear` or `circular`"),
        ContractKey("min_length", .nodes([.spacer]), .double, "pt"),
        ContractKey("name", .nodes([.view]), .string, "the custom view's name (part of its identity)"),
        ContractKey("params", .nodes([.view]), .record, "free values for renderers"),
        ContractKey("id", .shared, .string, "required: letters, digits, `-`, `_`, `.`; 1...128"),
        ContractKey("style", .shared, .string, "`resize` (default) or `scale`"),
        ContractKey("namespace", .shared, .string, "`\"\"` (default): the module's; else a caller namespace"),
        ContractKey("properties", .shared, .string, "`frame` (default), `position`, `size`"),
        ContractKey("anchor", .shared, .string, "`center` (default), `leading`, ..., `bottom_trailing`"),
        ContractKey("is_source", .shared, .bool, "default true; false: a follower"),
        ContractKey("accessibility_label", .activity, .string, "required to start"),
        ContractKey("compact_leading", .activity, .view, "required to start"),
        ContractKey("compact_trailing", .activity, .view, "required to start"),
        ContractKey("minimal", .activity, .view, "required to start"),
        ContractKey("peek", .activity, .view, ""),
        ContractKey("expanded", .activity, .view, ""),
        ContractKey("relevance", .activity, .double, "higher shows first"),
        ContractKey("stale_date", .activity, .date, "unix µs"),
        ContractKey("dismiss_date", .activity, .date, "unix µs: the broker ends it then"),
        ContractKey("lifetime", .activity, .string, "`connection` (default) or `detached`"),
        ContractKey("dismissible", .activity, .bool, "default true; false: a person gets no close control or dismiss gesture"),
        ContractKey("sequence", .activity, .uint64, "an older update is ignored"),
        ContractKey("module", .activity, .string, "which of the caller's modules (when it registered several)"),
        ContractKey("animate", .update, .bool, "default true"),
        ContractKey("animation", .update, .string, "the caller's animation preset"),
        ContractKey("remove", .update, .strings, "`peek`, `expanded`, `stale_date`, `dismiss_date`"),
        ContractKey("dismissal", .end, .string, "`default` or `immediate`"),
        ContractKey("module", .end, .string, "which of the caller's modules"),
    ]

    /// The row for view prop `key` on a node of `kind`, nil when that kind does not take it.
    public static func viewProp(_ key: String, on kind: NodeKind) -> ContractKey? {
        all.first { row in
            guard row.key == key else { return false }
            switch row.place {
            case .anyNode: return true
            case .nodes(let kinds): return kinds.contains(kind)
            default: return false
            }
        }
    }

    /// The row for key `key` inside `shared`.
    public static func sharedKey(_ key: String) -> ContractKey? {
        all.first { $0.key == key && $0.place == .shared }
    }

    /// The table docs/contract.md shows, generated from `all`.
    public static var markdownTable: String {
        var lines = ["| key | where | type | meaning |", "|---|---|---|---|"]
        for row in all {
            lines.append("| `\(row.key)` | \(row.place.text) | `\(row.type.rawValue)` | \(row.meaning) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension ContractKey.Place {
    /// How the docs' table names the place.
    var text: String {
        switch self {
        case .anyNode: "any node"
        case .nodes(let kinds): kinds.map { "`\($0.rawValue)`" }.joined(separator: ", ")
        case .shared: "in `shared`"
        case .activity: "`StartActivity`, `UpdateActivity`"
        case .update: "`UpdateActivity`"
        case .end: "`EndActivity` options"
        }
    }
}
