import CSystemd
import Glibc

/// Writes prepared signals into messages that are never sent, on a bus that never connects:
/// what `BusConnection.emit(_:to:)` costs besides the socket, measured by `nook-bench` (the
/// `wire` rows, `--profile wire`) without a daemon or a bus thread (callgrind runs it alone).
///
/// sd-bus makes messages only for a started bus; this one is started on one end of a socket
/// pair, so it stays authenticating for good and sends nothing. One thread at a time.
public final class UnsentSignalWriter {
    private let bus: OpaquePointer
    private let peer: Int32

    public init() throws {
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
            throw BusError.system(function: "socketpair", errno: errno)
        }
        var bus: OpaquePointer?
        do {
            try check(sd_bus_new(&bus), "sd_bus_new")
            try check(sd_bus_set_fd(bus, ends[0], ends[0]), "sd_bus_set_fd")
            try check(sd_bus_start(bus), "sd_bus_start")
        } catch {
            sd_bus_unref(bus)
            close(ends[0])
            close(ends[1])
            throw error
        }
        self.bus = bus!
        peer = ends[1]
    }

    deinit {
        // Closes this bus's end of the pair too (sd-bus owns it after `sd_bus_set_fd`).
        sd_bus_close_unref(bus)
        close(peer)
    }

    /// Writes `signal` into a new message and drops it.
    /// - Returns: with `countingBytes`, the bytes of its body, counted while it was written, as
    ///   `emit` counts them.
    @discardableResult
    public func write(_ signal: PreparedSignal, countingBytes: Bool = false) throws -> Int? {
        try signal.withMessage(on: bus, countingBytes: countingBytes) { _ throws(BusError) in }
    }
}
