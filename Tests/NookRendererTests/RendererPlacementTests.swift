import Foundation
import NookTestSupport
import Testing

/// Where `renderer.json` puts the window on X11 (Xvfb has no layer shell and no window
/// manager): `margin_top` moves it down, and `output` picks a monitor by GDK's model string
/// (the RandR output name, `screen` on Xvfb), falling back to the primary one.
@Suite
struct RendererPlacementTests {
    static let slate = (red: 0x20, green: 0x30, blue: 0x40)

    /// The top row of the chrome (painted slate, so the bare root window above cannot pass for it).
    static func chromeTop(_ image: RGBImage) -> Int? {
        for y in 0..<image.height {
            for x in 0..<image.width {
                let offset = (y * image.width + x) * 3
                if abs(Int(image.bytes[offset]) - slate.red) <= 3, abs(Int(image.bytes[offset + 1]) - slate.green) <= 3,
                   abs(Int(image.bytes[offset + 2]) - slate.blue) <= 3 { return y }
            }
        }
        return nil
    }

    @Test func marginTopMovesTheNookDown() async throws {
        try await RendererNook.with(slowMotion: 1, rendererConfig: ##"{"margin_top": 40, "colors": {"chrome": "#203040"}}"##) { nook in
            try await nook.showPillAtRest()
            let top = Self.chromeTop(try await nook.xvfb.screenshot())
            #expect(top == 40, "the chrome's top row is \(String(describing: top)), expected 40:\n\(nook.logs)")
        }
    }

    @Test func withoutAMarginTheNookTouchesTheTop() async throws {
        try await RendererNook.with(slowMotion: 1, rendererConfig: ##"{"colors": {"chrome": "#203040"}}"##) { nook in
            try await nook.showPillAtRest()
            #expect(Self.chromeTop(try await nook.xvfb.screenshot()) == 0, "\(nook.logs)")
        }
    }

    @Test func aNamedOutputIsMatchedByGdksModelName() async throws {
        try await RendererNook.with(slowMotion: 1, rendererConfig: #"{"output": "screen"}"#) { nook in
            try await nook.showPillAtRest()
            #expect(nook.rendererLog.contains("on screen ("), "\(nook.rendererLog)")
            #expect(!nook.rendererLog.contains("is not connected"), "\(nook.rendererLog)")
        }
    }

    @Test func anAbsentOutputFallsBackToThePrimaryAndSaysSo() async throws {
        try await RendererNook.with(slowMotion: 1, rendererConfig: #"{"output": "DP-9"}"#) { nook in
            #expect(nook.rendererLog.contains("output 'DP-9' is not connected (monitors: screen); using the primary one until it is"),
                    "\(nook.rendererLog)")
            try await nook.showPillAtRest()
        }
    }

    /// A window destroyed from outside (here `xdotool windowclose`, as a compositor closes a
    /// layer surface whose output went away) ends the renderer with status 1 and a line saying
    /// why, so the unit's `Restart=on-failure` brings the nook back. (Before: status 0, and the
    /// nook stayed gone.)
    @Test func aWindowClosedFromOutsideEndsTheRendererWithAFailure() async throws {
        try await RendererNook.with(slowMotion: 1) { nook in
            try await nook.showPillAtRest()
            let search = try await nook.xvfb.run("xdotool", ["search", "--pid", String(nook.renderer.pid)])
            let windows = search.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
            try #require(!windows.isEmpty, "no window of the renderer: \(nook.logs)")
            for window in windows { _ = try? await nook.xvfb.run("xdotool", ["windowclose", window]) }
            #expect(await nook.renderer.waitForExit(timeout: .seconds(30)), "the renderer kept running: \(nook.rendererLog)")
            #expect(nook.renderer.exitStatus == 1, "\(nook.rendererLog)")
            #expect(nook.rendererLog.contains("the window was closed from outside"), "\(nook.rendererLog)")
        }
    }
}
