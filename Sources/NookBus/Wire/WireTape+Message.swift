import CSystemd
import Glibc
import NookCore

// A `WireTape` written into an sd-bus message token by token: the bytes of
// `PropValue.appendVardict` for the tape's dictionary, without hashing, sorting or working out
// signatures (the tape has its keys in order and says each value's type). Bus thread only.

extension WireTape {
    /// Appends the tape as one `a{sv}` argument.
    func append(to message: MessagePointer) throws(BusError) {
        // How many containers each open token's `end` closes.
        var closing: [Int] = []
        closing.reserveCapacity(8)
        try open(message, "a", "{sv}")
        for token in tokens {
            switch token {
            case .value(let key, let value):
                try openEntry(message, key, value.wireSignatureText)
                try value.appendWire(to: message)
                try close(message, 2)
            case .string(let key, let text):
                try openEntry(message, key, "s")
                try DBusValue.appendString(text, code: "s", to: message)
                try close(message, 2)
            case .double(let key, let number):
                try openEntry(message, key, "d")
                try appendDouble(message, number)
                try close(message, 2)
            case .uint(let key, var number):
                try openEntry(message, key, "t")
                try check(sd_bus_message_append_basic(message, CChar(UInt8(ascii: "t")), &number), "sd_bus_message_append_basic")
                try close(message, 2)
            case .bool(let key, let flag):
                try openEntry(message, key, "b")
                var number: Int32 = flag ? 1 : 0
                try check(sd_bus_message_append_basic(message, CChar(UInt8(ascii: "b")), &number), "sd_bus_message_append_basic")
                try close(message, 2)
            case .rect(let key, let rect):
                try openEntry(message, key, "(dddd)")
                try open(message, "r", "dddd")
                try appendDouble(message, rect.x)
                try appendDouble(message, rect.y)
                try appendDouble(message, rect.width)
                try appendDouble(message, rect.height)
                try close(message, 3)
            case .vardict(let key):
                try openEntry(message, key, "a{sv}")
                try open(message, "a", "{sv}")
                closing.append(3)
            case .array(let key, let element):
                switch element {
                case .vardict:
                    try openEntry(message, key, "aa{sv}")
                    try open(message, "a", "a{sv}")
                case .string:
                    try openEntry(message, key, "as")
                    try open(message, "a", "s")
                case .variant:
                    try openEntry(message, key, "av")
                    try open(message, "a", "v")
                }
                closing.append(3)
            case .item:
                try open(message, "a", "{sv}")
                closing.append(1)
            case .stringItem(let text):
                try DBusValue.appendString(text, code: "s", to: message)
            case .end:
                // Tapes come balanced from NookCore; an unbalanced one is refused, not a trap.
                guard let count = closing.popLast() else { throw BusError.system(function: "WireTape.append", errno: EINVAL) }
                try close(message, count)
            }
        }
        try close(message, 1 + closing.count)
    }

    /// Opens a dict entry, writes its key and opens the variant for a value of `signature`.
    private func openEntry(_ message: MessagePointer, _ key: String, _ signature: StaticString) throws(BusError) {
        try open(message, "e", "sv")
        try DBusValue.appendString(key, code: "s", to: message)
        try open(message, "v", signature)
    }

    private func openEntry(_ message: MessagePointer, _ key: String, _ signature: String) throws(BusError) {
        try open(message, "e", "sv")
        try DBusValue.appendString(key, code: "s", to: message)
        let result = signature.withCString { sd_bus_message_open_container(message, CChar(UInt8(ascii: "v")), $0) }
        try check(result, "sd_bus_message_open_container")
    }

    private func open(_ message: MessagePointer, _ type: Unicode.Scalar, _ contents: StaticString) throws(BusError) {
        let pointer = UnsafeRawPointer(contents.utf8Start).assumingMemoryBound(to: CChar.self)
        try check(sd_bus_message_open_container(message, CChar(UInt8(ascii: type)), pointer), "sd_bus_message_open_container")
    }

    private func appendDouble(_ message: MessagePointer, _ value: Double) throws(BusError) {
        var value = value
        try check(sd_bus_message_append_basic(message, CChar(UInt8(ascii: "d")), &value), "sd_bus_message_append_basic")
    }

    private func close(_ message: MessagePointer, _ count: Int) throws(BusError) {
        for _ in 0..<count { try check(sd_bus_message_close_container(message), "sd_bus_message_close_container") }
    }
}
