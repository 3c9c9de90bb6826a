import Foundation
import NookBus
import NookTestSupport

/// dunst (Debian's package, with the package's dunstrc) on a private Xvfb and its own private
/// dbus-daemon, for issue 22's side-by-side figure: the goal is a tenth of dunst's `Notify`, so measure dunst in the same
/// run rather than quote a figure from another machine. Optional: `make test` does not install
/// dunst, so the benchmark measures it only when the package and Xvfb are both present.
final class DunstServer: Sendable {
    /// Why dunst cannot be measured here, or nil when it can.
    static var unavailableReason: String? {
        guard dpkgQuery("${Status}", "dunst").hasSuffix("install ok installed") else { return "the dunst package is not installed" }
        guard (try? Tools.path(of: "Xvfb")) != nil else { return "Xvfb is not installed" }
        return nil
    }

    /// The installed package's version (`1.9.0-0.1` on Debian 12).
    static var version: String { dpkgQuery("${Version}", "dunst") }

    /// The private bus dunst serves org.freedesktop.Notifications on.
    let bus: PrivateBus
    private let display: XvfbDisplay
    private let dunst: Int32
    private let scratch: URL

    /// The package's dunstrc, which dunst reads when a user has none: what "dunst installed from
    /// Debian" runs with. It makes dunst several times slower per `Notify` than an empty
    /// dunstrc's built-in defaults (docs/PERFORMANCE.md, session 6: 2.6 to 2.8 ms p50 against
    /// 0.5 to 0.65 ms; its recursive icon lookup in Adwaita is the likeliest cost).
    static let packageConfig = "/etc/xdg/dunst/dunstrc"

    /// The dunstrc the benchmark runs dunst with: the package's, or an empty one (built-in
    /// defaults) when the package's is missing.
    let config: String

    /// Starts Xvfb, a dbus-daemon and dunst, and waits until dunst owns org.freedesktop.Notifications.
    static func start() async throws -> DunstServer {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("nook-bench-dunst-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        var config = packageConfig
        if !FileManager.default.isReadableFile(atPath: config) {
            config = scratch.appendingPathComponent("dunstrc").path
            try Data().write(to: URL(fileURLWithPath: config))
        }
        let display = try XvfbDisplay()
        let bus: PrivateBus
        do { bus = try PrivateBus() } catch { display.stop(); throw error }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Tools.path(of: "dunst"))
        process.arguments = ["-config", config]
        // X11 only (no WAYLAND_DISPLAY), its cache away from the user's.
        var environment = ProcessInfo.processInfo.environment
        environment["WAYLAND_DISPLAY"] = nil
        environment["DISPLAY"] = display.display
        environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        environment["XDG_CONFIG_HOME"] = scratch.path
        environment["XDG_CACHE_HOME"] = scratch.path
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { bus.stop(); display.stop(); throw error }
        let server = DunstServer(bus: bus, display: display, dunst: process.processIdentifier, scratch: scratch, config: config)
        let watcher = try await BusConnection.connect(to: .address(bus.address))
        let owned = (try? await eventually(timeout: .seconds(20)) { try await watcher.nameOwner(of: "org.freedesktop.Notifications") != nil }) ?? false
        await watcher.close()
        guard owned else { server.stop(); throw TestSupportError("dunst did not take org.freedesktop.Notifications within 20 s") }
        return server
    }

    private init(bus: PrivateBus, display: XvfbDisplay, dunst: Int32, scratch: URL, config: String) {
        self.config = config
        self.bus = bus
        self.display = display
        self.dunst = dunst
        self.scratch = scratch
    }

    /// Ends dunst, its bus and its display, by pid.
    func stop() {
        if !ChildExit.hasExited(dunst) { kill(dunst, SIGTERM) }
        if !ChildExit.waitBlocking(dunst, timeout: .seconds(5)) {
            kill(dunst, SIGKILL)
            _ = ChildExit.waitBlocking(dunst)
        }
        bus.stop()
        display.stop()
        try? FileManager.default.removeItem(at: scratch)
    }

    /// `dpkg-query -W -f=<format> <package>` (scripts/ensure-deps.sh checks `${Status}`); empty
    /// when dpkg-query is missing or knows no such package.
    private static func dpkgQuery(_ format: String, _ package: String) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/dpkg-query")
        process.arguments = ["-W", "-f=" + format, package]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return "" }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
