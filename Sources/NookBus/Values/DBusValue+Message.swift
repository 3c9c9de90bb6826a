import CSystemd
import Glibc

// Writing and reading `DBusValue`s to and from sd-bus messages. Called on the bus thread only:
// a message belongs to the thread of its bus.

/// A message pointer confined to the bus thread.
typealias MessagePointer = OpaquePointer

/// How long a byte array (`ay`) reading a message may turn into values: each byte becomes a
/// `DBusValue`, tens of bytes of memory, so a 64 MiB array (the most D-Bus allows) would take
/// gigabytes. A longer one is skipped unread, reads as an empty array, and its length is kept.
struct ByteArrayBudget {
    let maxCount: Int
    var skippedCounts: [Int] = []

    static var unlimited: ByteArrayBudget { ByteArrayBudget(maxCount: .max) }
}

extension DBusValue {
    /// Appends this value to `message`. The value must be valid (see `validate()`).
    func append(to message: MessagePointer) throws(BusError) {
        switch self {
        case .byte(var v): try check(sd_bus_message_append_basic(message, CChar(UInt8(ascii: "y")), &v), "sd_bus_message_append_basic")
        case .bool(let b):
            var v: Int32 = b ? 1 : 0  // `b` is a 4-byte int in sd-bus
            try check(sd_bus_message_append_basic(message, CChar(UInt8(ascii: "b")), &v), "sd_bus_message_append_basic")
        case .int16(var v): try check(sd_bus_message_append_basic(message, CChar(UInt8(ascii: "n")), &v), "sd_bus_message_append_basic")
        case .uint16(var v): try check(sd_bus_message_append_basic(message, CChar(UInt8(ascii: "q")), &v), "sd_bus_message_append_basic")
        case .int32(var v): try check(sd_bus_message_append_basic(message, CChar(UInt8(ascii: "i")), &v), "sd_bus_message_append_basic")
        case .uint32(var v): try check(sd_bus_message_append_basic(message, CChar(UInt8(ascii: "u")), &v), "sd_bus_message_append_basic")
        case .int64(var v): try check(sd_bus_message_append_basic(message, CChar(UInt8(ascii: "x")), &v), "sd_bus_message_append_basic")
        case .uint64(var v): try check(sd_bus_message_append_basic(message, CChar(UInt8(ascii: "t")), &v), "sd_bus_message_append_basic")
        case .double(var v): try check(sd_bus_message_append_basic(message, CChar(UInt8(ascii: "d")), &v), "sd_bus_message_append_basic")
        case .unixFD(var v): try check(sd_bus_message_append_basic(message, CChar(UInt8(ascii: "h")), &v), "sd_bus_message_append_basic")
        case .string(let s): try Self.appendString(s, code: "s", to: message)
        case .objectPath(let p): try Self.appendString(p.rawValue, code: "o", to: message)
        case .signature(let g): try Self.appendString(g.rawValue, code: "g", to: message)
        case .array(let element, let items):
            try Self.withContainer(message, "a", element.rawValue) { () throws(BusError) in
                for item in items { try item.append(to: message) }
            }
        case .dictionary(let key, let value, let entries):
            let entrySignature = key.rawValue + value.rawValue
            try Self.withContainer(message, "a", "{" + entrySignature + "}") { () throws(BusError) in
                for entry in entries {
                    try Self.withContainer(message, "e", entrySignature) { () throws(BusError) in
                        try entry.key.append(to: message)
                        try entry.value.append(to: message)
                    }
                }
            }
        case .structure(let fields):
            try Self.withContainer(message, "r", fields.map(\.signatureText).joined()) { () throws(BusError) in
                for field in fields { try field.append(to: message) }
            }
        case .variant(let inner):
            try Self.withContainer(message, "v", inner.signatureText) { () throws(BusError) in
                try inner.append(to: message)
            }
        }
    }

