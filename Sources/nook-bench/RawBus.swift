import CSystemd
import Glibc
import NookBus
import Synchronization

// Plain sd-bus on threads of their own: the baselines the benchmarks compare NookBus and nookd
// with, written the way a C programmer would, with nothing of NookBus in the timed path.
//
// The one file of nook-bench that calls sd-bus. The baselines themselves stay beside their
// benchmarks (RawEchoServer, ZeroWorkBroker, ...) and call sd-bus through the thin wrappers
// below: each wrapper makes the same sd-bus calls, in the same order, that the baselines made
// inline, and a handler is still a C function that sd-bus calls directly.

/// What sd-bus calls for a method or a matched signal (`sd_bus_message_handler_t`): the
/// message, the userdata given with the handler, and an error to fill in.
typealias RawMessageHandler = sd_bus_message_handler_t

/// A raw sd-bus connection (`sd_bus *`), used by one thread at a time.
struct RawBus {
    let handle: OpaquePointer?

    /// Connects to `address` as a bus client (with `Hello`).
    static func connect(_ address: String) throws(BusError) -> RawBus {
        var bus: OpaquePointer?
        var r = sd_bus_new(&bus)
        if r >= 0 { r = sd_bus_set_address(bus, address) }
        if r >= 0 { r = sd_bus_set_bus_client(bus, 1) }
        if r >= 0 { r = sd_bus_start(bus) }
        if r < 0 { throw BusError.system(function: "sd_bus_start", errno: -r) }
        return RawBus(handle: bus)
    }

    var uniqueName: String {
        var name: UnsafePointer<CChar>?
        sd_bus_get_unique_name(handle, &name)
        return String(cString: name!)
    }

    func requestName(_ name: String) throws(BusError) {
        let r = sd_bus_request_name(handle, name, 0)
        if r < 0 { throw BusError.system(function: "sd_bus_request_name", errno: -r) }
    }

    /// Handles one pending message or other event: positive if there was one, 0 if nothing
    /// was pending, negative once the connection failed.
    func process() -> Int32 { sd_bus_process(handle, nil) }

    /// Waits until there is something to process, at most `microseconds`.
    func wait(microseconds: UInt64) { sd_bus_wait(handle, microseconds) }

    /// The descriptor and events `poll(2)` should wait for before the next `process()`.
    var pollDescriptor: pollfd {
        pollfd(fd: sd_bus_get_fd(handle), events: Int16(truncatingIfNeeded: sd_bus_get_events(handle)), revents: 0)
    }

    /// Sends what is queued, then closes and frees the connection.
    func flushAndClose() { sd_bus_flush_close_unref(handle) }

    /// Serves the object at `path`: `handler` gets every method call to it, with `userdata`.
    /// As the baselines always did, a failure leaves the object unexported (its callers then
    /// get an error) rather than stopping the server.
    func export(_ path: String, userdata: UnsafeMutableRawPointer?, handler: RawMessageHandler) -> RawSlot {
        var slot: OpaquePointer?
        _ = sd_bus_add_object(handle, &slot, path, handler, userdata)
        return RawSlot(handle: slot)
    }

    /// Asks the bus daemon for the messages `rule` matches; `handler` gets each, with `userdata`.
    func addMatch(_ rule: String, userdata: UnsafeMutableRawPointer?, handler: RawMessageHandler) throws(BusError) -> RawSlot {
        var slot: OpaquePointer?
        let r = sd_bus_add_match(handle, &slot, rule, handler, userdata)
        if r < 0 { throw BusError.system(function: "sd_bus_add_match", errno: -r) }
        return RawSlot(handle: slot)
    }

