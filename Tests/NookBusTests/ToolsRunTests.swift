import Foundation
import NookTestSupport
import Testing

/// `Tools.run` reads a tool's exit status without Foundation's termination handler (which can
/// fire late or never, `ChildExit`): an exit code, a death by signal, and the output.
@Suite struct ToolsRunTests {
    @Test func exitCodesSignalsAndOutputAreReported() async throws {
        let ok = try await Tools.run("sh", ["-c", "echo out; echo err >&2"])
        #expect(ok.status == 0 && ok.stdout == "out\n" && ok.stderr == "err\n")
        #expect(try await Tools.run("sh", ["-c", "exit 3"]).status == 3)
        #expect(try await Tools.run("sh", ["-c", "kill -9 $$"]).status == 137)
    }

    /// A script still open for writing when it is launched (another test's child inherited
    /// the file) is refused with ETXTBSY; the run waits for it to close rather than failing.
    @Test func aScriptStillOpenForWritingRunsOnceItCloses() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("nook-busy-\(UUID().uuidString).sh").path
        defer { unlink(path) }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        try #require(descriptor >= 0)
        let script = "#!/bin/sh\necho ran\n"
        #expect(write(descriptor, script, script.utf8.count) == script.utf8.count)
        let run = Task { try await Tools.run(path, []) }
        try await Task.sleep(for: .milliseconds(100))
        close(descriptor)
        let result = try await run.value
        #expect(result.status == 0 && result.stdout == "ran\n")
    }
}
