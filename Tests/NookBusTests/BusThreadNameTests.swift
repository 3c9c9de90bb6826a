import Glibc
import Testing
@testable import NookBus
import NookTestSupport

/// A connection's thread is named, so top, perf and gdb tell it from the runtime's pool.
@Suite struct BusThreadNameTests {
    @Test func aConnectionsThreadIsNamedNookBus() async throws {
        try await PrivateBus.with { bus in
            let connection = try await BusConnection.connect(to: .address(bus.address))
            let name = try await connection.perform { _ in Self.currentThreadName() }
            #expect(name == "nook-bus")
            await connection.close()
        }
    }

    /// The calling thread's name, from /proc.
    static func currentThreadName() -> String {
        let fd = open("/proc/thread-self/comm", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return "" }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return "" }
        return String(decoding: buffer.prefix(count), as: UTF8.self).trimmingCharacters(in: .newlines)
    }
}
