import Foundation
import NookBus
import NookTestSupport
import Testing

/// nook-renderer on a real Wayland compositor: headless sway 1.7 (pixman, no GPU) run as an
/// unprivileged user, screenshots by grim, the pointer moved by a zwlr_virtual_pointer_v1
/// client. Where the surface is comes from the renderer's own Wayland trace
/// (`LayerSurfaceTrace`) and from the screen; when to screenshot, from the renderer's log.
@Suite(.serialized)
struct SwayLayerShellTests {
    /// Two outputs side by side; the renderer configured for the second one, on the overlay
    /// layer: its one layer surface names that output and layer, and the pill is drawn at the
    /// top centre of that output, nowhere on the first.
    @Test func layerSurfaceIsOnTheConfiguredOutputAndLayer() async throws {
        try await SwayNook.with(slowMotion: 1, swayConfig: "output HEADLESS-2 mode 1280x800 position 1512 0",
                                rendererConfig: #"{"output": "HEADLESS-2", "layer": "overlay"}"#,
                                outputs: 2) { nook in
            let outputs = try await nook.sway.outputs()
            #expect(outputs.map(\.name).sorted() == ["HEADLESS-1", "HEADLESS-2"], "\(outputs)")
            try await nook.showPill(on: SwayServer.Output(name: "HEADLESS-2", active: true, x: 1512, y: 0, width: 1280, height: 800))
            let surfaces = nook.layerSurfaces
            #expect(surfaces.count == 1, "\(surfaces)")
            let surface = try #require(surfaces.last, "the renderer asked for no layer surface:\n\(nook.logs)")
            #expect(surface.output == "HEADLESS-2", "\(surface)")
            #expect(surface.layer == .overlay, "\(surface)")
            #expect(surface.namespace == "nook", "\(surface)")

            let frame = try #require(nook.logLines("frame").last, "no frame logged")
            let pill = try #require(LoggedRect(frame["chrome"]), "no chrome drawn: \(frame.text)")
            #expect(abs(pill.midX - 640) <= 1, "the pill \(pill) is not centred on a 1280 px output")
            let second = try await nook.sway.screenshot(x: 1512, y: 0, width: 1280, height: 200)
            let chrome = try #require(second.chromeBox(background: SwayServer.backgroundSum), "no chrome on HEADLESS-2")
            #expect(pill.matches(chrome, tolerance: 2), "chrome on screen at \(chrome), logged \(pill)")
            #expect(!second.coverBlobs().isEmpty, "no cover in the pill on HEADLESS-2")
            let first = try await nook.sway.screenshot(width: SwayServer.screen.width, height: 200)
            #expect(first.chromeBox(background: SwayServer.backgroundSum) == nil && first.coverBlobs().isEmpty,
                    "something of the nook is drawn on HEADLESS-1")
        }
    }
}
