import Foundation
import NookBus
import NookTestSupport

/// The Wayland counterpart of `RendererNook`: headless sway, a private bus other users may
/// join, nookd and the simulated music player (as the test's user), and nook-renderer on sway
/// as the sway user, with `WAYLAND_DEBUG=1` so its log also holds every Wayland request it
/// made (`LayerSurfaceTrace` reads them). `stop()` ends each by its pid, newest first.
final class SwayNook: NookUnderTest, StoppableFixture, @unchecked Sendable {
    // @unchecked: `pointer` is set once by the test's one task; everything else is immutable.
    let stack: NookStack
    let sway: SwayServer
    let bus: PrivateBus
    let nookd: NookdProcess
    let music: PackageProcess
    let renderer: PackageProcess
    private var startedPointer: VirtualPointer?
    var scratch: URL { stack.scratch }

    /// - Parameters:
    ///   - swayConfig: lines added to sway's config (a bar, a second output).
    ///   - rendererConfig: the renderer's `renderer.json` (nil: none, the defaults).
    ///   - outputs: how many headless outputs sway starts with.
    ///   - rendererEnvironment: added to the renderer's environment.
    static func start(slowMotion: Double, swayConfig: String = "", rendererConfig: String? = nil, outputs: Int = 1,
                      rendererEnvironment: [String: String] = [:]) async throws -> SwayNook {
        try await NookStack.build(named: "nook-sway") { stack in
            let scratch = stack.scratch
            try FileManager.default.createDirectory(at: scratch.appendingPathComponent("config/nook"), withIntermediateDirectories: true)
            // The sway user reads the renderer's config from here.
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: scratch.path)
            if let rendererConfig {
                try rendererConfig.write(to: scratch.appendingPathComponent("config/nook/renderer.json"), atomically: true, encoding: .utf8)
            }
            let sway = try await SwayServer(config: swayConfig, outputs: outputs, in: scratch)
            stack.onStop { await sway.stop() }
            let bus = try stack.bus(allowingOtherUsers: true)
            let nookd = try await stack.nookd(on: bus)
            let music = try stack.process("nook-mpris", ["--address", bus.address, "--simulate", "--track-seconds", "600"])
            let home = scratch.appendingPathComponent("home")
            try sway.user.makePrivateDirectory(home)
            let (executable, arguments) = try sway.user.command(
                try PackageProcess.executable("nook-renderer").path,
                ["--address", bus.address, "--verbose", "--slow-motion", String(slowMotion)],
                environment: sway.clientEnvironment.merging([
                    "GDK_BACKEND": "wayland", "HOME": home.path, "WAYLAND_DEBUG": "1",
                    // The test's own renderer.json (or none), never the machine's.
                    "XDG_CONFIG_HOME": scratch.appendingPathComponent("config").path,
                    "XDG_CONFIG_DIRS": scratch.appendingPathComponent("system-config").path,
                    // No accessibility bus to find here.
                    "NO_AT_BRIDGE": "1",
                ].merging(rendererEnvironment) { $1 }) { $1 })
            let renderer = try PackageProcess(executable, arguments, logDirectory: scratch)
            stack.onStop { await renderer.stop() }
            let nook = SwayNook(stack: stack, sway: sway, bus: bus, nookd: nookd, music: music, renderer: renderer)
            try await stack.waitUntil("nookd, the music module and the renderer on sway", logs: nook.logs) {
                guard let state = try? await nook.state() else { return false }
                return state.activityCount >= 1 && nook.rendererLog.contains("subscribed (1)")
            }
            // The pointer, once a test starts one, is stopped first.
            stack.onStop { nook.startedPointer?.stop() }
            return nook
        }
    }

    private init(stack: NookStack, sway: SwayServer, bus: PrivateBus, nookd: NookdProcess, music: PackageProcess, renderer: PackageProcess) {
        self.stack = stack
        self.sway = sway
        self.bus = bus
        self.nookd = nookd
        self.music = music
        self.renderer = renderer
    }

    static func with<T>(slowMotion: Double = RendererNook.screenshotSlowMotion, swayConfig: String = "", rendererConfig: String? = nil,
                        outputs: Int = 1, rendererEnvironment: [String: String] = [:], _ body: (SwayNook) async throws -> T) async throws -> T {
        try await start(slowMotion: slowMotion, swayConfig: swayConfig, rendererConfig: rendererConfig, outputs: outputs,
                        rendererEnvironment: rendererEnvironment).use(body)
    }

    /// The virtual pointer, started on first use.
    func pointer() async throws -> VirtualPointer {
        if let startedPointer { return startedPointer }
        let pointer = try await VirtualPointer(on: sway)
        startedPointer = pointer
        // It starts in a corner; the test's first move comes once the renderer has its
        // wl_pointer, so the pointer arrives over the nook as a real one does.
        let ready = await eventually(timeout: .seconds(60), poll: .milliseconds(50)) { self.rendererLog.contains(".get_pointer(") }
        guard ready else { throw TestSupportError("the renderer never took the virtual pointer:\n\(logs)") }
        return pointer
    }

    func stop() async { await stack.stop() }

    var rendererLog: String { renderer.log }
    var logs: String {
        // The renderer's Wayland trace is long: its own lines and the layer-shell requests only.
        let renderer = rendererLog.split(separator: "\n").filter { $0.hasPrefix("nook-renderer") || $0.contains("layer_s") }.joined(separator: "\n")
        return "--- nook-renderer (without its Wayland trace)\n\(renderer)\n--- nookd\n\(nookd.log)\n--- sway\n\(sway.log.suffix(3000))"
    }

    /// What the renderer asked the compositor for, from its Wayland trace: the nook's own
    /// surfaces (namespace `nook`), without the band `exclusive_zone: auto` reserves.
    var layerSurfaces: [LayerSurfaceTrace.Request] { LayerSurfaceTrace(rendererLog).requests.filter { $0.namespace == "nook" } }
    /// The reservation bands (namespace `nook-reservation`).
    var reservationSurfaces: [LayerSurfaceTrace.Request] { LayerSurfaceTrace(rendererLog).requests.filter { $0.namespace == "nook-reservation" } }

    /// Shows the nook and waits until the pill is drawn at rest with its cover on `output`.
    func showPill(on output: SwayServer.Output = SwayServer.firstOutput) async throws {
        try await showPillAtRest(on: "\(output)") {
            try await self.sway.screenshot(x: output.x, y: output.y, width: output.width, height: 200)
        }
    }
}