    /// Calls a method and blocks until its reply (`sd_bus_call`): `arguments` appends the
    /// call's arguments, `reply` reads what is wanted of the reply. A timeout of 0 is sd-bus's
    /// default (25 s).
    func call<Reply>(destination: String, path: String, interface: String, member: String, timeoutMicroseconds: UInt64 = 0,
                     arguments: (RawMessage) -> Void, reply read: (RawMessage) -> Reply) throws(BusError) -> Reply {
        var message: OpaquePointer?
        var r = sd_bus_message_new_method_call(handle, &message, destination, path, interface, member)
        if r < 0 { throw BusError.system(function: "sd_bus_message_new_method_call", errno: -r) }
        arguments(RawMessage(handle: message))
        var error = sd_bus_error()
        var reply: OpaquePointer?
        r = sd_bus_call(handle, message, timeoutMicroseconds, &error, &reply)
        let result = r >= 0 ? read(RawMessage(handle: reply)) : nil
        sd_bus_message_unref(reply)
        sd_bus_message_unref(message)
        sd_bus_error_free(&error)
        guard let result else { throw BusError.system(function: "sd_bus_call \(interface).\(member)", errno: -r) }
        return result
    }

    /// Sends a method call without waiting for its reply (a reply that comes is dropped);
    /// `arguments` appends its arguments and returns false to drop it unsent.
    func send(to destination: String, path: String, interface: String, member: String, arguments: (RawMessage) -> Bool) {
        var message: OpaquePointer?
        guard sd_bus_message_new_method_call(handle, &message, destination, path, interface, member) >= 0 else { return }
        if arguments(RawMessage(handle: message)) { sd_bus_send(nil, message, nil) }
        sd_bus_message_unref(message)
    }

    /// Sends a signal from `path` to `destination` alone (unicast); `arguments` appends its
    /// arguments and returns false to drop it unsent.
    func emitSignal(path: String, interface: String, member: String, to destination: String, arguments: (RawMessage) -> Bool) {
        var signal: OpaquePointer?
        sd_bus_message_new_signal(handle, &signal, path, interface, member)
        sd_bus_message_set_destination(signal, destination)
        if arguments(RawMessage(handle: signal)) { sd_bus_send(nil, signal, nil) }
        sd_bus_message_unref(signal)
    }
}

/// What keeps an exported object or a match alive (`sd_bus_slot *`) until `release()`.
struct RawSlot {
    let handle: OpaquePointer?

    func release() { sd_bus_slot_unref(handle) }
}

/// A message (`sd_bus_message *`): one a handler was given, or one being filled in. It does not
/// own a reference; `retained()` takes one, `release()` drops it.
struct RawMessage {
    let handle: OpaquePointer?

    var member: String { String(cString: sd_bus_message_get_member(handle)) }
    var sender: String { String(cString: sd_bus_message_get_sender(handle)) }
    /// The connection it came on.
    var bus: RawBus { RawBus(handle: sd_bus_message_get_bus(handle)) }

    func retained() -> RawMessage { RawMessage(handle: sd_bus_message_ref(handle)) }
    func release() { sd_bus_message_unref(handle) }

    /// Replies to this method call with the arguments `arguments` appends, at once.
    func reply(arguments: (RawMessage) -> Void = { _ in }) {
        var reply: OpaquePointer?
        sd_bus_message_new_method_return(handle, &reply)
        arguments(RawMessage(handle: reply))
        sd_bus_send(nil, reply, nil)
        sd_bus_message_unref(reply)
    }

    // Reading the arguments in order; a value that cannot be read reads as 0.

    func readInt32() -> Int32 {
        var value: Int32 = 0
        sd_bus_message_read_basic(handle, CChar(UInt8(ascii: "i")), &value)
        return value
    }

    func readUInt32() -> UInt32 {
        var value: UInt32 = 0
        sd_bus_message_read_basic(handle, CChar(UInt8(ascii: "u")), &value)
        return value
    }

    /// Reads past a string argument without copying it.
    func readPastString() {
        var string: UnsafePointer<CChar>?
        sd_bus_message_read_basic(handle, CChar(UInt8(ascii: "s")), &string)
    }

    /// Skips arguments of the given `types` (a signature); false if they are not next.
    func skip(_ types: String) -> Bool { sd_bus_message_skip(handle, types) >= 0 }

    /// Back to the first argument, to be read (or copied) again.
    func rewind() { sd_bus_message_rewind(handle, 1) }