    static func appendString(_ text: String, code: Unicode.Scalar, to message: MessagePointer) throws(BusError) {
        let result = text.withCString { sd_bus_message_append_basic(message, CChar(UInt8(ascii: code)), $0) }
        if result < 0 { throw BusError.system(function: "sd_bus_message_append_basic", errno: -result) }
    }

    static func withContainer(
        _ message: MessagePointer, _ type: Unicode.Scalar, _ contents: String, _ body: () throws(BusError) -> Void
    ) throws(BusError) {
        let opened = contents.withCString { sd_bus_message_open_container(message, CChar(UInt8(ascii: type)), $0) }
        if opened < 0 { throw BusError.system(function: "sd_bus_message_open_container", errno: -opened) }
        try body()
        try check(sd_bus_message_close_container(message), "sd_bus_message_close_container")
    }

    /// Appends every value, in order (a message body).
    static func appendAll(_ values: [DBusValue], to message: MessagePointer) throws(BusError) {
        for value in values {
            do { try value.validate() } catch { throw BusError.invalidValue(error) }
            try value.append(to: message)
        }
    }

    /// Reads every remaining value at the current level of `message`.
    static func readAll(from message: MessagePointer) throws(BusError) -> [DBusValue] {
        var budget = ByteArrayBudget.unlimited
        return try readAll(from: message, budget: &budget)
    }

    /// Reads every remaining value at the current level of `message`, skipping byte arrays
    /// over `budget`.
    static func readAll(from message: MessagePointer, budget: inout ByteArrayBudget) throws(BusError) -> [DBusValue] {
        var values: [DBusValue] = []
        while let value = try read(from: message, budget: &budget) { values.append(value) }
        return values
    }

    /// Reads the next value, or nil at the end of the current container.
    static func read(from message: MessagePointer, budget: inout ByteArrayBudget) throws(BusError) -> DBusValue? {
        var type: CChar = 0
        var contentsPointer: UnsafePointer<CChar>? = nil
        let peeked = try check(sd_bus_message_peek_type(message, &type, &contentsPointer), "sd_bus_message_peek_type")
        if peeked == 0 { return nil }
        let code = UInt8(bitPattern: type)
        // Copy now: the contents string points into the message.
        let contents = contentsPointer.map { String(cString: $0) } ?? ""
        switch code {
        case UInt8(ascii: "y"): var v: UInt8 = 0; try readBasic(message, type, &v); return .byte(v)
        case UInt8(ascii: "b"): var v: Int32 = 0; try readBasic(message, type, &v); return .bool(v != 0)
        case UInt8(ascii: "n"): var v: Int16 = 0; try readBasic(message, type, &v); return .int16(v)
        case UInt8(ascii: "q"): var v: UInt16 = 0; try readBasic(message, type, &v); return .uint16(v)
        case UInt8(ascii: "i"): var v: Int32 = 0; try readBasic(message, type, &v); return .int32(v)
        case UInt8(ascii: "u"): var v: UInt32 = 0; try readBasic(message, type, &v); return .uint32(v)
        case UInt8(ascii: "x"): var v: Int64 = 0; try readBasic(message, type, &v); return .int64(v)
        case UInt8(ascii: "t"): var v: UInt64 = 0; try readBasic(message, type, &v); return .uint64(v)
        case UInt8(ascii: "d"): var v: Double = 0; try readBasic(message, type, &v); return .double(v)
        case UInt8(ascii: "h"):
            var v: Int32 = -1
            try readBasic(message, type, &v)
            // The message owns its descriptor; hand the reader its own.
            let copy = nook_dup_cloexec(v)
            if copy < 0 { throw BusError.system(function: "fcntl(F_DUPFD_CLOEXEC)", errno: errno) }
            return .unixFD(copy)
        case UInt8(ascii: "s"), UInt8(ascii: "o"), UInt8(ascii: "g"):
            var pointer: UnsafePointer<CChar>? = nil
            try readBasic(message, type, &pointer)
            let text = pointer.map { String(cString: $0) } ?? ""
            if code == UInt8(ascii: "s") { return .string(text) }
            if code == UInt8(ascii: "o") { return .objectPath(try objectPath(text)) }
            return .signature(Signature(unchecked: text))
        case UInt8(ascii: "v"):
            return try inContainer(message, type, contents) { () throws(BusError) in
                guard let inner = try read(from: message, budget: &budget) else { throw BusError.system(function: "sd_bus_message_read(variant)", errno: EBADMSG) }
                return .variant(inner)
            }
        case UInt8(ascii: "r"):
            return try inContainer(message, type, contents) { () throws(BusError) in .structure(try readAll(from: message, budget: &budget)) }
        case UInt8(ascii: "a"):
            if contents.first == "{" {
                // `{kv}`: the key is one basic type code, the value the rest.
                let inner = String(contents.dropFirst().dropLast())
                guard inner.count >= 2 else { throw BusError.system(function: "sd_bus_message_peek_type(dict)", errno: EBADMSG) }
                let parts = [Signature(unchecked: String(inner.prefix(1))), Signature(unchecked: String(inner.dropFirst()))]
                return try inContainer(message, type, contents) { () throws(BusError) in
                    var entries: [DictEntry] = []
                    while try check(inner.withCString { sd_bus_message_enter_container(message, CChar(UInt8(ascii: "e")), $0) }, "sd_bus_message_enter_container") > 0 {
                        guard let key = try read(from: message, budget: &budget), let value = try read(from: message, budget: &budget) else {
                            throw BusError.system(function: "sd_bus_message_read(dict entry)", errno: EBADMSG)
                        }
                        entries.append(DictEntry(key, value))
                        try check(sd_bus_message_exit_container(message), "sd_bus_message_exit_container")
                    }
                    return .dictionary(key: parts[0], value: parts[1], entries)
                }
            }
            if contents == "y" { return try readBytes(from: message, budget: &budget) }
            return try inContainer(message, type, contents) { () throws(BusError) in
                .array(element: Signature(unchecked: contents), try readAll(from: message, budget: &budget))
            }
        default:
            throw BusError.system(function: "sd_bus_message_peek_type(unknown type \(code))", errno: EBADMSG)
        }
    }

