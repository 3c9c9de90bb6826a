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
}
