import Foundation
import NookTestSupport

/// A virtual X server for one test (`Xvfb -displayfd`, so it picks a free display number),
/// ended by its pid.
final class XvfbServer: @unchecked Sendable {
    // @unchecked: the Process is only signalled and waited on, which Foundation allows from
    // any thread; `display` is immutable.
    static let screen = (width: 1512, height: 982)

    /// Starts a server whose screenshots have been proven to work (`checkScreenshots`, once per
    /// test process): a renderer test that cannot see the screen fails saying why, instead of
    /// failing later with "the cover never appeared" or being skipped.
    ///
    /// The root window is painted `root` (`xsetroot`; `-noreset` keeps it after xsetroot
    /// leaves). Xvfb has no compositor, so the renderer's window shows only the chrome (an X
    /// shape) and the root shows around it: by default the grey a window that cannot be
    /// transparent paints (nook-renderer's `NookWindow.neutralBackground`), which
    /// `RGBImage.chromeBox` measures the chrome against.
    static let neutralRoot = "#292b30"
    static func start(root: String = neutralRoot) async throws -> XvfbServer {
        try await screenshotCheck.value
        let server = try XvfbServer(arguments: ["-noreset"])
        do { try await server.run("xsetroot", ["-solid", root]) } catch { server.stop(); throw error }
        return server
    }

    /// The self-check's outcome, computed once.
    private static let screenshotCheck = Task<Void, any Error> { try await checkScreenshots() }

    /// Paints a fresh server's root window a known colour (`xsetroot`) and reads it back through
    /// the same pipeline the tests use. `convert` must be ImageMagick's: a stand-in of that
    /// name (one that only serves another tool, say) returns nothing useful.
    /// - Parameter convert: the convert to check (default: the one on PATH the tests use).
    static func checkScreenshots(convert: String? = nil) async throws {
        func fail(_ why: String) -> TestSupportError { TestSupportError("screenshots do not work: \(why) (make test installs xvfb, x11-apps, imagemagick and x11-xserver-utils)") }
        for tool in ["Xvfb", "xwd", "convert", "xsetroot", "xdotool"] where (try? Tools.path(of: tool)) == nil {
            throw fail("\(tool) is not installed")
        }
        let convert = try convert ?? Tools.path(of: "convert")
        let version = try? await Tools.run(convert, ["-version"])
        guard let version, version.status == 0, version.stdout.contains("ImageMagick") else {
            throw fail("\(convert) is not ImageMagick's convert (its -version says: \(version.map { String(($0.stdout + $0.stderr).prefix(120)) } ?? "nothing"))")
        }
        // -noreset: the root's colour would reset when xsetroot, the only client, disconnects.
        let server = try XvfbServer(arguments: ["-noreset"])
        defer { server.stop() }
        try await server.run("xsetroot", ["-solid", "#3366cc"])
        let image: RGBImage
        do { image = try await server.screenshot(rows: 4, width: 4, convert: convert) } catch { throw fail("\(error)") }
        let pixel = Array(image.bytes.prefix(3))
        guard pixel == [0x33, 0x66, 0xcc] else {
            throw fail("a root window painted #3366cc reads back as \(pixel) through xwd | \(convert)")
        }
    }

    private let server: XvfbDisplay
    /// `:N`
    var display: String { server.display }

    init(arguments extra: [String] = []) throws {
        server = try XvfbDisplay(width: Self.screen.width, height: Self.screen.height, arguments: extra)
    }

    func stop() { server.stop() }

    /// The top `rows` of the screen as 8-bit RGB (`xwd -root | convert ... rgb:-`).
    func screenshot(rows: Int = 520, width: Int = XvfbServer.screen.width, convert: String = "convert") async throws -> RGBImage {
        let script = "xwd -root -silent -display \(display) | \(convert) xwd:- -crop \(width)x\(rows)+0+0 +repage -depth 8 rgb:-"
        let data = try await Self.output(of: "/bin/sh", ["-c", script])
        guard data.count == width * rows * 3 else {
            throw TestSupportError("screenshot: expected \(width * rows * 3) bytes of RGB, got \(data.count)")
        }
        return RGBImage(width: width, height: rows, bytes: [UInt8](data))
    }

    /// Runs an X client against this display (`xdotool`); what it printed.
    @discardableResult
    func run(_ tool: String, _ arguments: [String]) async throws -> String {
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = display
        let result = try await Tools.run(tool, arguments, environment: environment)
        guard result.status == 0 else { throw TestSupportError("\(tool) \(arguments) failed (\(result.status)): \(result.stderr)") }
        return result.stdout
    }

    /// A command's stdout as bytes (Tools.run decodes text).
    static func output(of executable: String, _ arguments: [String]) async throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        async let data = PipeDrain.readToEnd(out.fileHandleForReading)
        do { try process.runSerialized() } catch {
            try? out.fileHandleForWriting.close()
            _ = await data
            throw error
        }
        let bytes = await data
        // Not through `terminationHandler`, which may never fire (ChildExit).
        let status = await ChildExit.status(of: process)
        guard status == 0 else { throw TestSupportError("\(executable) \(arguments) exited with \(status.map(String.init) ?? "nothing: still running")") }
        return bytes
    }
}
