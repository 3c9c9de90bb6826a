/// Every key a client sends inside a view or an activity call, with its D-Bus type: the table
/// docs/contract.md shows ("Keys and types") for clients in any language.
///
/// Contract: the rows are generated from data/contract.json, as are the keys `ViewValidator`
/// accepts; tests hold the broker's spec readers to them, and the page equal to
/// `markdownTable`. Where the type is `d`, any D-Bus integer is accepted too; where it is
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
        /// A whole number with the row's range; any D-Bus integer is accepted.
        case integer = "i"
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
    // `all`, the rows in the order the docs list them, is generated from data/contract.json.

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
