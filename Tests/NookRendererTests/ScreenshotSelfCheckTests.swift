import Foundation
import NookTestSupport
import Testing

/// The screenshot pipeline every renderer test trusts (Xvfb, xwd, ImageMagick's convert) is
/// proven on this machine, and a stand-in `convert` is caught with a message that says so.
struct ScreenshotSelfCheckTests {
    @Test func screenshotsReadBackAKnownColour() async throws {
        try await XvfbServer.checkScreenshots()
    }

    /// A throwaway `convert` that is not ImageMagick: what a machine with another program of
    /// that name first on PATH would give the tests.
    @Test(arguments: [
        ("#!/bin/sh\necho 'convert: not the one you want' >&2\nexit 1\n", "is not ImageMagick's convert"),
        // Claims to be ImageMagick but writes nothing useful: caught by the colour read-back.
        ("#!/bin/sh\ncase \"$1\" in -version) echo 'Version: ImageMagick 0 (a stand-in)';; *) cat >/dev/null; printf 'xyz';; esac\n",
         "screenshot: expected 48 bytes of RGB, got 3"),
    ])
    func aStandInConvertFailsTheCheckAndSaysWhy(script: String, expected: String) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nook-fake-convert-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let convert = directory.appendingPathComponent("convert")
        try ExecutableScript.write(script, to: convert)
        let error = await #expect(throws: TestSupportError.self) { try await XvfbServer.checkScreenshots(convert: convert.path) }
        let message = error.map { "\($0)" } ?? ""
        #expect(message.contains("screenshots do not work"), "\(message)")
        #expect(message.contains(expected), "\(message)")
    }
}
