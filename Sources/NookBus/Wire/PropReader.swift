import CSystemd
import NookCore

/// Props read straight out of a message: what `WireCodec.dictionary(DBusValue.read(...))`
/// gives, without building the `DBusValue` tree, converting it and freeing it (for a module's
/// `UpdateActivity` that was a third of the call's work before validation; issue 21).
///
/// Only the plain forms are read: basic values other than `h`, `o` and `g`, variants,
/// string-keyed dictionaries, arrays other than `ay`, structs and view nodes. On anything else
/// (a file descriptor, a byte array, a dictionary keyed by another type, a key twice, a node
/// whose children are not nodes) it answers nil, and the caller reads the message again the
/// general way, which refuses or reads it exactly as it always did.
/// Bus thread only, as every message.
enum PropReader {
    /// Reads the `a{s*}` at the message's current position.
    static func record(from message: MessagePointer) -> [String: PropValue]? {
        guard case .dictionary(let entries)? = value(from: message) else { return nil }
        return entries
    }

    /// Reads the `a{sv}` at the message's current position, reading the view of each of
    /// `views.keys` that is a node in its variant straight into a validated `ReadView`
    /// (`OnePassView`), which is then not in the record. Nil, as above, for anything else
    /// `record(from:)` refuses, and for a view the one-pass checks do not pass: read the message
    /// again the general way, and the validator names what is wrong.
    static func record(from message: MessagePointer, views reading: ViewReading) -> (record: [String: PropValue], views: [String: ReadView])? {
        var type: CChar = 0
        var contents: UnsafePointer<CChar>?
        guard sd_bus_message_peek_type(message, &type, &contents) > 0, type == CChar(UInt8(ascii: "a")), let contents,
            strcmp(contents, "{sv}") == 0, sd_bus_message_enter_container(message, type, contents) > 0
        else { return nil }
        var entries: [String: PropValue] = [:]
        var views: [String: ReadView] = [:]
        while sd_bus_message_enter_container(message, CChar(UInt8(ascii: "e")), "sv") > 0 {
            guard let key = string(message), entries[key] == nil, views[key] == nil else { return nil }
            if reading.keys.contains(key), holdsNode(message) {
                var check = OnePassView(limits: reading.limits)
                guard let view = viewInVariant(message, &check, depth: 1) else { return nil }
                views[key] = view
            } else {
                guard let value = value(from: message) else { return nil }
                entries[key] = value
            }
            guard sd_bus_message_exit_container(message) >= 0 else { return nil }
        }
        guard sd_bus_message_exit_container(message) >= 0 else { return nil }
        return (entries, views)
    }

    /// Reads the view (`(sa{sv}av)`) at the message's current position straight into a
    /// validated `ReadView`; nil when it is not one, or does not pass the one-pass checks.
    static func view(from message: MessagePointer, limits: ViewLimits) -> ReadView? {
        var type: CChar = 0
        var contents: UnsafePointer<CChar>?
        guard sd_bus_message_peek_type(message, &type, &contents) > 0, type == CChar(UInt8(ascii: "r")), let contents,
            strcmp(contents, "sa{sv}av") == 0
        else { return nil }
        var check = OnePassView(limits: limits)
        return inside(message, type, contents) { view(message, &check, depth: 1) }
    }

    /// Whether the next value is a variant holding a view node directly.
    private static func holdsNode(_ message: MessagePointer) -> Bool {
        var type: CChar = 0
        var contents: UnsafePointer<CChar>?
        guard sd_bus_message_peek_type(message, &type, &contents) > 0, type == CChar(UInt8(ascii: "v")), let contents else { return false }
        return strcmp(contents, "(sa{sv}av)") == 0
    }

    /// The view in the variant at the current position (`holdsNode` said it holds one).
    private static func viewInVariant(_ message: MessagePointer, _ check: inout OnePassView, depth: Int) -> ReadView? {
        inside(message, CChar(UInt8(ascii: "v")), "(sa{sv}av)") {
            inside(message, CChar(UInt8(ascii: "r")), "sa{sv}av") { view(message, &check, depth: depth) }
        }
    }

    /// A view node's fields, inside its struct, checked as they are read (`OnePassView`); its
    /// children must be nodes directly in their variants. Nil at the first thing the one-pass
    /// checks do not pass.
    private static func view(_ message: MessagePointer, _ check: inout OnePassView, depth: Int) -> ReadView? {
        guard let kind = string(message), var node = check.node(kind: kind, depth: depth),
            sd_bus_message_enter_container(message, CChar(UInt8(ascii: "a")), "{sv}") > 0
        else { return nil }
        while sd_bus_message_enter_container(message, CChar(UInt8(ascii: "e")), "sv") > 0 {
            guard let key = string(message), let value = value(from: message), node.take(key, value),
                sd_bus_message_exit_container(message) >= 0
            else { return nil }
        }
        guard sd_bus_message_exit_container(message) >= 0,
            sd_bus_message_enter_container(message, CChar(UInt8(ascii: "a")), "v") > 0
        else { return nil }
        var children: [ReadView] = []
        while true {
            let end = sd_bus_message_at_end(message, 0)
            if end < 0 { return nil }
            if end > 0 { break }
            guard holdsNode(message), let child = viewInVariant(message, &check, depth: depth + 1) else { return nil }
            children.append(child)
        }
        guard sd_bus_message_exit_container(message) >= 0 else { return nil }
        return node.finish(children: children)
    }

