import Foundation
import NookBus
import NookTestSupport
import Testing

/// Issue 39, part 5, on KDE Plasma 5.27 (Wayland): the nook beside a Plasma panel at the top,
/// with docs/install.md's KDE recipe, on a real KWin and plasmashell (`PlasmaSession`) and a
/// real maximized window painted one colour.
///
/// KWin arranges layer-shell surfaces over the whole output: a Plasma panel is not a
/// layer-shell surface, so its strut counts for windows but not for the nook, which the
/// defaults put at the very top, over the panel. The recipe moves it down by the panel's
/// thickness (`margin_top`); the band `exclusive_zone: auto` reserves then lies below the
/// panel too, and windows start below the band.
@Suite(.serialized) struct PlacementBesideKDEPanelTests {
    /// docs/install.md's recipe for a top panel `PlasmaSession.panelHeight` thick.
    static let recipe = #"{"margin_top": \#(PlasmaSession.panelHeight)}"#
    static let panelHeight = PlasmaSession.panelHeight

    /// A maximized GTK window painted `PlacementBesideBarsTests.window`'s colour, as the
    /// session's user.
    static func startWindow(_ nook: PlasmaNook) throws -> PackageProcess {
        let home = nook.scratch.appendingPathComponent("window-home")
        try nook.plasma.user.makePrivateDirectory(home)
        let (executable, arguments) = try nook.plasma.user.command(
            "/usr/bin/python3", ["-c", PlacementBesideBarsTests.windowScript(fullscreen: false, maximized: true)],
            environment: nook.plasma.clientEnvironment.merging(["GDK_BACKEND": "wayland", "HOME": home.path, "NO_AT_BRIDGE": "1"]) { $1 })
        let process = try PackageProcess(executable, arguments, logDirectory: home)
        nook.stack.onStop { await process.stop() }
        return process
    }

    /// The first row where the window shows at the left edge, under the panel's shadow too (its
    /// red stays the strongest channel by far there); nil without the window.
    static func windowTop(_ shot: RGBImage) -> Int? {
        (0..<shot.height).first { y in
            let pixel = shot.pixel(x: 5, y: y).map(Int.init)
            return pixel[0] > pixel[1] + 60 && pixel[0] > pixel[2] + 60
        }
    }

    /// Pixels of the pill's black chrome in `rows` of `shot`.
    static func chromePixels(_ shot: RGBImage, rows: Range<Int>) -> Int {
        rows.reduce(0) { count, y in
            count + (0..<shot.width).filter { x in shot.pixel(x: x, y: y).allSatisfy { $0 < 8 } }.count
        }
    }

