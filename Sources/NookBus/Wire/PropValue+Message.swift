import CSystemd
import NookCore

// Props written straight into an sd-bus message, in exactly the form `wireValue` gives
// (`PropValue+Wire.swift`), without building the `DBusValue` tree first: a plan's `a{sv}` is
// hundreds of values, and the tree cost as much to build as the message to write.
// Bus thread only, as every message.

extension PropValue {
    /// The signature of `wireValue`, worked out without building it.
    var wireSignatureText: String {
        switch self {
        // Scalars, dictionaries and nodes: `typeName` spells their signature already.
        case .bool, .int, .uint, .double, .string, .dictionary, .node: typeName
        case .array(let items): "a" + Self.elementSignature(items)
        case .structure(let fields): fields.isEmpty ? "av" : "(" + fields.map(\.wireSignatureText).joined() + ")"
        }
    }

    /// What `WireCodec.array` makes of `items`: their one signature, or `v` when they have
    /// several (or none).
    private static func elementSignature(_ items: [PropValue]) -> String {
        guard let first = items.first?.wireSignatureText, items.dropFirst().allSatisfy({ $0.wireSignatureText == first }) else { return "v" }
        return first
    }

    /// Appends `wireValue` to `message`.
    func appendWire(to message: MessagePointer) throws(BusError) {
        switch self {
        case .bool(let b):
            var v: Int32 = b ? 1 : 0
            try check(sd_bus_message_append_basic(message, CChar(UInt8(ascii: "b")), &v), "sd_bus_message_append_basic")
        case .int(var v): try check(sd_bus_message_append_basic(message, CChar(UInt8(ascii: "x")), &v), "sd_bus_message_append_basic")
        case .uint(var v): try check(sd_bus_message_append_basic(message, CChar(UInt8(ascii: "t")), &v), "sd_bus_message_append_basic")
        case .double(var v): try check(sd_bus_message_append_basic(message, CChar(UInt8(ascii: "d")), &v), "sd_bus_message_append_basic")
        case .string(let s): try DBusValue.appendString(s, code: "s", to: message)
        case .dictionary(let entries): try Self.appendVardict(entries, to: message)
        case .node(let node): try Self.appendNode(node, to: message)
        case .array(let items):
            let element = Self.elementSignature(items)
            try DBusValue.withContainer(message, "a", element) { () throws(BusError) in
                if element == "v" {
                    for item in items { try Self.appendVariant(item, to: message) }
                } else {
                    for item in items { try item.appendWire(to: message) }
                }
            }
        case .structure(let fields):
            if fields.isEmpty {
                try DBusValue.withContainer(message, "a", "v") { () throws(BusError) in }
            } else {
                try DBusValue.withContainer(message, "r", fields.map(\.wireSignatureText).joined()) { () throws(BusError) in
                    for field in fields { try field.appendWire(to: message) }
                }
            }
        }
    }

    /// Appends `WireCodec.vardict(props)`: an `a{sv}` with its keys sorted.
    static func appendVardict(_ props: [String: PropValue], to message: MessagePointer) throws(BusError) {
        try DBusValue.withContainer(message, "a", "{sv}") { () throws(BusError) in
            for (key, value) in props.sorted(by: { $0.key < $1.key }) {
                try DBusValue.withContainer(message, "e", "sv") { () throws(BusError) in
                    try DBusValue.appendString(key, code: "s", to: message)
                    try appendVariant(value, to: message)
                }
            }
        }
    }

    private static func appendNode(_ node: RawNode, to message: MessagePointer) throws(BusError) {
        try DBusValue.withContainer(message, "r", "sa{sv}av") { () throws(BusError) in
            try DBusValue.appendString(node.kind, code: "s", to: message)
            try appendVardict(node.props, to: message)
            try DBusValue.withContainer(message, "a", "v") { () throws(BusError) in
                for child in node.children {
                    try DBusValue.withContainer(message, "v", RawNode.wireSignature.rawValue) { () throws(BusError) in
                        try appendNode(child, to: message)
                    }
                }
            }
        }
    }

    private static func appendVariant(_ value: PropValue, to message: MessagePointer) throws(BusError) {
        try DBusValue.withContainer(message, "v", value.wireSignatureText) { () throws(BusError) in try value.appendWire(to: message) }
    }

    /// Appends `WireCodec.vardict` of `props` and of `views` as nodes (`.node(view.rawNode)`):
    /// the same bytes, with each view written straight from its `NodeProps`, so no `RawNode`
    /// is built. A key in both is refused.
    static func appendVardict(_ props: [String: PropValue], views: [String: ViewNode], to message: MessagePointer) throws(BusError) {
        guard !views.isEmpty else { return try appendVardict(props, to: message) }
        let keys = (Array(props.keys) + Array(views.keys)).sorted()
        // A key twice would make an `a{sv}` the reading side refuses: refused here (EINVAL).
        for (key, next) in zip(keys, keys.dropFirst()) where key == next {
            throw BusError.system(function: "appendVardict (the key '\(key)' is both a prop and a view)", errno: EINVAL)
        }
        try DBusValue.withContainer(message, "a", "{sv}") { () throws(BusError) in
            for key in keys {
                try DBusValue.withContainer(message, "e", "sv") { () throws(BusError) in
                    try DBusValue.appendString(key, code: "s", to: message)
                    if let view = views[key] {
                        try DBusValue.withContainer(message, "v", RawNode.wireSignature.rawValue) { () throws(BusError) in
                            try appendView(view, to: message)
                        }
                    } else {
                        try appendVariant(props[key]!, to: message)
                    }
                }
            }
        }
    }

    /// `appendNode(view.rawNode)`, the props read straight from `NodeProps` in the wire's order.
    static func appendView(_ view: ViewNode, to message: MessagePointer) throws(BusError) {
        try DBusValue.withContainer(message, "r", "sa{sv}av") { () throws(BusError) in
            try DBusValue.appendString(view.kind.rawValue, code: "s", to: message)
            try DBusValue.withContainer(message, "a", "{sv}") { () throws(BusError) in
                try view.props.forEachRawProp { (key, value) throws(BusError) in
                    try DBusValue.withContainer(message, "e", "sv") { () throws(BusError) in
                        try DBusValue.appendString(key, code: "s", to: message)
                        try appendVariant(value, to: message)
                    }
                }
            }
            try DBusValue.withContainer(message, "a", "v") { () throws(BusError) in
                for child in view.children {
                    try DBusValue.withContainer(message, "v", RawNode.wireSignature.rawValue) { () throws(BusError) in
                        try appendView(child, to: message)
                    }
                }
            }
        }
    }
}
