/// Every key a view node's props or its `shared` mark may carry, as the contract lists them
/// (`ViewValidator.commonKeys`, `kindKeys`, `sharedKeys`; `PropKeyTests` holds them equal).
///
/// Why: a node carries a handful of the forty-odd keys. Looking each of them up by name cost
/// a string hash per key and node, and storing each absent one as `nil` cost a property
/// group; a node's `PropKeySet` is found with one lookup per key it does carry, and the
/// reader reads only those.
enum PropKey: Int, CaseIterable {
    case width, height, minWidth, maxWidth, minHeight, maxHeight, padding, opacity
    case classes, group, groupState, identity, role, animationValue, shared, animate, action, actionLabel
    case spacing, alignment, stagger
    case text, fontSize, fontWeight, monospacedDigits, timerEnd, color
    case symbol, uri, shape, cornerRadius
    case value, start, end, style, minLength, name, params
    case id, namespace, properties, anchor, isSource

    var name: String {
        switch self {
        case .width: "width"
        case .height: "height"
        case .minWidth: "min_width"
        case .maxWidth: "max_width"
        case .minHeight: "min_height"
        case .maxHeight: "max_height"
        case .padding: "padding"
        case .opacity: "opacity"
        case .classes: "classes"
        case .group: "group"
        case .groupState: "group_state"
        case .identity: "identity"
        case .role: "role"
        case .animationValue: "animation_value"
        case .shared: "shared"
        case .animate: "animate"
        case .action: "action"
        case .actionLabel: "action_label"
        case .spacing: "spacing"
        case .alignment: "alignment"
        case .stagger: "stagger"
        case .text: "text"
        case .fontSize: "font_size"
        case .fontWeight: "font_weight"
        case .monospacedDigits: "monospaced_digits"
        case .timerEnd: "timer_end"
        case .color: "color"
        case .symbol: "symbol"
        case .uri: "uri"
        case .shape: "shape"
        case .cornerRadius: "corner_radius"
        case .value: "value"
        case .start: "start"
        case .end: "end"
        case .style: "style"
        case .minLength: "min_length"
        case .name: "name"
        case .params: "params"
        case .id: "id"
        case .namespace: "namespace"
        case .properties: "properties"
        case .anchor: "anchor"
        case .isSource: "is_source"
        }
    }

    static let byName: [String: PropKey] = Dictionary(uniqueKeysWithValues: allCases.map { ($0.name, $0) })

    var bit: UInt64 { 1 << UInt64(rawValue) }
}

/// The keys one props dictionary carries: contract keys as bits, anything else by name.
struct PropKeySet {
    private(set) var bits: UInt64 = 0
    /// Keys that are no contract key at all, in no particular order.
    private(set) var others: [String] = []

    init(_ props: [String: PropValue]) {
        for key in props.keys {
            if let known = PropKey.byName[key] { bits |= known.bit } else { others.append(key) }
        }
    }

    func contains(_ key: PropKey) -> Bool { bits & key.bit != 0 }

    /// The keys present that `allowed` does not hold, sorted (the order diagnostics list them in).
    func keys(notIn allowed: UInt64) -> [String] {
        var unknown = others
        var rest = bits & ~allowed
        while rest != 0 {
            unknown.append(PropKey(rawValue: rest.trailingZeroBitCount)!.name)
            rest &= rest - 1
        }
        return unknown.count > 1 ? unknown.sorted() : unknown
    }

    static func mask(_ names: Set<String>) -> UInt64 {
        names.reduce(0) { $0 | (PropKey.byName[$1]?.bit ?? 0) }
    }
}
