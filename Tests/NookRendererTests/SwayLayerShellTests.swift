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

    /// Issue 42: the layer surface is as tall as what it shows, not the top 45 % of the output
    /// (each frame on Wayland is a fresh buffer of the surface's size). At rest in the pill it is
    /// a step or two of 32 points, and as wide as the pill and a little room, centred; opened,
    /// it grows before the first frame to hold the whole expanded chrome and its close control,
    /// which the screen shows uncut and in place; closed again, it shrinks back.
    @Test func theSurfaceIsAsTallAsWhatItShows() async throws {
        try await SwayNook.with(slowMotion: 1) { nook in
            try await nook.showPill()
            let share = Int((Double(SwayServer.screen.height) * 0.45).rounded(.up))
            let pill = try #require(LoggedRect(nook.logLines("frame").last?["chrome"]), "no pill drawn:\n\(nook.logs)")
            let pillSize = try #require(nook.layerSurfaces.last?.size, "no set_size sent:\n\(nook.logs)")
            #expect(Double(pillSize.height) >= pill.y + pill.height && pillSize.height <= Int(pill.y + pill.height) + 64,
                    "surface \(pillSize.height) points tall under a pill ending at \(pill.y + pill.height)")
            #expect(Double(pillSize.width) >= pill.width && pillSize.width < SwayServer.screen.width / 2
                        && (SwayServer.screen.width - pillSize.width) % 2 == 0,
                    "surface \(pillSize.width) points wide around a pill \(pill.width) wide, on an output \(SwayServer.screen.width) wide")

            let serial = try await nook.open()
            try await nook.waitUntilSettled(serial: serial)
            let panel = try #require(LoggedRect(nook.logLines("frame").last?["chrome"]), "no panel drawn:\n\(nook.logs)")
            let openSize = try #require(nook.layerSurfaces.last?.size)
            #expect(Double(openSize.height) >= panel.y + panel.height && openSize.height < share,
                    "surface \(openSize.height) points tall under a panel ending at \(panel.y + panel.height) (the share is \(share))")
            let screen = try await nook.sway.screenshot(height: share)
            // Up to just right of the panel: the close control beside it stays out.
            let panelOnly = try await nook.sway.screenshot(width: Int(panel.x + panel.width) + 4, height: share)
            let drawn = try #require(panelOnly.chromeBox(background: SwayServer.backgroundSum), "no chrome on screen")
            #expect(panel.matches(drawn, tolerance: 2), "the panel is cut or moved: drawn at \(drawn), logged \(panel)")
            #expect(Double(openSize.width) >= panel.width + 2 * 26, "surface \(openSize.width) points wide, no room for the close control")
            ReachOnScreenTests.saveScreenshot(screen, "surface-fits-expanded")

            print("surface: \(pillSize.width)x\(pillSize.height) under the pill, \(openSize.width)x\(openSize.height) opened (the share: \(SwayServer.screen.width)x\(share))")
            try await nook.closeAndSettle()
            let closedSize = try #require(nook.layerSurfaces.last?.size)
            #expect(closedSize.height == pillSize.height && closedSize.width == pillSize.width,
                    "closed again, the surface is \(closedSize), was \(pillSize)")
        }
    }

    /// SPEC rules 7 and 10 on sway, as `RendererScreenshotTests` checks them on Xvfb: opening
    /// onto the song moves the pill's cover through the positions in between into the
    /// expanded view, and each screenshot finds it where the renderer says it drew it.
    @Test func coverMovesFromThePillThroughInBetweenToTheExpandedView() async throws {
        try await SwayNook.with { nook in
            try await nook.showPill()
            let before = try await nook.sway.screenshot()
            let pillCover = try #require(before.coverBlobs().first, "no cover in the pill before opening")

            // Mid-transition: the renderer frozen on a frame with the cover part-way (sway keeps
            // showing the buffer it last committed).
            let partWay = try await nook.coverCaughtPartWay(
                transition: { try await nook.open() }, reset: { try await nook.closeAndSettle() },
                screenshot: { try await nook.sway.screenshot() })
            let (plan, from, to, mid) = (partWay.plan, partWay.from, partWay.to, partWay.screenshot)
            #expect(from.matches(pillCover), "before: cover at \(pillCover), plan's from_rect \(from)")
            let pillChrome = try #require(LoggedRect(plan["chrome_from"]), "\(plan.text)")
            #expect(before.chromeBox(background: SwayServer.backgroundSum).map { pillChrome.matches($0, tolerance: 2) } == true,
                    "before: chrome at \(String(describing: before.chromeBox(background: SwayServer.backgroundSum))), plan's chrome_from \(pillChrome)")
            // The chrome is between the pill's and the expanded shape too.
            let chromeTo = try #require(LoggedRect(plan["chrome_to"]), "\(plan.text)")
            let midChrome = try #require(mid.chromeBox(background: SwayServer.backgroundSum), "no chrome mid-transition")
            #expect(!pillChrome.matches(midChrome, tolerance: 2) && !chromeTo.matches(midChrome, tolerance: 2),
                    "mid: chrome at \(midChrome) sits at an end (\(pillChrome) or \(chromeTo))")

            try await nook.waitUntilSettled(serial: partWay.serial)
            // Up to just right of the panel: the close control beside it (8 pt away) stays out.
            let after = try await nook.sway.screenshot(width: Int(chromeTo.x + chromeTo.width) + 4)
            let expandedCover = try #require(after.coverBlobs().first, "no cover after opening")
            #expect(to.matches(expandedCover), "after: cover at \(expandedCover), plan's to_rect \(to)")
            #expect(after.chromeBox(background: SwayServer.backgroundSum).map { chromeTo.matches($0, tolerance: 2) } == true,
                    "after: chrome at \(String(describing: after.chromeBox(background: SwayServer.backgroundSum))), plan's chrome_to \(chromeTo)")
            #expect(try await nook.state().presentation == "expanded")
        }
    }

    /// On an output of scale 2 the canvas draws at twice the detail: its buffers are at scale 2,
    /// and the pill on screen, read at two pixels a point, is where the plan put it, twice as
    /// large in pixels.
    @Test func aScaleTwoOutputGetsThePillInTwiceThePixels() async throws {
        let logical = SwayServer.Output(name: "HEADLESS-1", active: true, x: 0, y: 0, width: SwayServer.screen.width / 2,
                                        height: SwayServer.screen.height / 2)
        try await SwayNook.with(slowMotion: 1, swayConfig: "output HEADLESS-1 scale 2") { nook in
            try await nook.showPill(on: logical)
            let frame = try #require(nook.logLines("frame").last, "no frame logged")
            let pill = try #require(LoggedRect(frame["chrome"]), "no chrome drawn: \(frame.text)")
            #expect(abs(pill.midX - Double(logical.width) / 2) <= 1, "the pill \(pill) is not centred on a \(logical.width)-point output")
            // The canvas is the surface `get_subsurface(new id, surface, parent)` names.
            let log = nook.rendererLog
            let made = try #require(log.split(separator: "\n").first { $0.contains(".get_subsurface(") }, "no subsurface made")
            let canvas = try #require(made.split(separator: " ").first { $0.hasPrefix("wl_surface@") }?.trimmingCharacters(in: CharacterSet(charactersIn: ",)")),
                                      "no surface in \(made)")
            #expect(log.contains("\(canvas).set_buffer_scale(2)"), "the canvas (\(canvas)) has no buffer at scale 2")
            let shot = try await nook.sway.screenshot(width: logical.width, height: 100, scale: 2)
            ReachOnScreenTests.saveScreenshot(shot, "scale-2-pill")
            let chrome = try #require(shot.chromeBox(background: SwayServer.backgroundSum), "no chrome on the scale 2 output")
            let inPixels = try #require(LoggedRect("\(pill.x * 2),\(pill.y * 2),\(pill.width * 2),\(pill.height * 2)"))
            #expect(inPixels.matches(chrome, tolerance: 3), "chrome on screen at \(chrome) pixels, the plan's \(pill) points")
        }
    }

    /// The virtual pointer coming over the pill: sway sends the surface pointer events, the
    /// renderer sends `Pointer("enter")`, the nook opens by hover, and the screen shows the
    /// expanded chrome the plan asked for. Leaving closes it again.
    @Test func pointerOverThePillOpensTheNookByHover() async throws {
        try await SwayNook.with(slowMotion: 1) { nook in
            try await nook.showPill()
            let frame = try #require(nook.logLines("frame").last, "no frame logged")
            let pill = try #require(LoggedRect(frame["chrome"]), "no chrome drawn: \(frame.text)")
            let pointer = try await nook.pointer()
            try await pointer.move(to: Int(pill.midX), Int(pill.midY))
            let opened = await eventually(timeout: .seconds(60), poll: .milliseconds(50)) {
                (try? await nook.state().presentation) == "expanded"
            }
            #expect(opened, "hovering the pill did not open the nook:\n\(nook.logs)\n\(pointer.output)")
            #expect(nook.rendererLog.contains("pointer enter at"), "the renderer never sent Pointer(enter)")
            let expanded = try await nook.state().serial
            let plan = try await nook.waitForPlan(serial: expanded)
            try await nook.waitUntilSettled(serial: expanded)
            let chromeTo = try #require(LoggedRect(plan["chrome_to"]), "\(plan.text)")
            #expect(chromeTo.width > pill.width * 2, "the hover plan's chrome \(chromeTo) is no larger than the pill \(pill)")
            // Up to just right of the panel: the close control beside it (8 pt away) stays out.
            let shot = try await nook.sway.screenshot(width: Int(chromeTo.x + chromeTo.width) + 4)
            let chrome = try #require(shot.chromeBox(background: SwayServer.backgroundSum), "no chrome on screen after hovering")
            #expect(chromeTo.matches(chrome, tolerance: 2), "expanded chrome on screen at \(chrome), plan's chrome_to \(chromeTo)")

            try await pointer.move(to: 20, SwayServer.screen.height - 20)
            let closed = await eventually(timeout: .seconds(60), poll: .milliseconds(50)) {
                (try? await nook.state().presentation) == "pill"
            }
            #expect(closed, "leaving the nook did not close it:\n\(nook.logs)")
        }
    }

    /// A top bar (swaybar, docked, 30 px, a colour of its own): on the overlay layer with
    /// exclusive zone -1 the pill covers the bar's centre (so the check below can fail); with
    /// `renderer.json` set to the top layer and exclusive zone 0 (read again live), the
    /// surface moves below the bar and every pixel of the bar's centre is the bar's again.
    @Test func exclusiveZoneKeepsTheTopBarUncovered() async throws {
        let bar = (height: 30, red: 0x1e, green: 0x90, blue: 0xff)
        let swayConfig = """
            bar {
                position top
                height \(bar.height)
                workspace_buttons no
                colors {
                    background #1e90ff
                }
            }
            """
        try await SwayNook.with(slowMotion: 1, swayConfig: swayConfig,
                                rendererConfig: #"{"layer": "overlay", "exclusive_zone": -1}"#) { nook in
            try await nook.showPill()
            /// Pixels of the bar's centre (a 400 px span around the pill) that are not the bar's colour.
            @Sendable func coveredBarPixels() async throws -> Int {
                let shot = try await nook.sway.screenshot(x: SwayServer.screen.width / 2 - 200, y: 0, width: 400, height: bar.height)
                return stride(from: 0, to: shot.bytes.count, by: 3).filter {
                    (Int(shot.bytes[$0]), Int(shot.bytes[$0 + 1]), Int(shot.bytes[$0 + 2])) != (bar.red, bar.green, bar.blue)
                }.count
            }
            let barUp = await eventually(timeout: .seconds(30), poll: .milliseconds(200)) {
                (try? await nook.sway.screenshot(x: 0, y: 0, width: 4, height: 4).bytes.prefix(3).elementsEqual([UInt8(bar.red), UInt8(bar.green), UInt8(bar.blue)])) == true
            }
            #expect(barUp, "swaybar never drew its top bar:\n\(nook.sway.log.suffix(2000))")
            let covering = try await coveredBarPixels()
            #expect(covering > 500, "on the overlay layer with exclusive zone -1 the pill should cover the bar's centre; \(covering) pixels differ")
            #expect(nook.layerSurfaces.last?.exclusiveZone == -1, "\(nook.layerSurfaces)")

            try #"{"layer": "top", "exclusive_zone": 0}"#.write(to: nook.scratch.appendingPathComponent("config/nook/renderer.json"),
                                                               atomically: true, encoding: .utf8)
            let uncovered = await eventually(timeout: .seconds(60), poll: .milliseconds(200)) {
                (try? await coveredBarPixels()) == 0
            }
            let stillCovered = try await coveredBarPixels()
            #expect(uncovered, "the bar stayed covered with exclusive zone 0 on the top layer (\(stillCovered) pixels):\n\(nook.logs)")
            let surface = try #require(nook.layerSurfaces.last)
            #expect(surface.exclusiveZone == 0, "\(nook.layerSurfaces)")
            // The pill hangs right below the bar.
            let frame = try #require(nook.logLines("frame").last, "no frame logged")
            let pill = try #require(LoggedRect(frame["chrome"]), "no chrome drawn: \(frame.text)")
            let drawn = await eventually(timeout: .seconds(30), poll: .milliseconds(200)) {
                guard let shot = try? await nook.sway.screenshot(y: bar.height, height: 200),
                      let chrome = shot.chromeBox(background: SwayServer.backgroundSum) else { return false }
                return pill.matches(chrome, tolerance: 2)
            }
            #expect(drawn, "the pill \(pill) is not drawn right below the bar")
        }
    }
}
