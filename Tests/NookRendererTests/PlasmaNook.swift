import Foundation
import NookBus
import NookTestSupport

/// The KDE Plasma counterpart of `SwayNook`: a `PlasmaSession` (KWin, plasmashell with a top
/// panel), a private bus for nookd other users may join, nookd and the simulated music player
/// (as the test's user), and nook-renderer on KWin as the session's user, with
/// `WAYLAND_DEBUG=1` so its log also holds its layer-shell requests. `stop()` ends each by its
/// pid, newest first.
final class PlasmaNook: NookUnderTest, StoppableFixture, @unchecked Sendable {
    // @unchecked: every stored property is immutable.
    let stack: NookStack
    let plasma: PlasmaSession
    let bus: PrivateBus
    let nookd: NookdProcess
    let music: PackageProcess
    let renderer: PackageProcess
    var scratch: URL { stack.scratch }

    /// - Parameter rendererConfig: the renderer's `renderer.json` (nil: none, the defaults).
    static func with<T>(rendererConfig: String?, _ body: (PlasmaNook) async throws -> T) async throws -> T {
        let nook = try await NookStack.build(named: "nook-plasma") { stack in
            let scratch = stack.scratch
            try FileManager.default.createDirectory(at: scratch.appendingPathComponent("config/nook"), withIntermediateDirectories: true)
            // The session's user reads the renderer's config from here.
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: scratch.path)
            if let rendererConfig {
                try rendererConfig.write(to: scratch.appendingPathComponent("config/nook/renderer.json"), atomically: true, encoding: .utf8)
            }
            let plasma = try await PlasmaSession(in: stack)
            let bus = try stack.bus(allowingOtherUsers: true)
            let nookd = try await stack.nookd(on: bus)
            let music = try stack.process("nook-mpris", ["--address", bus.address, "--simulate", "--track-seconds", "600"])
            let home = scratch.appendingPathComponent("home")
            try plasma.user.makePrivateDirectory(home)
            let (executable, arguments) = try plasma.user.command(
                try PackageProcess.executable("nook-renderer").path,
                ["--address", bus.address, "--verbose", "--slow-motion", "1"],
                environment: plasma.clientEnvironment.merging([
                    "GDK_BACKEND": "wayland", "HOME": home.path, "WAYLAND_DEBUG": "1",
                    // The test's own renderer.json (or none), never the machine's.
                    "XDG_CONFIG_HOME": scratch.appendingPathComponent("config").path,
                    "XDG_CONFIG_DIRS": scratch.appendingPathComponent("system-config").path,
                    "NO_AT_BRIDGE": "1",
                ]) { $1 })
            let renderer = try PackageProcess(executable, arguments, logDirectory: scratch)
            stack.onStop { await renderer.stop() }
            let nook = PlasmaNook(stack: stack, plasma: plasma, bus: bus, nookd: nookd, music: music, renderer: renderer)
            try await stack.waitUntil("nookd, the music module and the renderer on KWin", logs: nook.logs) {
                guard let state = try? await nook.state() else { return false }
                return state.activityCount >= 1 && nook.rendererLog.contains("subscribed (1)")
            }
            return nook
        }
        return try await nook.use(body)
    }

    private init(stack: NookStack, plasma: PlasmaSession, bus: PrivateBus, nookd: NookdProcess, music: PackageProcess, renderer: PackageProcess) {
        self.stack = stack
        self.plasma = plasma
        self.bus = bus
        self.nookd = nookd
        self.music = music
        self.renderer = renderer
    }

    func stop() async { await stack.stop() }

    var rendererLog: String { renderer.log }
    var logs: String {
        let renderer = rendererLog.split(separator: "\n").filter { $0.hasPrefix("nook-renderer") || $0.contains("layer_s") }.joined(separator: "\n")
        return "--- nook-renderer (without its Wayland trace)\n\(renderer)\n--- nookd\n\(nookd.log)\n\(plasma.logs)"
    }

    /// The reservation bands the renderer asked for (namespace `nook-reservation`).
    var reservationSurfaces: [LayerSurfaceTrace.Request] { LayerSurfaceTrace(rendererLog).requests.filter { $0.namespace == "nook-reservation" } }

    /// Shows the nook and waits until the pill is drawn at rest with its cover.
    func showPill() async throws {
        try await showPillAtRest(on: "KWin's screen") { try await self.plasma.screenshot(height: 200) }
    }
}