    // Appending.

    func append(int32 value: Int32) {
        var value = value
        sd_bus_message_append_basic(handle, CChar(UInt8(ascii: "i")), &value)
    }

    func append(uint32 value: UInt32) {
        var value = value
        sd_bus_message_append_basic(handle, CChar(UInt8(ascii: "u")), &value)
    }

    func append(string value: String) {
        value.withCString { _ = sd_bus_message_append_basic(handle, CChar(UInt8(ascii: "s")), $0) }
    }

    func append(objectPath value: String) {
        value.withCString { _ = sd_bus_message_append_basic(handle, CChar(UInt8(ascii: "o")), $0) }
    }

    /// An empty `a{sv}`.
    func appendEmptyVardict() {
        sd_bus_message_open_container(handle, CChar(UInt8(ascii: "a")), "{sv}")
        sd_bus_message_close_container(handle)
    }

    /// An `a{sv}` whose values are all doubles, in the order given.
    func appendVardict(_ entries: [(String, Double)]) {
        sd_bus_message_open_container(handle, CChar(UInt8(ascii: "a")), "{sv}")
        for (key, value) in entries {
            var value = value
            sd_bus_message_open_container(handle, CChar(UInt8(ascii: "e")), "sv")
            key.withCString { _ = sd_bus_message_append_basic(handle, CChar(UInt8(ascii: "s")), $0) }
            sd_bus_message_open_container(handle, CChar(UInt8(ascii: "v")), "d")
            sd_bus_message_append_basic(handle, CChar(UInt8(ascii: "d")), &value)
            sd_bus_message_close_container(handle)
            sd_bus_message_close_container(handle)
        }
        sd_bus_message_close_container(handle)
    }

    /// Appends the arguments of `source` from where it is read up to its end, as they are
    /// (no decoding); false if that failed.
    func copyArguments(from source: RawMessage) -> Bool { sd_bus_message_copy(handle, source.handle, 1) >= 0 }
}

/// A raw sd-bus connection served on its own thread until `stop()`.
final class RawBusServer: Sendable {
    let uniqueName: String
    private let stopSignal = StopSignal()
    private let lostSignal = StopSignal()

    /// - Parameters:
    ///   - wellKnownName: a name to own once set up (a server in a process of its own is found by it).
    ///   - path: the object the server answers; `handler` gets every method call to it, on the
    ///     server's thread, with `context` as its userdata.
    ///   - context: what the handler keeps between calls; held until the server stops.
    init(address: String, wellKnownName: String? = nil, exporting path: String, context: AnyObject? = nil,
         handler: RawMessageHandler) throws {
        let ready = Mutex<Result<String, any Error>?>(nil)
        let stop = stopSignal
        let lost = lostSignal
        runOnRawThread(join: false) {
            do {
                let bus = try RawBus.connect(address)
                let slot = bus.export(path, userdata: context.map { Unmanaged.passUnretained($0).toOpaque() }, handler: handler)
                if let wellKnownName { try bus.requestName(wellKnownName) }
                ready.withLock { $0 = .success(bus.uniqueName) }
                while !stop.isSet {
                    let processed = bus.process()
                    // The bus daemon is gone: nothing more will come.
                    if processed < 0 { lost.set(); break }
                    if processed > 0 { continue }
                    bus.wait(microseconds: 50_000)
                }
                slot.release()
                bus.flushAndClose()
                // The handler's context lives as long as the thread uses it.
                withExtendedLifetime(context) {}
            } catch {
                ready.withLock { $0 = .failure(error) }
            }
        }
        while true {
            if let result = ready.withLock({ $0 }) { uniqueName = try result.get(); break }
            usleep(1000)
        }
    }

    func stop() { stopSignal.set() }

    /// True once the bus connection failed (the bus daemon stopped).
    var lostBus: Bool { lostSignal.isSet }
}

