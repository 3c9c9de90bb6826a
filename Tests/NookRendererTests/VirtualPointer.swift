import Foundation
import NookTestSupport

/// The pointer of a `SwayServer`: `Tests/WaylandSupport/virtual-pointer.c`, a
/// zwlr_virtual_pointer_v1 client built at test time (wayland-scanner and cc, once per test
/// process), run as the sway user and driven through its stdin. Ended by its pid.
final class VirtualPointer: @unchecked Sendable {
    // @unchecked: the Process is only signalled by pid; writes to `input` come from the one
    // test task that drives the pointer.
    private let process: Process
    private let input: FileHandle
    private let outputFile: URL
    private var commands = 0

    /// Starts the pointer at `start` (layout points; the default is the bottom left corner,
    /// away from the nook): a pointer made over a surface is entered with the coordinates the
    /// compositor last computed there, which may predate the surface's last move.
    init(on sway: SwayServer, start: (x: Int, y: Int) = (20, SwayServer.screen.height - 20)) async throws {
        let program = try await Self.built.value
        outputFile = sway.directory.appendingPathComponent("virtual-pointer.out")
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        let (executable, arguments) = try sway.user.command(program, ["\(start.x)", "\(start.y)", "\(SwayServer.screen.width)", "\(SwayServer.screen.height)"],
                                                            environment: sway.clientEnvironment)
        process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardInput = pipe
        input = pipe.fileHandleForWriting
        let output = try FileHandle(forWritingTo: outputFile)
        process.standardOutput = output
        process.standardError = output
        try process.runSerialized()
        try await waitFor("ready", count: 1)
    }

    /// Moves the pointer to `x`,`y` of a layout `layoutWidth` x `layoutHeight` (the bounding
    /// box of all outputs), once sway has handled the motion.
    func move(to x: Int, _ y: Int, layoutWidth: Int = SwayServer.screen.width, layoutHeight: Int = SwayServer.screen.height) async throws {
        try await send("move \(x) \(y) \(layoutWidth) \(layoutHeight)", acknowledgement: "moved")
    }

    /// Presses and releases the left button.
    func click() async throws {
        try await send("press", acknowledgement: "pressed")
        try await send("release", acknowledgement: "released")
    }

    /// Presses and releases the middle button.
    func middleClick() async throws {
        try await send("press middle", acknowledgement: "pressed")
        try await send("release middle", acknowledgement: "released")
    }

    func stop() {
        try? input.close()
        if !ChildExit.hasExited(process.processIdentifier) { kill(process.processIdentifier, SIGKILL) }
        _ = ChildExit.waitBlocking(process.processIdentifier)
    }

    var output: String { (try? String(contentsOf: outputFile, encoding: .utf8)) ?? "" }

    private func send(_ command: String, acknowledgement: String) async throws {
        let count = output.split(separator: "\n").filter { $0.hasPrefix(acknowledgement) }.count
        try input.write(contentsOf: Data((command + "\n").utf8))
        try await waitFor(acknowledgement, count: count + 1)
    }

    private func waitFor(_ prefix: String, count: Int) async throws {
        let arrived = await eventually(timeout: .seconds(30), poll: .milliseconds(20)) {
            self.output.split(separator: "\n").filter { $0.hasPrefix(prefix) }.count >= count || ChildExit.hasExited(self.process.processIdentifier)
        }
        guard arrived, !ChildExit.hasExited(process.processIdentifier) else {
            throw TestSupportError("the virtual pointer did not answer '\(prefix)':\n\(output)")
        }
    }

    /// The client, compiled into a directory the sway user can read: the protocol's header
    /// and glue from `wayland-scanner`, then `cc ... -lwayland-client`.
    private static let built = Task<String, any Error> {
        let support = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("WaylandSupport")
        let protocolFile = support.appendingPathComponent("wlr-virtual-pointer-unstable-v1.xml").path
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nook-virtual-pointer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
        let header = directory.appendingPathComponent("wlr-virtual-pointer-unstable-v1-client-protocol.h").path
        let glue = directory.appendingPathComponent("wlr-virtual-pointer-unstable-v1-protocol.c").path
        let program = directory.appendingPathComponent("virtual-pointer").path
        for (tool, arguments) in [
            ("wayland-scanner", ["client-header", protocolFile, header]),
            ("wayland-scanner", ["private-code", protocolFile, glue]),
            ("cc", ["-O1", "-Wall", "-I", directory.path, "-o", program, support.appendingPathComponent("virtual-pointer.c").path, glue, "-lwayland-client"]),
        ] {
            let result = try await Tools.run(tool, arguments)
            guard result.status == 0 else {
                throw TestSupportError("building the virtual pointer: \(tool) failed (\(result.status)) (make test installs libwayland-dev): \(result.stderr)")
            }
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: program)
        return program
    }
}
