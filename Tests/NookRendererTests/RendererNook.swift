import Foundation
import NookBus
import NookTestSupport

/// Everything a screenshot test needs, as real processes: Xvfb, a private bus, nookd, the
/// simulated music player, and nook-renderer drawing on the Xvfb display in slow motion.
/// `stop()` ends each by its pid, newest first.
final class RendererNook: StoppableFixture, @unchecked Sendable {
    // @unchecked: `nookd` is replaced only by `restartNookd()`, which tests call from their one
    // task; everything else is immutable.
    let stack: NookStack
    let xvfb: XvfbServer
    let bus: PrivateBus
    private(set) var nookd: NookdProcess
    /// The simulated music player (nil when the test brings its own module).
    let music: PackageProcess?
    let renderer: PackageProcess
    var scratch: URL { stack.scratch }
    /// How many times slower the renderer plays curves in tests that screenshot a transition:
    /// enough frames in the middle of a move to freeze the renderer on
    /// (`NookUnderTest.coverCaughtPartWay`), and a dissolve long enough for several screenshots.
    static let screenshotSlowMotion = 20.0

    /// - Parameters:
    ///   - rendererConfig: written to the renderer's `$XDG_CONFIG_HOME/nook/renderer.json`
    ///     before it starts (nil: no file, the defaults).
    ///   - rendererArguments: added to the renderer's command line.
    ///   - gtkSettings: written to the renderer's `$XDG_CONFIG_HOME/gtk-3.0/settings.ini`.
    ///   - withMusic: start the simulated music player (false: the test starts its own module).
    ///   - rendererEnvironment: added to the renderer's environment.
    static func start(slowMotion: Double, rendererConfig: String? = nil, rendererArguments: [String] = [],
                      gtkSettings: String? = nil, withMusic: Bool = true,
                      rendererEnvironment: [String: String?] = [:], root: String = XvfbServer.neutralRoot) async throws -> RendererNook {
        try await NookStack.build(named: "nook-renderer") { stack in
            let scratch = stack.scratch
            try FileManager.default.createDirectory(at: scratch.appendingPathComponent("config/nook"), withIntermediateDirectories: true)
            if let rendererConfig { try rendererConfig.write(to: configFile(in: scratch), atomically: true, encoding: .utf8) }
            if let gtkSettings {
                try FileManager.default.createDirectory(at: scratch.appendingPathComponent("config/gtk-3.0"), withIntermediateDirectories: true)
                try gtkSettings.write(to: scratch.appendingPathComponent("config/gtk-3.0/settings.ini"), atomically: true, encoding: .utf8)
            }
            let xvfb = try await XvfbServer.start(root: root)
            stack.onStop { xvfb.stop() }
            let bus = try stack.bus()
            let nookd = try await stack.nookd(on: bus)
            let music = withMusic ? try stack.process("nook-mpris", ["--address", bus.address, "--simulate", "--track-seconds", "600"]) : nil
            let renderer = try stack.process(
                "nook-renderer", ["--address", bus.address, "--verbose", "--slow-motion", String(slowMotion)] + rendererArguments,
                environment: [
                    "DISPLAY": xvfb.display, "WAYLAND_DISPLAY": nil, "GDK_BACKEND": "x11",
                    // The test's own renderer.json (or none), never the machine's.
                    "XDG_CONFIG_HOME": scratch.appendingPathComponent("config").path,
                    "XDG_CONFIG_DIRS": scratch.appendingPathComponent("system-config").path,
                ].merging(rendererEnvironment) { $1 })
            let nook = RendererNook(stack: stack, xvfb: xvfb, bus: bus, nookd: nookd, music: music, renderer: renderer)
            try await stack.waitUntil("nookd, the music module and the renderer", logs: nook.logs) {
                guard let state = try? await nook.state() else { return false }
                return (!withMusic || state.activityCount >= 1) && nook.rendererLog.contains("subscribed (1)")
            }
            return nook
        }
    }

