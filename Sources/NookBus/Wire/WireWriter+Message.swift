import CSystemd
import Glibc
import NookCore

// NookCore's encoders written into an sd-bus message token by token as they come: the bytes
// of `PropValue.appendVardict` for the same dictionary, without hashing, sorting or working out
// signatures (the encoders write keys in order and say each value's type). Bus thread only.

/// A `WireWriter` that writes each token into `message`, inside one `a{sv}` argument it opens,
/// and, when asked, counts the bytes it takes there, so a plan's size costs no walk of its own.
/// The first sd-bus failure is kept and ends the writing (`finish()` throws it).
struct MessageWireWriter: WireWriter {
    let message: MessagePointer
    /// How many containers each open token's `end` closes.
    private var closing: [Int] = []
    private var failure: BusError?
    /// Nil when not counting.
    private var size: MarshalledSizeWriter?

    init(_ message: MessagePointer, countingBytes: Bool = false) {
        self.message = message
        if countingBytes { size = MarshalledSizeWriter() }
        closing.reserveCapacity(8)
        attempt { writer throws(BusError) in try writer.open("a", "{sv}") }
    }

    /// Closes the `a{sv}` and what is still open, or throws the first failure.
    /// - Returns: when counting, the bytes the `a{sv}` takes in the body (`MarshalledSize`).
    @discardableResult
    mutating func finish() throws(BusError) -> Int? {
        if let failure { throw failure }
        try close(1 + closing.count)
        return size?.bytes
    }

    mutating func append(_ token: WireTape.Token) {
        guard failure == nil else { return }
        size?.append(token)
        attempt { writer throws(BusError) in try writer.write(token) }
    }

    private mutating func attempt(_ body: (inout Self) throws(BusError) -> Void) {
        do throws(BusError) {
            try body(&self)
        } catch {
            failure = error
        }
    }

    private mutating func write(_ token: WireTape.Token) throws(BusError) {
        switch token {
        case .value(let key, let value):
            try openEntry(key, value.wireSignatureText)
            try value.appendWire(to: message)
            try close(2)
        case .string(let key, let text):
            try openEntry(key, "s")
            try DBusValue.appendString(text, code: "s", to: message)
            try close(2)
        case .double(let key, let number):
            try openEntry(key, "d")
            try appendDouble(number)
            try close(2)
        case .uint(let key, var number):
            try openEntry(key, "t")
            try check(sd_bus_message_append_basic(message, CChar(UInt8(ascii: "t")), &number), "sd_bus_message_append_basic")
            try close(2)
        case .bool(let key, let flag):
            try openEntry(key, "b")
            var number: Int32 = flag ? 1 : 0
            try check(sd_bus_message_append_basic(message, CChar(UInt8(ascii: "b")), &number), "sd_bus_message_append_basic")
            try close(2)
        case .rect(let key, let rect):
            try openEntry(key, "(dddd)")
            try open("r", "dddd")
            try appendDouble(rect.x)
            try appendDouble(rect.y)
            try appendDouble(rect.width)
            try appendDouble(rect.height)
            try close(3)
        case .vardict(let key):
            try openEntry(key, "a{sv}")
            try open("a", "{sv}")
            closing.append(3)
        case .array(let key, let element):
            switch element {
            case .vardict:
                try openEntry(key, "aa{sv}")
                try open("a", "a{sv}")
            case .string:
                try openEntry(key, "as")
                try open("a", "s")
            case .variant:
                try openEntry(key, "av")
                try open("a", "v")
            }
            closing.append(3)
        case .item:
            try open("a", "{sv}")
            closing.append(1)
        case .stringItem(let text):
            try DBusValue.appendString(text, code: "s", to: message)
        case .end:
            // NookCore's encoders are balanced; an unbalanced writer is refused, not a trap.
            guard let count = closing.popLast() else { throw BusError.system(function: "WireWriter.append", errno: EINVAL) }
            try close(count)
        }
    }

    /// Opens a dict entry, writes its key and opens the variant for a value of `signature`.
    private func openEntry(_ key: String, _ signature: StaticString) throws(BusError) {
        try open("e", "sv")
        try DBusValue.appendString(key, code: "s", to: message)
        try open("v", signature)
    }

    private func openEntry(_ key: String, _ signature: String) throws(BusError) {
        try open("e", "sv")
        try DBusValue.appendString(key, code: "s", to: message)
        let result = signature.withCString { sd_bus_message_open_container(message, CChar(UInt8(ascii: "v")), $0) }
        try check(result, "sd_bus_message_open_container")
    }

    private func open(_ type: Unicode.Scalar, _ contents: StaticString) throws(BusError) {
        let pointer = UnsafeRawPointer(contents.utf8Start).assumingMemoryBound(to: CChar.self)
        try check(sd_bus_message_open_container(message, CChar(UInt8(ascii: type)), pointer), "sd_bus_message_open_container")
    }

    private func appendDouble(_ value: Double) throws(BusError) {
        var value = value
        try check(sd_bus_message_append_basic(message, CChar(UInt8(ascii: "d")), &value), "sd_bus_message_append_basic")
    }

    private func close(_ count: Int) throws(BusError) {
        for _ in 0..<count { try check(sd_bus_message_close_container(message), "sd_bus_message_close_container") }
    }
}

extension WireTape {
    /// Appends the tape as one `a{sv}` argument.
    /// - Returns: with `countingBytes`, the bytes it takes in the body (`marshalledSize`).
    @discardableResult
    func append(to message: MessagePointer, countingBytes: Bool = false) throws(BusError) -> Int? {
        var writer = MessageWireWriter(message, countingBytes: countingBytes)
        for token in tokens { writer.append(token) }
        return try writer.finish()
    }
}

extension WirePlan {
    /// Appends the plan as one `a{sv}` argument, written straight from its model.
    /// - Returns: with `countingBytes`, the bytes it takes in the body (`marshalledSize`),
    ///   counted as it is written.
    @discardableResult
    func append(to message: MessagePointer, countingBytes: Bool = false) throws(BusError) -> Int? {
        var writer = MessageWireWriter(message, countingBytes: countingBytes)
        write(through: &writer)
        return try writer.finish()
    }

    /// Writes the plan into `writer` by way of a `WireTokenSink`, the writer NookCore's encoders
    /// are compiled for.
    func write<Writer: WireWriter>(through writer: inout Writer) {
        // Through a pointer: a closure capturing the variable itself checks exclusive access
        // at run time on every token.
        withUnsafeMutablePointer(to: &writer) { pointer in
            withoutActuallyEscaping({ (token: WireTape.Token) in pointer.pointee.append(token) }) { body in
                var sink = WireTokenSink(body)
                write(into: &sink)
            }
        }
    }
}