    /// Reads the next value, or nil when it is not one of the plain forms (or cannot be read).
    private static func value(from message: MessagePointer) -> PropValue? {
        var type: CChar = 0
        var contents: UnsafePointer<CChar>?
        guard sd_bus_message_peek_type(message, &type, &contents) > 0 else { return nil }
        switch UInt8(bitPattern: type) {
        case UInt8(ascii: "y"): return basic(message, type, UInt8(0)).map { .uint(UInt64($0)) }
        case UInt8(ascii: "b"): return basic(message, type, Int32(0)).map { .bool($0 != 0) }
        case UInt8(ascii: "n"): return basic(message, type, Int16(0)).map { .int(Int64($0)) }
        case UInt8(ascii: "q"): return basic(message, type, UInt16(0)).map { .uint(UInt64($0)) }
        case UInt8(ascii: "i"): return basic(message, type, Int32(0)).map { .int(Int64($0)) }
        case UInt8(ascii: "u"): return basic(message, type, UInt32(0)).map { .uint(UInt64($0)) }
        case UInt8(ascii: "x"): return basic(message, type, Int64(0)).map { .int($0) }
        case UInt8(ascii: "t"): return basic(message, type, UInt64(0)).map { .uint($0) }
        case UInt8(ascii: "d"): return basic(message, type, Double(0)).map { .double($0) }
        case UInt8(ascii: "s"): return string(message).map { .string($0) }
        case UInt8(ascii: "v"):
            guard let contents else { return nil }
            return inside(message, type, contents) { value(from: message) }
        case UInt8(ascii: "a"):
            guard let contents else { return nil }
            if contents[0] == CChar(UInt8(ascii: "{")) { return dictionary(message, contents) }
            // Byte arrays have a budget the general reader keeps.
            if contents[0] == CChar(UInt8(ascii: "y")) { return nil }
            return inside(message, type, contents) { items(message).map { .array($0) } }
        case UInt8(ascii: "r"):
            guard let contents else { return nil }
            if strcmp(contents, "sa{sv}av") == 0 { return inside(message, type, contents) { node(message).map { .node($0) } } }
            return inside(message, type, contents) { items(message).map { .structure($0) } }
        default:
            return nil
        }
    }

    /// A view node's fields, inside its struct: kind, props, then children, each a variant
    /// holding a node (variants within variants too, as `RawNode(wire:at:)` reads them).
    private static func node(_ message: MessagePointer) -> RawNode? {
        guard let kind = string(message), case .dictionary(let props)? = value(from: message),
            case .array(let children)? = value(from: message)
        else { return nil }
        var nodes: [RawNode] = []
        nodes.reserveCapacity(children.count)
        for child in children {
            guard case .node(let node) = child else { return nil }
            nodes.append(node)
        }
        return RawNode(kind: kind, props: props, children: nodes)
    }

    /// The values left in the current container.
    private static func items(_ message: MessagePointer) -> [PropValue]? {
        var items: [PropValue] = []
        while true {
            let end = sd_bus_message_at_end(message, 0)
            if end < 0 { return nil }
            if end > 0 { return items }
            guard let item = value(from: message) else { return nil }
            items.append(item)
        }
    }

    /// `a{s*}`: string keys, each once.
    private static func dictionary(_ message: MessagePointer, _ contents: UnsafePointer<CChar>) -> PropValue? {
        // `{s...}`: the entry's signature is what lies between the braces.
        guard contents[1] == CChar(UInt8(ascii: "s")) else { return nil }
        let length = strlen(contents)
        guard length >= 4 else { return nil }
        var entry = Array(UnsafeBufferPointer(start: contents + 1, count: length - 2))
        entry.append(0)
        guard sd_bus_message_enter_container(message, CChar(UInt8(ascii: "a")), contents) > 0 else { return nil }
        var entries: [String: PropValue] = [:]
        while sd_bus_message_enter_container(message, CChar(UInt8(ascii: "e")), entry) > 0 {
            guard let key = string(message), entries[key] == nil, let value = value(from: message),
                sd_bus_message_exit_container(message) >= 0
            else { return nil }
            entries[key] = value
        }
        guard sd_bus_message_exit_container(message) >= 0 else { return nil }
        return .dictionary(entries)
    }

    private static func inside<T>(_ message: MessagePointer, _ type: CChar, _ contents: UnsafePointer<CChar>, _ body: () -> T?) -> T? {
        guard sd_bus_message_enter_container(message, type, contents) > 0, let value = body(),
            sd_bus_message_exit_container(message) >= 0
        else { return nil }
        return value
    }

    private static func string(_ message: MessagePointer) -> String? {
        var pointer: UnsafePointer<CChar>?
        guard sd_bus_message_read_basic(message, CChar(UInt8(ascii: "s")), &pointer) > 0, let pointer else { return nil }
        return String(cString: pointer)
    }

    /// `T` is a trivial C-sized value of the type `type` names.
    private static func basic<T: BitwiseCopyable>(_ message: MessagePointer, _ type: CChar, _ initial: T) -> T? {
        var value = initial
        let read = withUnsafeMutablePointer(to: &value) { sd_bus_message_read_basic(message, type, $0) }
        return read > 0 ? value : nil
    }
}
