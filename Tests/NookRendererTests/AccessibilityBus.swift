import Foundation
import NookBus
import NookTestSupport
import Synchronization

/// The AT-SPI accessibility bus for one test, as a desktop session has it: at-spi2-core's
/// `at-spi-bus-launcher` on a private session bus of its own, whose a11y bus address is handed
/// to nook-renderer (GTK's atk-bridge) and to the AT-SPI client through `AT_SPI_BUS_ADDRESS`.
/// `stop()` ends the launcher and the processes it started, by their pids.
final class AccessibilityBus: @unchecked Sendable {
    // @unchecked: the Process is only signalled and waited on by pid; the rest is immutable.
    static let launcher = "/usr/libexec/at-spi-bus-launcher"
    private let session: PrivateBus
    private let process: Process
    private let runtime: URL
    /// The a11y bus (`org.a11y.Bus.GetAddress`).
    let address: String

    static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: launcher) }

    static func start() async throws -> AccessibilityBus {
        let session = try PrivateBus()
        let runtime = FileManager.default.temporaryDirectory.appendingPathComponent("nook-a11y-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: launcher)
        process.arguments = ["--launch-immediately"]
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = session.address
        environment["XDG_RUNTIME_DIR"] = runtime.path  // its bus socket lives here, not in ~/.cache
        environment["DISPLAY"] = nil
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do { try process.runSerialized() } catch { session.stop(); throw error }

        let connection = try await BusConnection.connect(to: .address(session.address), description: "a11y-test")
        let answer = Locked<String?>(nil)
        _ = await eventually(timeout: .seconds(30), poll: .milliseconds(50)) {
            let reply = try? await connection.call(destination: "org.a11y.Bus", path: "/org/a11y/bus", interface: "org.a11y.Bus",
                                                   member: "GetAddress", arguments: [])
            if case .string(let found)? = reply?.first, !found.isEmpty { answer.withLock { $0 = found } }
            return answer.withLock { $0 } != nil
        }
        let address = answer.withLock { $0 }
        await connection.close()
        let bus = AccessibilityBus(session: session, process: process, runtime: runtime, address: address ?? "")
        guard let address else {
            bus.stop()
            throw TestSupportError("at-spi-bus-launcher never answered org.a11y.Bus.GetAddress")
        }
        // The registry, activated now so its pid is known: the a11y daemon starts it detached
        // (its parent becomes init), so only the bus can say which process it is.
        do {
            let a11y = try await BusConnection.connect(to: .address(address), description: "a11y-test")
            defer { Task { await a11y.close() } }
            _ = try await a11y.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                                    member: "StartServiceByName", arguments: [.string("org.a11y.atspi.Registry"), .uint32(0)],
                                    timeout: .seconds(20))
            let reply = try await a11y.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                                            member: "GetConnectionUnixProcessID", arguments: [.string("org.a11y.atspi.Registry")])
            if case .uint32(let pid)? = reply.first { bus.registry.withLock { $0 = Int32(bitPattern: pid) } }
        } catch {
            bus.stop()
            throw TestSupportError("the AT-SPI registry did not start: \(error)")
        }
        return bus
    }

    /// `at-spi2-registryd`, which the a11y bus daemon activated.
    private let registry = Locked<Int32?>(nil)

    private init(session: PrivateBus, process: Process, runtime: URL, address: String) {
        self.session = session
        self.process = process
        self.runtime = runtime
        self.address = address
    }

    /// Ends the launcher and what it started (its a11y bus daemon, and the registry that daemon
    /// activated), each by its pid with SIGKILL, the registry first: a process this test spawns
    /// inherits the test runner's blocked SIGTERM, and the daemon outlives a launcher killed alone.
    func stop() {
        let launcher = process.processIdentifier
        for pid in (Self.descendants(of: launcher) + [registry.withLock { $0 }].compactMap { $0 }).reversed() {
            kill(pid, SIGKILL)
            Self.waitUntilGone(pid)
        }
        if !ChildExit.hasExited(launcher) { kill(launcher, SIGKILL) }
        _ = ChildExit.waitBlocking(launcher)
        session.stop()
        try? FileManager.default.removeItem(at: runtime)
    }

    /// Children, grandchildren, ... of `pid`, parents first (from `/proc/<pid>/task/*/children`).
    static func descendants(of pid: Int32) -> [Int32] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        var children: [Int32] = []
        for task in tasks {
            let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? ""
            children += text.split(separator: " ").compactMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
        return children.flatMap { [$0] + descendants(of: $0) }
    }

    /// Until `pid` is gone or a zombie (not our child: its new parent reaps it).
    static func waitUntilGone(_ pid: Int32) {
        for _ in 0..<500 {
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
            if stat.isEmpty || stat.split(separator: ")").last?.split(separator: " ").first == "Z" { return }
            usleep(10_000)
        }
    }

    /// Runs an AT-SPI client (Debian's python3 with gi's Atspi, as Orca reads the desktop):
    /// lists `nook-renderer`'s push buttons, one line each `button <name>|<x>,<y>,<w>,<h>`,
    /// once it shows at least one; with `press`, runs the AtkAction of the button so named.
    func pushButtons(press: String? = nil) async throws -> [String] {
        let script = """
            import sys, time, gi
            gi.require_version("Atspi", "2.0")
            from gi.repository import Atspi
            def app():
                desktop = Atspi.get_desktop(0)
                for i in range(desktop.get_child_count()):
                    child = desktop.get_child_at_index(i)
                    if child is not None and child.get_name() == "nook-renderer":
                        return child
            def buttons(node, out):
                for i in range(node.get_child_count()):
                    child = node.get_child_at_index(i)
                    if child is None:
                        continue
                    if child.get_role() == Atspi.Role.PUSH_BUTTON:
                        out.append(child)
                    buttons(child, out)
                return out
            found = []
            deadline = time.time() + 30
            while not found and time.time() < deadline:
                root = app()
                found = buttons(root, []) if root is not None else []
                if not found:
                    time.sleep(0.2)
            for button in found:
                box = button.get_extents(Atspi.CoordType.WINDOW)
                print("button %s|%d,%d,%d,%d" % (button.get_name(), box.x, box.y, box.width, box.height))
                if button.get_description():
                    print("description %s|%s" % (button.get_name(), button.get_description()))
            press = sys.argv[1] if len(sys.argv) > 1 else ""
            for button in found:
                if press and button.get_name() == press:
                    print("pressed" if button.get_action_iface().do_action(0) else "press refused")
            """
        var environment = ProcessInfo.processInfo.environment
        environment["AT_SPI_BUS_ADDRESS"] = address
        environment["DBUS_SESSION_BUS_ADDRESS"] = session.address
        let result = try await Tools.run("/usr/bin/python3", ["-c", script] + (press.map { [$0] } ?? []), environment: environment)
        guard result.status == 0 else { throw TestSupportError("the AT-SPI client failed (\(result.status)): \(result.stderr)") }
        return result.stdout.split(separator: "\n").map(String.init)
    }
}