    static func save(_ image: RGBImage, as name: String) -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("nook-\(name)-\(UUID().uuidString).ppm")
        var data = Data("P6\n\(image.width) \(image.height)\n255\n".utf8)
        data.append(contentsOf: image.bytes)
        try? data.write(to: file)
        return file.path
    }

    /// The recipe beside a top panel: with nothing shown the maximized window starts right below
    /// the panel; with the idle pill, the panel's rows are the same pixel for pixel, the pill is
    /// drawn below the panel, and every pixel of the window's top 80 rows is the window's (it
    /// starts below the pill's band).
    @Test func idleNookWithTheKDERecipeCoversNoPanelAndNoWindow() async throws {
        try await PlasmaNook.with(rendererConfig: Self.recipe) { nook in
            let screen = PlasmaSession.screen
            _ = try Self.startWindow(nook)
            let windowUp = await eventually(timeout: .seconds(60), poll: .milliseconds(200)) {
                guard let shot = try? await nook.plasma.screenshot(y: screen.height - 10, height: 10) else { return false }
                return PlacementBesideBarsTests.isWindow(shot, 5, 5)
            }
            #expect(windowUp, "the test window never showed:\n\(nook.logs)")

            // Without the nook: no band, the window comes up to the panel.
            _ = try await nook.control("Hide")
            let hidden = await eventually(timeout: .seconds(60), poll: .milliseconds(100)) { (try? await nook.state().presentation) == "hidden" }
            #expect(hidden, "the nook never hid:\n\(nook.logs)")
            try await nook.waitUntilSettled(serial: try await nook.state().serial)
            let windowUnderPanel = await eventually(timeout: .seconds(60), poll: .milliseconds(200)) {
                guard let shot = try? await nook.plasma.screenshot(height: 120) else { return false }
                return Self.windowTop(shot) == Self.panelHeight
            }
            if !windowUnderPanel {
                let kept = (try? await nook.plasma.screenshot(height: 200)).map { Self.save($0, as: "kde-hidden") } ?? "none"
                Issue.record("with nothing shown the window does not start right below the panel (screenshot: \(kept)):\n\(nook.logs)")
            }
            // The panel alone, its own colour where it has no icon.
            let panelAlone = try await nook.plasma.screenshot(height: Self.panelHeight)
            #expect(panelAlone.pixel(x: screen.width / 2, y: Self.panelHeight - 1) == PlasmaSession.panelColour,
                    "the panel's bottom row is not the panel's colour (screenshot: \(Self.save(panelAlone, as: "kde-panel-alone")))")

            // With the idle pill: waited for as a whole (the band and the pill are two surfaces
            // KWin places one after the other).
            try await nook.showPill()
            let panelBytes = panelAlone.bytes.count
            let differingFromPanel: @Sendable (RGBImage) -> Int = { shot in
                stride(from: 0, to: min(panelBytes, shot.bytes.count) - 2, by: 3).filter { index in
                    panelAlone.bytes[index..<(index + 3)] != shot.bytes[index..<(index + 3)]
                }.count
            }
            let clear = await eventually(timeout: .seconds(60), poll: .milliseconds(200)) {
                guard let shot = try? await nook.plasma.screenshot(height: 200),
                      let top = Self.windowTop(shot), top > Self.panelHeight + PlasmaSession.panelShadow, top + 80 <= shot.height else { return false }
                return Self.chromePixels(shot, rows: Self.panelHeight..<top) > 500
                    && PlacementBesideBarsTests.notWindow(shot, rows: top..<(top + 80)) == 0 && differingFromPanel(shot) == 0
            }
            let shot = try await nook.plasma.screenshot(height: 200)
            ReachOnScreenTests.saveScreenshot(shot, "placement-kde-panel")
            let kept = clear ? "" : " (screenshots: \(Self.save(panelAlone, as: "kde-panel-alone")), \(Self.save(shot, as: "kde-with-nook")))"
            #expect(clear, "the idle pill is not drawn between the panel and the window, covers the window (its top at \(String(describing: Self.windowTop(shot)))), or changes \(differingFromPanel(shot)) pixels of the panel's rows\(kept):\n\(nook.logs)")
            #expect(nook.reservationSurfaces.count >= 1, "no reservation band was asked for: \(LayerSurfaceTrace(nook.rendererLog).requests)")
        }
    }

    /// Why the recipe: with the defaults KWin puts the nook at the very top of the screen, over
    /// a top panel (a Plasma panel's strut is not a layer-shell exclusive zone). If this fails,
    /// KWin has learnt to place the nook below the panel, and the recipe in docs/install.md is
    /// no longer needed.
    @Test func withTheDefaultsKWinDrawsThePillOverATopPanel() async throws {
        try await PlasmaNook.with(rendererConfig: nil) { nook in
            try await nook.showPill()
            let over = await eventually(timeout: .seconds(60), poll: .milliseconds(200)) {
                guard let shot = try? await nook.plasma.screenshot(height: Self.panelHeight) else { return false }
                return Self.chromePixels(shot, rows: 0..<Self.panelHeight) > 500
            }
            let shot = try await nook.plasma.screenshot(height: 200)
            #expect(over, "the default pill is not drawn over the panel (screenshot: \(Self.save(shot, as: "kde-default"))):\n\(nook.logs)")
        }
    }
}
