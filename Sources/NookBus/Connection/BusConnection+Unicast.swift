import CSystemd
import NookCore

/// A plan-sized signal made once, to be unicast to many connections (`emit(_:to:)`): one
/// `a{sv}`, as props, a `WireTape`, or a `WirePlan` written straight from the plan.
///
/// It keeps the values, not an encoded message: sd-bus has no way to send one encoded body to
/// several destinations, and copying a message into a new one (`sd_bus_message_copy`) walks it
/// value by value, which measured slower than writing the values again
/// (`PropValue+Message.swift`, `WireWriter+Message.swift`).
public struct PreparedSignal: Sendable {
    let path: ObjectPath
    let interface: String
    let member: String
    let body: Body

    enum Body: Sendable {
        case props([String: PropValue])
        case tape(WireTape)
        case plan(WirePlan)
    }

    /// The signal `BusConnection.prepareSignal(path:interface:member:vardict:)` prepares.
    public init(path: ObjectPath, interface: String, member: String, vardict props: [String: PropValue]) {
        self.path = path
        self.interface = interface
        self.member = member
        body = .props(props)
    }

    /// The signal `BusConnection.prepareSignal(path:interface:member:tape:)` prepares.
    public init(path: ObjectPath, interface: String, member: String, tape: WireTape) {
        self.path = path
        self.interface = interface
        self.member = member
        body = .tape(tape)
    }

    /// The signal `BusConnection.prepareSignal(path:interface:member:plan:)` prepares.
    public init(path: ObjectPath, interface: String, member: String, plan: WirePlan) {
        self.path = path
        self.interface = interface
        self.member = member
        body = .plan(plan)
    }

    /// Writes this signal into a new message on `bus` for `body`, which must not keep it.
    /// - Returns: with `countingBytes`, the bytes of the message's body (`marshalledSize`): a
    ///   plan's and a tape's are counted as they are written, props are measured apart.
    @discardableResult
    func withMessage(on bus: OpaquePointer, countingBytes: Bool = false,
                     _ use: (MessagePointer) throws(BusError) -> Void) throws(BusError) -> Int? {
        var message: OpaquePointer?
        try check(sd_bus_message_new_signal(bus, &message, path.rawValue, interface, member), "sd_bus_message_new_signal")
        defer { sd_bus_message_unref(message) }
        let bytes: Int?
        switch body {
        case .props(let props):
            try PropValue.appendVardict(props, to: message!)
            bytes = countingBytes ? marshalledSize : nil
        case .tape(let tape): bytes = try tape.append(to: message!, countingBytes: countingBytes)
        case .plan(let plan): bytes = try plan.append(to: message!, countingBytes: countingBytes)
        }
        try use(message!)
        return bytes
    }
}

/// How a `Peer.Ping` ended.
public enum PingOutcome: Sendable {
    /// The peer replied (a return or an error of its own): it has read everything sent to it
    /// before the ping.
    case answered
    /// The bus replied instead (the peer left, or never existed), or the connection closed.
    case unanswered
}

extension BusConnection {
    /// A signal whose one argument is the `a{sv}` `WireCodec.vardict(props)` would make, for
    /// `emit(_:to:)`: the same bytes, written without building the `DBusValue`s (props always
    /// have a wire form, so there is nothing to check).
    public func prepareSignal(path: ObjectPath, interface: String, member: String, vardict props: [String: PropValue]) -> PreparedSignal {
        PreparedSignal(path: path, interface: interface, member: member, vardict: props)
    }

    /// A signal whose one argument is the `a{sv}` `tape` stands for, for `emit(_:to:)`: the
    /// bytes `prepareSignal(path:interface:member:vardict: tape.dictionary)` gives, written
    /// without hashing or sorting (the tape is in wire order).
    public func prepareSignal(path: ObjectPath, interface: String, member: String, tape: WireTape) -> PreparedSignal {
        PreparedSignal(path: path, interface: interface, member: member, tape: tape)
    }

    /// A signal whose one argument is the plan's `a{sv}`, for `emit(_:to:)`: the bytes of its
    /// tape, written straight from the plan into each destination's message.
    public func prepareSignal(path: ObjectPath, interface: String, member: String, plan: WirePlan) -> PreparedSignal {
        PreparedSignal(path: path, interface: interface, member: member, plan: plan)
    }

    /// Unicasts a prepared signal to `destination`.
    /// - Returns: with `countingBytes`, the bytes of the signal's body as `signal.marshalledSize`
    ///   gives them, counted while the message was written (no walk of the plan of its own);
    ///   nil without. A signal sent to several destinations needs counting once.
    @discardableResult
    public func emit(_ signal: PreparedSignal, to destination: String, countingBytes: Bool = false) throws -> Int? {
        try ensureOpen()
        return try signal.withMessage(on: bus, countingBytes: countingBytes) { message throws(BusError) in
            try check(sd_bus_send_to(bus, message, destination, nil), "sd_bus_send_to")
        }
    }

    /// Sends `org.freedesktop.DBus.Peer.Ping` to `destination` and calls `done` on this
    /// connection's thread when it ends. There is no timeout: a peer that never reads never
    /// answers, and when it leaves the bus daemon answers for it (`unanswered`).
    ///
    /// Every sd-bus, GDBus, libdbus and python-dbus client answers `Ping` by itself, so an
    /// answer proves the peer has read what was sent to it before.
    public func ping(_ destination: String, done: @escaping @Sendable (PingOutcome) -> Void) throws {
        try ensureOpen()
        var message: OpaquePointer?
        try check(sd_bus_message_new_method_call(bus, &message, destination, "/", "org.freedesktop.DBus.Peer", "Ping"),
                  "sd_bus_message_new_method_call")
        defer { sd_bus_message_unref(message) }
        let pending = PendingPing(destination: destination, done: done)
        let userdata = Unmanaged.passRetained(pending).toOpaque()
        var slot: OpaquePointer?
        // UINT64_MAX: no timeout (0 would mean sd-bus's default 25 s).
        let result = sd_bus_call_async(bus, &slot, message, pingReplied, userdata, UInt64.max)
        guard result >= 0 else {
            Unmanaged<PendingPing>.fromOpaque(userdata).release()
            throw BusError.system(function: "sd_bus_call_async", errno: -result)
        }
        sd_bus_slot_set_destroy_callback(slot, pingDestroyed)
        sd_bus_slot_set_floating(slot, 1)
        sd_bus_slot_unref(slot)
    }
}

/// A ping waiting for its answer; touched only on the bus thread.
private final class PendingPing {
    let destination: String
    private var done: (@Sendable (PingOutcome) -> Void)?

    init(destination: String, done: @escaping @Sendable (PingOutcome) -> Void) {
        self.destination = destination
        self.done = done
    }

    func finish(_ outcome: PingOutcome) {
        let callback = done
        done = nil
        callback?(outcome)
    }
}

private let pingReplied: sd_bus_message_handler_t = { message, userdata, _ in
    let pending = Unmanaged<PendingPing>.fromOpaque(userdata!).takeUnretainedValue()
    // Only a reply the peer itself sent is an answer; the bus daemon's NoReply (the peer
    // left) or sd-bus's own errors are not.
    let sender = sd_bus_message_get_sender(message).map { String(cString: $0) }
    pending.finish(sender == pending.destination ? .answered : .unanswered)
    return 0
}

private let pingDestroyed: sd_bus_destroy_t = { userdata in
    // A ping whose reply was dispatched has finished already; this covers a closed connection.
    Unmanaged<PendingPing>.fromOpaque(userdata!).takeRetainedValue().finish(.unanswered)
}