    private init(stack: NookStack, xvfb: XvfbServer, bus: PrivateBus, nookd: NookdProcess, music: PackageProcess?, renderer: PackageProcess) {
        self.stack = stack
        self.xvfb = xvfb
        self.bus = bus
        self.nookd = nookd
        self.music = music
        self.renderer = renderer
    }

    func stop() async { await stack.stop() }

    static func with<T>(slowMotion: Double = screenshotSlowMotion, rendererConfig: String? = nil, rendererArguments: [String] = [],
                        gtkSettings: String? = nil, withMusic: Bool = true, rendererEnvironment: [String: String?] = [:],
                        root: String = XvfbServer.neutralRoot, _ body: (RendererNook) async throws -> T) async throws -> T {
        try await start(slowMotion: slowMotion, rendererConfig: rendererConfig, rendererArguments: rendererArguments,
                        gtkSettings: gtkSettings, withMusic: withMusic, rendererEnvironment: rendererEnvironment, root: root).use(body)
    }

    /// Where the renderer reads `renderer.json`.
    static func configFile(in scratch: URL) -> URL { scratch.appendingPathComponent("config/nook/renderer.json") }
    var rendererConfigFile: URL { Self.configFile(in: scratch) }

    /// Ends nookd by its pid and starts a new one on the same bus and state.
    func restartNookd() async throws {
        await nookd.stop()
        nookd = try await stack.nookd(on: bus)
    }

    var rendererLog: String { renderer.log }
    var logs: String { PackageProcess.logs([renderer, nookd.process] + (music.map { [$0] } ?? [])) }
}

extension RendererNook: NookUnderTest {}

/// `nook-renderer: plan serial=12 cause=open ...` as its words.
struct LogLine: Sendable {
    let fields: [String: String]
    let text: String

    init?(_ line: String, kind: String) {
        let prefix = "nook-renderer: \(kind) "
        guard line.hasPrefix(prefix) else { return nil }
        text = line
        var fields: [String: String] = [:]
        for word in line.dropFirst(prefix.count).split(separator: " ") {
            guard let equals = word.firstIndex(of: "=") else { continue }
            let key = String(word[..<equals])
            // Repeated keys (one `element=` per shared element) keep the first.
            if fields[key] == nil { fields[key] = String(word[word.index(after: equals)...]) }
        }
        self.fields = fields
    }

    subscript(key: String) -> String? { fields[key] }
}

/// A rect as the renderer logs it: `x,y,w,h`.
struct LoggedRect: Sendable, CustomStringConvertible {
    var x: Double, y: Double, width: Double, height: Double
    var midX: Double { x + width / 2 }
    var midY: Double { y + height / 2 }

    init?(_ text: String?) {
        guard let parts = text?.split(separator: ",").compactMap({ Double($0) }), parts.count == 4 else { return nil }
        (x, y, width, height) = (parts[0], parts[1], parts[2], parts[3])
    }

    var description: String { "\(x),\(y) \(width)x\(height)" }

    /// True when `blob` covers this rect within `tolerance` pixels on every edge.
    func matches(_ blob: RGBImage.Blob, tolerance: Double = 3) -> Bool {
        abs(Double(blob.minX) - x) <= tolerance && abs(Double(blob.minY) - y) <= tolerance
            && abs(Double(blob.maxX + 1) - (x + width)) <= tolerance && abs(Double(blob.maxY + 1) - (y + height)) <= tolerance
    }

    /// True when `blob` lies inside this rect, give or take `tolerance` pixels.
    func contains(_ blob: RGBImage.Blob, tolerance: Double = 3) -> Bool {
        Double(blob.minX) >= x - tolerance && Double(blob.minY) >= y - tolerance
            && Double(blob.maxX + 1) <= x + width + tolerance && Double(blob.maxY + 1) <= y + height + tolerance
    }
}