    /// An `ay` in one call (sd-bus hands out the bytes in place): a byte at a time, a 1 MiB
    /// array took a million peeks. One longer than the budget allows is skipped unread.
    private static func readBytes(from message: MessagePointer, budget: inout ByteArrayBudget) throws(BusError) -> DBusValue {
        var start: UnsafeRawPointer? = nil
        var count = 0
        try check(sd_bus_message_read_array(message, CChar(UInt8(ascii: "y")), &start, &count), "sd_bus_message_read_array")
        guard count <= budget.maxCount else {
            budget.skippedCounts.append(count)
            return .array(element: "y", [])
        }
        return .array(element: "y", UnsafeRawBufferPointer(start: start, count: count).map { DBusValue.byte($0) })
    }

    private static func objectPath(_ text: String) throws(BusError) -> ObjectPath {
        do { return try ObjectPath(text) } catch { throw BusError.invalidName(error) }
    }

    /// `T` is always a trivial C-sized value (an integer, a double or a C string pointer).
    private static func readBasic<T: BitwiseCopyable>(_ message: MessagePointer, _ type: CChar, _ value: inout T) throws(BusError) {
        try check(withUnsafeMutablePointer(to: &value) { sd_bus_message_read_basic(message, type, $0) }, "sd_bus_message_read_basic")
    }

    private static func inContainer(
        _ message: MessagePointer, _ type: CChar, _ contents: String, _ body: () throws(BusError) -> DBusValue
    ) throws(BusError) -> DBusValue {
        try check(contents.withCString { sd_bus_message_enter_container(message, type, $0) }, "sd_bus_message_enter_container")
        let value = try body()
        try check(sd_bus_message_exit_container(message), "sd_bus_message_exit_container")
        return value
    }
}
