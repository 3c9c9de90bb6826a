import NookCore

/// sway's IPC (the i3 IPC protocol, `$SWAYSOCK`), as much as `output: focused` needs: the
/// renderer subscribes to `workspace` (and, where sway has them, `output`) events and, after each, asks for the
/// outputs (`GET_OUTPUTS`) to learn which one has the focus, so the nook moves to it when the
/// focus does, with no polling. Pure: framing and parsing here, the socket in nook-renderer.
///
/// A message is the magic `i3-ipc`, the payload's length and the message type (each a 32-bit
/// integer in the host's byte order), then the payload (JSON). Events have the type's high bit set.
public enum SwayIPC {
    public static let magic: [UInt8] = Array("i3-ipc".utf8)
    /// Magic, length, type.
    public static let headerSize = 14
    /// The longest payload read: 16 MiB (a `GET_OUTPUTS` reply is a few KiB per output). A
    /// longer one ends the connection, and the renderer falls back to its once-a-second check.
    public static let maxPayload = 16 << 20

    public enum MessageType: UInt32, Sendable {
        case subscribe = 2
        case getOutputs = 3
    }

    /// Event types: the high bit and the event's number.
    public static let eventBit: UInt32 = 0x8000_0000

    /// One message to send: `type` with `payload`.
    public static func message(_ type: MessageType, payload: String = "") -> [UInt8] {
        let body = Array(payload.utf8)
        var bytes = magic
        withUnsafeBytes(of: UInt32(body.count)) { bytes += $0 }
        withUnsafeBytes(of: type.rawValue) { bytes += $0 }
        return bytes + body
    }

    /// `SUBSCRIBE` to `workspace` events, which come with every change of focus between
    /// outputs (the focused output's workspace gains the focus). Required.
    public static let subscribeToWorkspaces = message(.subscribe, payload: #"["workspace"]"#)
    /// `SUBSCRIBE` to `output` events, sent on its own: sway 1.7 has no such event and refuses
    /// a subscription naming it, so its refusal only means outputs coming and going are heard
    /// through GDK instead.
    public static let subscribeToOutputs = message(.subscribe, payload: #"["output"]"#)
    public static let getOutputs = message(.getOutputs)

    /// A message read back: its type (events with `eventBit`) and its payload.
    public struct Message: Hashable, Sendable {
        public var type: UInt32
        public var payload: [UInt8]

        public var isEvent: Bool { type & SwayIPC.eventBit != 0 }
    }

    public struct ProtocolError: Error, Hashable, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Bytes as they arrive, cut into messages.
    public struct Reader: Sendable {
        private var buffer: [UInt8] = []

        public init() {}

        /// Adds `bytes` and returns the messages now complete, in order.
        /// - Throws: `ProtocolError` for a header without the magic or a payload longer than
        ///   `maxPayload`; the connection is then of no use.
        public mutating func feed(_ bytes: some Collection<UInt8>) throws(ProtocolError) -> [Message] {
            buffer += bytes
            var out: [Message] = []
            var start = 0
            while buffer.count - start >= SwayIPC.headerSize {
                guard buffer[start..<start + 6].elementsEqual(SwayIPC.magic) else {
                    throw ProtocolError(description: "a message without the i3-ipc magic")
                }
                let length = Int(Self.uint32(buffer, at: start + 6))
                guard length <= SwayIPC.maxPayload else {
                    throw ProtocolError(description: "a payload of \(length) bytes (at most \(SwayIPC.maxPayload))")
                }
                guard buffer.count - start >= SwayIPC.headerSize + length else { break }
                let type = Self.uint32(buffer, at: start + 10)
                let payloadStart = start + SwayIPC.headerSize
                out.append(Message(type: type, payload: Array(buffer[payloadStart..<payloadStart + length])))
                start = payloadStart + length
            }
            buffer.removeFirst(start)
            return out
        }

        private static func uint32(_ bytes: [UInt8], at index: Int) -> UInt32 {
            var value: UInt32 = 0
            withUnsafeMutableBytes(of: &value) { raw in
                for offset in 0..<4 { raw[offset] = bytes[index + offset] }
            }
            return value
        }
    }

    /// The name of the output with `"focused": true` in a `GET_OUTPUTS` reply; nil when none
    /// has (every output is off) or the reply is not a list of outputs.
    public static func focusedOutput(inOutputsReply payload: [UInt8]) -> String? {
        guard let text = String(validating: payload, as: UTF8.self),
              case .array(let outputs)? = try? JSONValue.parse(text, maxDepth: 16) else { return nil }
        for case .object(let output) in outputs {
            if output["focused"] == .bool(true), case .string(let name)? = output["name"], !name.isEmpty { return name }
        }
        return nil
    }

    /// Whether a `SUBSCRIBE` reply says `"success": true`.
    public static func subscribed(_ payload: [UInt8]) -> Bool {
        guard let text = String(validating: payload, as: UTF8.self),
              case .object(let reply)? = try? JSONValue.parse(text, maxDepth: 4) else { return false }
        return reply["success"] == .bool(true)
    }
}
