import Glibc
import NookBus
import NookCore
import Synchronization

/// Many subscribed renderers as plain sd-bus connections, all driven by one thread with
/// `poll(2)`: they read every plan and answer every ping (sd-bus does, as it processes them),
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
            var buses: [RawBus] = []
            var slots: [RawSlot] = []
            defer {
                for slot in slots { slot.release() }
                for bus in buses { bus.flushAndClose() }
                state.finished.store(true, ordering: .releasing)
            }
            do {
                for _ in 0..<count {
                    let bus = try RawBus.connect(address)
                    buses.append(bus)
                    slots.append(try bus.addMatch("type='signal',interface='org.nook.Nook1.Render',member='Plan'",
                                                  userdata: Unmanaged.passUnretained(state).toOpaque()) { _, userdata, _ in
                        Unmanaged<CrowdState>.fromOpaque(userdata!).takeUnretainedValue().plans.add(1, ordering: .relaxed)
                        return 0
                    })
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
                    while bus.process() > 0 {}
                    fds[index] = bus.pollDescriptor
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
    private static func subscribe(_ bus: RawBus, display: [(String, Double)]) throws {
        try bus.call(destination: NookNames.busName, path: NookNames.objectPath, interface: NookContract.Render.interface, member: NookContract.Render.subscribe.name,
                     timeoutMicroseconds: 20_000_000, arguments: { $0.appendVardict(display) }, reply: { _ in })
    }
}

private final class CrowdState: Sendable {
    let plans = Atomic<Int>(0)
    let stopped = Atomic<Bool>(false)
    let finished = Atomic<Bool>(false)
}
