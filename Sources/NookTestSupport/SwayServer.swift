import Foundation

/// A headless sway 1.7 for one test (wlroots' headless backend and pixman renderer: no GPU,
/// no input devices), run as the `WaylandTestUser` with its own `XDG_RUNTIME_DIR`, and ended
/// by its pid. Screenshots come from `grim`, output changes from `swaymsg`.
public final class SwayServer: @unchecked Sendable {
    // @unchecked: every stored property is immutable; the process is only signalled by pid.
    /// The size of `HEADLESS-1` unless a test or benchmark asks for another.
    public static let screen = (width: 1512, height: 982)
    /// The sum of the channels of sway's own background (63, 63, 63; no swaybg runs).
    public static let backgroundSum = 3 * 63

    public let user: WaylandTestUser
    public let directory: URL
    public let runtimeDirectory: URL
    /// `wayland-N` in `runtimeDirectory`.
    public let waylandDisplay: String
    public let ipcSocket: String
    private let process: PackageProcess

    /// The first output, as the minimal config sets it.
    public static let firstOutput = Output(name: "HEADLESS-1", active: true, x: 0, y: 0, width: screen.width, height: screen.height)

    /// - Parameters:
    ///   - config: lines added to the minimal config (HEADLESS-1 at 1512x982, no bar).
    ///   - outputs: how many headless outputs exist from the start (`HEADLESS-1`...).
    ///   - size: the outputs' mode.
    ///   - reaching: the programs the sway user must be able to run (default: the package's
    ///     nook-renderer).
    public init(config extra: String = "", outputs: Int = 1, size: (width: Int, height: Int) = SwayServer.screen, in parent: URL,
                reaching: [String]? = nil) async throws {
        user = try await WaylandTestUser.shared(reaching: reaching)
        directory = parent.appendingPathComponent("sway")
        runtimeDirectory = directory.appendingPathComponent("runtime")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try user.makePrivateDirectory(runtimeDirectory)
        let configFile = directory.appendingPathComponent("config")
        try """
            output HEADLESS-1 mode \(size.width)x\(size.height) position 0 0
            default_border none
            focus_follows_mouse no
            \(extra)

            """.write(to: configFile, atomically: true, encoding: .utf8)
        let (executable, arguments) = try user.command("sway", ["--config", configFile.path], environment: [
            "XDG_RUNTIME_DIR": runtimeDirectory.path, "HOME": runtimeDirectory.path,
            "WLR_BACKENDS": "headless", "WLR_RENDERER": "pixman", "WLR_LIBINPUT_NO_DEVICES": "1",
            "WLR_HEADLESS_OUTPUTS": String(outputs), "PATH": "/usr/local/bin:/usr/bin:/bin",
        ])
        process = try PackageProcess(executable, arguments, logDirectory: directory)
        // sway is up once its Wayland socket and its IPC socket both exist and IPC answers.
        let runtime = runtimeDirectory.path
        let sockets: @Sendable () -> (String, String)? = {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: runtime)) ?? []
            guard let wayland = names.first(where: { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }),
                  let ipc = names.first(where: { $0.hasPrefix("sway-ipc.") }) else { return nil }
            return (wayland, runtime + "/" + ipc)
        }
        let process = process
        let up = await eventually(timeout: .seconds(60), poll: .milliseconds(50)) { sockets() != nil || !process.isRunning }
        guard up, process.isRunning, let (wayland, ipc) = sockets() else {
            let log = process.log
            await process.stop()
            throw TestSupportError("headless sway did not start (is the sway package installed?):\n\(log)")
        }
        waylandDisplay = wayland
        ipcSocket = ipc
        let answered = await eventually(timeout: .seconds(60), poll: .milliseconds(100)) {
            (try? await self.swaymsg(["-t", "get_version"])) != nil
        }
        guard answered else {
            await stop()
            throw TestSupportError("sway's IPC never answered:\n\(log)")
        }
    }

    /// What a client of this sway needs (add the client's own variables).
    public var clientEnvironment: [String: String] {
        ["XDG_RUNTIME_DIR": runtimeDirectory.path, "WAYLAND_DISPLAY": waylandDisplay, "SWAYSOCK": ipcSocket,
         "PATH": "/usr/local/bin:/usr/bin:/bin"]
    }

    public var log: String { process.log }
    public var pid: Int32 { process.pid }

    public func stop() async {
        await process.stop()
    }

    /// `swaymsg ARGUMENTS`: its output; a refused command throws with sway's message.
    @discardableResult
    public func swaymsg(_ arguments: [String]) async throws -> String {
        let (executable, argv) = try user.command("swaymsg", arguments, environment: clientEnvironment)
        let result = try await Tools.run(executable, argv)
        guard result.status == 0 else {
            throw TestSupportError("swaymsg \(arguments.joined(separator: " ")) failed (\(result.status)): \(result.stdout)\(result.stderr)")
        }
        return result.stdout
    }

    /// The outputs as sway lists them: name, whether active, and the rect in the layout.
    public func outputs() async throws -> [Output] {
        let text = try await swaymsg(["-t", "get_outputs", "--raw"])
        guard let list = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]] else {
            throw TestSupportError("get_outputs is not a list: \(text.prefix(300))")
        }
        return list.compactMap { entry in
            guard let name = entry["name"] as? String, let rect = entry["rect"] as? [String: Any] else { return nil }
            func int(_ key: String) -> Int { (rect[key] as? NSNumber)?.intValue ?? 0 }
            return Output(name: name, active: entry["active"] as? Bool ?? false,
                          x: int("x"), y: int("y"), width: int("width"), height: int("height"))
        }
    }

    public struct Output: Sendable, CustomStringConvertible {
        public var name: String
        public var active: Bool
        public var x: Int, y: Int, width: Int, height: Int
        public init(name: String, active: Bool, x: Int, y: Int, width: Int, height: Int) {
            self.name = name
            self.active = active
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }
        public var description: String { "\(name) \(active ? "" : "(inactive) ")\(width)x\(height)+\(x)+\(y)" }
    }
}
