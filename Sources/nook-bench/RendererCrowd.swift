import CSystemd
import Glibc
import NookBus
import Synchronization

/// Many subscribed renderers as plain sd-bus connections, all driven by one thread with
/// `poll(2)`: they read every plan and answer every ping (sd-bus does, in `sd_bus_process`),
/// and count the plans. One thread rather than one per connection, so that on a 2-core machine
/// the benchmark's own renderers do not take the CPU nookd and the bus daemon need, and the
/// figure is about the broker rather than about 200 harness threads waking per plan.
final class RendererCrowd: Sendable {
    private let state = CrowdState()

    /// Connects `count` renderers and subscribes each with `display` (a{sv} of doubles);
    /// returns once all are subscribed.
    init(address: String, count: Int, display: [(String, Double)]) throws {
        let state = self.state
        let ready = Mutex<Result<Void, any Error>?>(nil)
        runOnRawThread(join: false) {
            var buses: [OpaquePointer] = []
            var slots: [OpaquePointer?] = []
            defer {
                for slot in slots { sd_bus_slot_unref(slot) }
                for bus in buses { sd_bus_flush_close_unref(bus) }
                state.finished.store(true, ordering: .releasing)
            }
            do {
                for _ in 0..<count {
                    let bus = try rawConnect(address)
                    buses.append(bus)
                    var slot: OpaquePointer?
                    let r = sd_bus_add_match(bus, &slot, "type='signal',interface='org.nook.Nook1.Render',member='Plan'", { _, userdata, _ in
                        Unmanaged<CrowdState>.fromOpaque(userdata!).takeUnretainedValue().plans.add(1, ordering: .relaxed)
                        return 0
                    }, Unmanaged.passUnretained(state).toOpaque())
                    if r < 0 { throw BusError.system(function: "sd_bus_add_match", errno: -r) }
                    slots.append(slot)
                    try Self.subscribe(bus, display: display)
                }
                ready.withLock { $0 = .success(()) }
            } catch {
                ready.withLock { $0 = .failure(error) }
                return
            }
            var fds = [pollfd](repeating: pollfd(), count: buses.count)
            while !state.stopped.load(ordering: .relaxed) {
                for (index, bus) in buses.enumerated() {
                    while sd_bus_process(bus, nil) > 0 {}
                    fds[index] = pollfd(fd: sd_bus_get_fd(bus), events: Int16(truncatingIfNeeded: sd_bus_get_events(bus)), revents: 0)
                }
                _ = poll(&fds, nfds_t(fds.count), 50)
            }
        }
        while true {
            if let result = ready.withLock({ $0 }) { try result.get(); break }
            usleep(1000)
        }
    }

    /// Plans received so far, by all of them.
    var plans: Int { state.plans.load(ordering: .relaxed) }

    /// Closes every connection (nookd sees the renderers leave) and waits for the thread.
    func stop() {
        state.stopped.store(true, ordering: .relaxed)
        while !state.finished.load(ordering: .acquiring) { usleep(1000) }
    }

    /// `Render.Subscribe(a{sv} display)`, waited for.
    private static func subscribe(_ bus: OpaquePointer, display: [(String, Double)]) throws {
        var call: OpaquePointer?
        var r = sd_bus_message_new_method_call(bus, &call, "org.nook.Nook1", "/org/nook/Nook1", "org.nook.Nook1.Render", "Subscribe")
        if r < 0 { throw BusError.system(function: "sd_bus_message_new_method_call", errno: -r) }
        defer { sd_bus_message_unref(call) }
        sd_bus_message_open_container(call, CChar(UInt8(ascii: "a")), "{sv}")
        for (key, value) in display {
            var value = value
            sd_bus_message_open_container(call, CChar(UInt8(ascii: "e")), "sv")
            key.withCString { _ = sd_bus_message_append_basic(call, CChar(UInt8(ascii: "s")), $0) }
            sd_bus_message_open_container(call, CChar(UInt8(ascii: "v")), "d")
            sd_bus_message_append_basic(call, CChar(UInt8(ascii: "d")), &value)
            sd_bus_message_close_container(call)
            sd_bus_message_close_container(call)
        }
        sd_bus_message_close_container(call)
        var error = sd_bus_error()
        var reply: OpaquePointer?
        r = sd_bus_call(bus, call, 20_000_000, &error, &reply)
        defer { sd_bus_error_free(&error); sd_bus_message_unref(reply) }
        if r < 0 { throw BusError.system(function: "Render.Subscribe", errno: -r) }
    }
}

private final class CrowdState: Sendable {
    let plans = Atomic<Int>(0)
    let stopped = Atomic<Bool>(false)
    let finished = Atomic<Bool>(false)
}
