#if canImport(Glibc)
import Glibc
#endif
import NookBus
import NookRenderModel

/// `output: focused` on sway: which output has the focus, from sway's own IPC events
/// (`$SWAYSOCK`), so the nook follows the focus the moment it moves and nothing polls.
///
/// A thread of its own connects to the socket, subscribes to `workspace` events (and `output`
/// events, where sway has them) (`SwayIPC`), asks for the outputs (`GET_OUTPUTS`) at the start and after each event, and
/// hands the focused output's name to `onFocus` whenever it changes. It sleeps in `read` in
/// between: no wakeups while the focus stays. When the socket cannot be reached, or sway
/// goes, `onLost` is called once (the renderer then checks once a second, as without sway).
enum SwayFocusWatcher {
    /// Starts watching `socketPath`; `onFocus` and `onLost` run on that thread.
    static func start(socketPath: String, onFocus: @escaping @Sendable (String) -> Void, onLost: @escaping @Sendable (String) -> Void) {
        DetachedThread.start(named: "nook-sway-focus") {
            let why = watch(socketPath: socketPath, onFocus: onFocus)
            onLost(why)
        }
    }

    /// Runs until the connection fails; returns why.
    private static func watch(socketPath: String, onFocus: @Sendable (String) -> Void) -> String {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return "socket: \(String(cString: strerror(errno)))" }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let path = Array(socketPath.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard !path.isEmpty, path.count < capacity else { return "the socket path is \(path.count) bytes (at most \(capacity - 1))" }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.enumerated() { raw[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else { return "cannot connect to \(socketPath): \(String(cString: strerror(errno)))" }
        guard writeAll(fd, SwayIPC.subscribeToWorkspaces), writeAll(fd, SwayIPC.subscribeToOutputs), writeAll(fd, SwayIPC.getOutputs) else {
            return "cannot write to \(socketPath): \(String(cString: strerror(errno)))"
        }
        var reader = SwayIPC.Reader()
        var focused: String?
        var subscriptionReplies = 0
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return count == 0 ? "sway closed the connection" : "read: \(String(cString: strerror(errno)))" }
            let messages: [SwayIPC.Message]
            do { messages = try reader.feed(buffer[0..<count]) } catch { return "sway's IPC: \(error)" }
            for message in messages {
                if message.isEvent {
                    // Any workspace or output event may come with a new focus: ask which.
                    guard writeAll(fd, SwayIPC.getOutputs) else { return "cannot write to \(socketPath): \(String(cString: strerror(errno)))" }
                } else if message.type == SwayIPC.MessageType.subscribe.rawValue {
                    subscriptionReplies += 1
                    // The replies come in the order asked: workspaces (required), then outputs.
                    if subscriptionReplies == 1, !SwayIPC.subscribed(message.payload) {
                        return "sway refused the subscription to workspace events"
                    } else if subscriptionReplies == 2, !SwayIPC.subscribed(message.payload) {
                        Log.debug("sway has no output events (sway 1.7); outputs coming and going are heard through GDK")
                    }
                } else if message.type == SwayIPC.MessageType.getOutputs.rawValue {
                    if let name = SwayIPC.focusedOutput(inOutputsReply: message.payload), name != focused {
                        focused = name
                        onFocus(name)
                    }
                }
            }
        }
    }

    /// Writes all of `bytes`.
    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }
}
