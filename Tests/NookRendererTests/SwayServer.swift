import Foundation
import NookTestSupport

/// A headless sway 1.7 for one test (wlroots' headless backend and pixman renderer: no GPU,
/// no input devices), run as the `WaylandTestUser` with its own `XDG_RUNTIME_DIR`, and ended
/// by its pid. Screenshots come from `grim`, output changes from `swaymsg`.
final class SwayServer: @unchecked Sendable {
    // @unchecked: every stored property is immutable; the process is only signalled by pid.
    static let screen = (width: 1512, height: 982)
    /// The sum of the channels of sway's own background (63, 63, 63; no swaybg runs).
    static let backgroundSum = 3 * 63

    let user: WaylandTestUser
    let directory: URL
    let runtimeDirectory: URL
    /// `wayland-N` in `runtimeDirectory`.
    let waylandDisplay: String
    let ipcSocket: String
    private let process: PackageProcess

    /// The first output, as the minimal config sets it.
    static let firstOutput = Output(name: "HEADLESS-1", active: true, x: 0, y: 0, width: screen.width, height: screen.height)

    /// - Parameters:
    ///   - config: lines added to the minimal config (HEADLESS-1 at 1512x982, no bar).
    ///   - outputs: how many headless outputs exist from the start (`HEADLESS-1`...).
    init(config extra: String = "", outputs: Int = 1, in parent: URL) async throws {
        user = try await WaylandTestUser.shared()
        directory = parent.appendingPathComponent("sway")
        runtimeDirectory = directory.appendingPathComponent("runtime")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try user.makePrivateDirectory(runtimeDirectory)
        let configFile = directory.appendingPathComponent("config")
        try """
            output HEADLESS-1 mode \(Self.screen.width)x\(Self.screen.height) position 0 0
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
    var clientEnvironment: [String: String] {
        ["XDG_RUNTIME_DIR": runtimeDirectory.path, "WAYLAND_DISPLAY": waylandDisplay, "SWAYSOCK": ipcSocket,
         "PATH": "/usr/local/bin:/usr/bin:/bin"]
    }

    var log: String { process.log }
    var pid: Int32 { process.pid }

    func stop() async {
        await process.stop()
    }

    /// `swaymsg ARGUMENTS`: its output; a refused command throws with sway's message.
    @discardableResult
    func swaymsg(_ arguments: [String]) async throws -> String {
        let (executable, argv) = try user.command("swaymsg", arguments, environment: clientEnvironment)
        let result = try await Tools.run(executable, argv)
        guard result.status == 0 else {
            throw TestSupportError("swaymsg \(arguments.joined(separator: " ")) failed (\(result.status)): \(result.stdout)\(result.stderr)")
        }
        return result.stdout
    }

    /// The outputs as sway lists them: name, whether active, and the rect in the layout.
    func outputs() async throws -> [Output] {
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

    struct Output: Sendable, CustomStringConvertible {
        var name: String
        var active: Bool
        var x: Int, y: Int, width: Int, height: Int
        var description: String { "\(name) \(active ? "" : "(inactive) ")\(width)x\(height)+\(x)+\(y)" }
    }

    /// The layout's region `x,y WxH` as 8-bit RGB (`grim -t ppm`, as the sway user).
    func screenshot(x: Int = 0, y: Int = 0, width: Int = SwayServer.screen.width, height: Int = 520) async throws -> RGBImage {
        let (executable, argv) = try user.command("grim", ["-t", "ppm", "-g", "\(x),\(y) \(width)x\(height)", "-"], environment: clientEnvironment)
        let image = try RGBImage(ppm: try await XvfbServer.output(of: executable, argv))
        guard image.width == width, image.height == height else {
            throw TestSupportError("grim gave \(image.width)x\(image.height), asked for \(width)x\(height)")
        }
        return image
    }
}

extension RGBImage {
    /// A binary PPM (`P6`, maximum 255), as grim writes it.
    init(ppm data: Data) throws {
        let bytes = [UInt8](data)
        var fields: [Int] = []
        var index = 2
        guard bytes.count > 2, bytes[0] == UInt8(ascii: "P"), bytes[1] == UInt8(ascii: "6") else {
            throw TestSupportError("not a binary PPM (\(bytes.count) bytes)")
        }
        // Width, height and maximum, each after whitespace; one whitespace byte ends the header.
        while fields.count < 3, index < bytes.count {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0a || bytes[index] == 0x09 || bytes[index] == 0x0d { index += 1 }
            var value = 0
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39, value < 1_000_000 {
                value = value * 10 + Int(bytes[index] - 0x30)
                index += 1
            }
            fields.append(value)
        }
        index += 1
        guard fields.count == 3, fields[2] == 255, bytes.count - index == fields[0] * fields[1] * 3 else {
            throw TestSupportError("a PPM header \(fields) does not match its \(bytes.count - index) bytes of pixels")
        }
        self.init(width: fields[0], height: fields[1], bytes: Array(bytes[index...]))
    }
}
