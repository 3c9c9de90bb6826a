import CSystemd
import Glibc
import NookBus
import Synchronization

// Plain sd-bus on threads of their own: the baselines the benchmarks compare NookBus and nookd
// with, written the way a C programmer would, with nothing of NookBus in the timed path.
//
// The thin wrappers below make the same sd-bus calls, in the same order, that the raw clients
// made inline; a handler is still a C function that sd-bus calls directly.

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

    /// Handles one pending message or other event: positive if there was one, 0 if nothing
    /// was pending, negative once the connection failed.
    func process() -> Int32 { sd_bus_process(handle, nil) }

    /// The descriptor and events `poll(2)` should wait for before the next `process()`.
    var pollDescriptor: pollfd {
        pollfd(fd: sd_bus_get_fd(handle), events: Int16(truncatingIfNeeded: sd_bus_get_events(handle)), revents: 0)
    }

    /// Sends what is queued, then closes and frees the connection.
    func flushAndClose() { sd_bus_flush_close_unref(handle) }

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
}

/// What keeps an exported object or a match alive (`sd_bus_slot *`) until `release()`.
struct RawSlot {
    let handle: OpaquePointer?

    func release() { sd_bus_slot_unref(handle) }
}

/// A message (`sd_bus_message *`): one a handler was given, or one being filled in. It does not
/// own a reference.
struct RawMessage {
    let handle: OpaquePointer?

    // Reading the arguments in order; a value that cannot be read reads as 0.

    func readInt32() -> Int32 {
        var value: Int32 = 0
        sd_bus_message_read_basic(handle, CChar(UInt8(ascii: "i")), &value)
        return value
    }

    // Appending.

    func append(int32 value: Int32) {
        var value = value
        sd_bus_message_append_basic(handle, CChar(UInt8(ascii: "i")), &value)
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
}

/// A raw sd-bus connection served on its own thread until `stop()`.
final class RawBusServer: Sendable {
    let uniqueName: String
    private let stopSignal = StopSignal()
    private let lostSignal = StopSignal()

    /// - Parameters:
    ///   - wellKnownName: a name to own once set up (a server in a process of its own is found by it).
    ///   - setUp: runs on the server's thread with the connected bus; exports what the
    ///     server answers and returns the slot to release when it stops.
    init(address: String, wellKnownName: String? = nil, setUp: @escaping (OpaquePointer) -> OpaquePointer?) throws {
        let ready = Mutex<Result<String, any Error>?>(nil)
        let stop = stopSignal
        let lost = lostSignal
        runOnRawThread(join: false) {
            do {
                let bus = try RawBus.connect(address).handle!
                let slot = setUp(bus)
                if let wellKnownName {
                    let result = sd_bus_request_name(bus, wellKnownName, 0)
                    if result < 0 { throw BusError.system(function: "sd_bus_request_name", errno: -result) }
                }
                var name: UnsafePointer<CChar>?
                sd_bus_get_unique_name(bus, &name)
                ready.withLock { $0 = .success(String(cString: name!)) }
                while !stop.isSet {
                    let processed = sd_bus_process(bus, nil)
                    // The bus daemon is gone: nothing more will come.
                    if processed < 0 { lost.set(); break }
                    if processed > 0 { continue }
                    sd_bus_wait(bus, 50_000)
                }
                sd_bus_slot_unref(slot)
                sd_bus_flush_close_unref(bus)
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
