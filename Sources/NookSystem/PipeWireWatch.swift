import CPipeWire
import Glibc
import Synchronization

/// Who captures a camera or the screen, followed through PipeWire's registry (`PipeWireGraph`
/// says how a capture is recognised). libpulse cannot see video, so this is a PipeWire client
/// of its own, through the small C layer in Sources/CPipeWire (PipeWire's client API is macros).
///
/// One thread (PipeWire's thread loop), asleep until the server says something. Without a
/// server it waits for the socket to appear in `XDG_RUNTIME_DIR` (inotify; no polling), and a
/// server that goes away takes every capture with it until one is back. Every change of the
/// list of captures is an event, the first one too when something captures already.
///
/// Confinement: `graph` and `last` belong to the loop's thread (the callbacks); `start` and
/// `stop` are called from outside and hand over through the C layer's lock.
public final class PipeWireWatch: @unchecked Sendable {
    private var watch: OpaquePointer?
    private let log: @Sendable (String) -> Void
    private let continuation: AsyncStream<[VideoCapture]>.Continuation
    /// The captures, in order, until `stop`.
    public let events: AsyncStream<[VideoCapture]>
    private var graph = PipeWireGraph()
    private var last: [VideoCapture] = []
    private let started = Atomic<Bool>(false)

    public init(log: @escaping @Sendable (String) -> Void) {
        self.log = log
        (events, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(64))
    }

    deinit { stop() }

    /// Starts the loop's thread: connects, or waits for a server. False when PipeWire's loop
    /// cannot be made or started.
    public func start() -> Bool {
        guard !started.exchange(true, ordering: .acquiringAndReleasing) else { return true }
        let userdata = Unmanaged.passUnretained(self).toOpaque()
        guard let watch = nook_pw_watch_new(userdata, { userdata, kind, id, properties, count in
            PipeWireWatch.from(userdata)?.object(kind, id, PipeWireWatch.dictionary(properties, count))
        }, { userdata, id in
            PipeWireWatch.from(userdata)?.removed(id)
        }, { userdata, connected in
            PipeWireWatch.from(userdata)?.connection(connected != 0)
        }) else { return false }
        self.watch = watch
        return nook_pw_watch_start(watch) == 0
    }

    /// Disconnects and ends the loop's thread. Not from one of its callbacks.
    public func stop() {
        guard started.exchange(false, ordering: .acquiringAndReleasing) else { return }
        nook_pw_watch_free(watch)
        watch = nil
        continuation.finish()
    }

    private static func from(_ userdata: UnsafeMutableRawPointer?) -> PipeWireWatch? {
        userdata.map { Unmanaged<PipeWireWatch>.fromOpaque($0).takeUnretainedValue() }
    }

    /// The C layer's borrowed properties, copied; keys and values past 1 KiB are not ours.
    private static func dictionary(_ properties: UnsafePointer<nook_pw_property>?, _ count: UInt32) -> [String: String] {
        guard let properties else { return [:] }
        var dictionary: [String: String] = [:]
        for item in UnsafeBufferPointer(start: properties, count: Int(min(count, 4096))) {
            guard let key = item.key, let value = item.value, strnlen(key, 1025) <= 1024, strnlen(value, 1025) <= 1024 else { continue }
            dictionary[String(cString: key)] = String(cString: value)
        }
        return dictionary
    }

    // MARK: On the loop's thread

    private func object(_ kind: nook_pw_kind, _ id: UInt32, _ properties: [String: String]) {
        switch kind {
        case NOOK_PW_NODE: graph.node(id, properties)
        case NOOK_PW_LINK: graph.link(id, properties)
        case NOOK_PW_CLIENT: graph.client(id, properties)
        default: return
        }
        publish()
    }

    private func removed(_ id: UInt32) {
        graph.remove(id)
        publish()
    }

    private func connection(_ connected: Bool) {
        if connected {
            log("following PipeWire's cameras and screen casts")
        } else {
            log("PipeWire went away; waiting for it")
            graph.clear()
            publish()
        }
    }

    private func publish() {
        let now = graph.captures
        guard now != last else { return }
        last = now
        continuation.yield(now)
    }
}
