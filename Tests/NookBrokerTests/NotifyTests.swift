import Foundation
import Glibc
import Testing
import NookBus
import NookTestSupport

/// `sd_notify` readiness, received on a socket the test plays systemd with.
@Suite struct NotifyTests {
    /// A bound `AF_UNIX` datagram socket, like the one systemd passes in `$NOTIFY_SOCKET`.
    final class NotifySocket: @unchecked Sendable {
        // Only read from the test's task; the fd is closed in deinit.
        let fd: Int32
        let path: String

        init(path: String) throws {
            self.path = path
            fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { throw TestSupportError("socket: \(errno)") }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { buffer in
                for (index, byte) in path.utf8.prefix(buffer.count - 1).enumerated() { buffer[index] = byte }
            }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard bound == 0 else { throw TestSupportError("bind \(path): \(errno)") }
        }

        /// Messages received so far, without blocking.
        func drain() -> [String] {
            var out: [String] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                if n <= 0 { return out }
                out.append(String(decoding: buffer[0..<n], as: UTF8.self))
            }
        }

        deinit {
            close(fd)
            unlink(path)
        }
    }

    @Test func nookdSaysReadyOnceItOwnsTheName() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let socket = try NotifySocket(path: temp.url.appendingPathComponent("notify").path)
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory, notifySocket: socket.path)
            let messages = MessageBox()
            #expect(await eventually { messages.add(socket.drain()); return messages.text.contains("READY=1") }, "\(nookd.log)")
            let client = try await BusConnection.connect(to: .address(bus.address))
            #expect(try await client.nameOwner(of: "org.nook.Nook1") != nil)
            await client.close()
            #expect(await nookd.stop() == 0)
            #expect(await eventually { messages.add(socket.drain()); return messages.text.contains("STOPPING=1") })
        }
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["NOTIFY_SOCKET"] == nil))
    func notifyWithoutASocketDoesNothing() {
        #expect(!ServiceNotify.notify("READY=1"))
    }
}

final class MessageBox: @unchecked Sendable {
    // Touched from one test task at a time.
    private var messages: [String] = []
    func add(_ more: [String]) { messages += more }
    var text: String { messages.joined(separator: "\n") }
}