/// Runs `body` on a new thread; with `join`, waits for it to finish.
func runOnRawThread(join: Bool, _ body: @escaping () -> Void) {
    let context = Unmanaged.passRetained(RawThreadContext(body)).toOpaque()
    var thread = pthread_t()
    pthread_create(&thread, nil, { raw in
        Unmanaged<RawThreadContext>.fromOpaque(raw!).takeRetainedValue().body()
        return nil
    }, context)
    if join { pthread_join(thread, nil) } else { pthread_detach(thread) }
}

func monotonicNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

private final class StopSignal: Sendable {
    private let flag = Atomic<Bool>(false)
    func set() { flag.store(true, ordering: .relaxed) }
    var isSet: Bool { flag.load(ordering: .relaxed) }
}

private final class RawThreadContext {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
}

/// A call kept whole so that its arguments can be copied into later messages as they came
/// (a baseline's payload, set by one of its own methods and sent again and again).
final class KeptArguments {
    private var call: RawMessage?

    /// Keeps `call` in place of the one kept before.
    func keep(_ call: RawMessage) {
        self.call?.release()
        self.call = call.retained()
    }

    /// Whether a call is kept (nothing is copied before one is).
    var isEmpty: Bool { call == nil }

    /// Appends the kept call's arguments to `message`, from its first; false if none is kept
    /// or the copy failed.
    func copy(into message: RawMessage) -> Bool {
        guard let call else { return false }
        call.rewind()
        return message.copyArguments(from: call)
    }

    deinit { call?.release() }
}

/// The next call of one method another connection makes, seen through an eavesdropping match:
/// kept, to be handed on with its arguments as they came. Used from one thread; `close()`
/// frees it.
final class RawCallCapture {
    private let bus: RawBus
    private var slot: RawSlot?
    private let caught = CaughtCall()

    /// Catches the next call of `interface`.`member` another connection makes.
    init(address: String, interface: String, member: String) throws {
        bus = try RawBus.connect(address)
        caught.interface = interface
        caught.member = member
        // sd-bus's own match parser knows no `eavesdrop`: the rule goes to the daemon as it is,
        // and a filter sees what comes of it (and, answering for it, keeps sd-bus from
        // replying to a call that was never its own).
        var filter: OpaquePointer?
        _ = sd_bus_add_filter(bus.handle, &filter, { message, userdata, _ in
            let caught = Unmanaged<CaughtCall>.fromOpaque(userdata!).takeUnretainedValue()
            guard sd_bus_message_is_method_call(message, caught.interface, caught.member) > 0 else { return 0 }
            if caught.message == nil { caught.message = RawMessage(handle: message).retained() }
            return 1
        }, Unmanaged.passUnretained(caught).toOpaque())
        slot = RawSlot(handle: filter)
        let rule = "type='method_call',interface='\(interface)',member='\(member)',eavesdrop='true'"
        try bus.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "AddMatch",
                     arguments: { $0.append(string: rule) }, reply: { _ in () })
    }

    /// Waits (blocking this thread) for the call, at most `microseconds`; false if none came.
    func wait(microseconds: UInt64) -> Bool {
        let deadline = monotonicNanoseconds() + microseconds * 1000
        while caught.message == nil {
            if bus.process() < 0 { return false }
            if caught.message != nil { break }
            let now = monotonicNanoseconds()
            guard now < deadline else { return false }
            bus.wait(microseconds: (deadline - now) / 1000)
        }
        return true
    }

    /// Calls `member` on `destination` with the caught call's arguments, and waits for the reply.
    func handOn(to destination: String, path: String, interface: String, member: String) throws(BusError) {
        guard let message = caught.message else { throw BusError.system(function: "RawCallCapture.handOn", errno: ENOMSG) }
        message.rewind()
        try bus.call(destination: destination, path: path, interface: interface, member: member,
                     arguments: { _ = $0.copyArguments(from: message) }, reply: { _ in () })
    }

    func close() {
        slot?.release()
        slot = nil
        caught.message?.release()
        caught.message = nil
        bus.flushAndClose()
    }
}

private final class CaughtCall {
    var interface = "", member = ""
    var message: RawMessage?
}
