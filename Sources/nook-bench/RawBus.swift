import CSystemd
import Glibc
import NookBus
import Synchronization

// Plain sd-bus on threads of their own: the baselines the benchmarks compare NookBus and nookd
// with, written the way a C programmer would, with nothing of NookBus in the timed path.

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
                let bus = try rawConnect(address)
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

/// Connects to `address` as a bus client (with `Hello`).
func rawConnect(_ address: String) throws(BusError) -> OpaquePointer {
    var bus: OpaquePointer?
    var r = sd_bus_new(&bus)
    if r >= 0 { r = sd_bus_set_address(bus, address) }
    if r >= 0 { r = sd_bus_set_bus_client(bus, 1) }
    if r >= 0 { r = sd_bus_start(bus) }
    if r < 0 { throw BusError.system(function: "sd_bus_start", errno: -r) }
    return bus!
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
