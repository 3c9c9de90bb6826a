import Foundation
import NookBus
import NookTestSupport
import Testing

/// Issue 39, part 5: the default placement (`layer: auto`, `exclusive_zone: auto`) on headless
/// sway beside a real bar (waybar as Debian ships it, swaybar) and a real window (a GTK window
/// painted one colour), and a real notification bridge driven by `notify-send`.
@Suite(.serialized) struct PlacementBesideBarsTests {
    /// The test window's colour.
    static let window = (red: 200, green: 40, blue: 40)
    static let barHeight = 30

    /// waybar's config and style: a 30 px bar at the top (waybar's own default layer,
    /// `bottom`), a module at the left, the centre and the right, each its own colour.
    static let waybarConfig = """
        {"position": "top", "height": \(barHeight),
         "modules-left": ["custom/left"], "modules-center": ["custom/centre"], "modules-right": ["custom/right"],
         "custom/left": {"format": "left module"}, "custom/centre": {"format": "centre module"},
         "custom/right": {"format": "right module"}}
        """
    static let waybarStyle = """
        * { font-family: sans-serif; font-size: 14px; border: none; border-radius: 0; min-height: 0; }
        window#waybar { background: #1e90ff; color: #ffffff; }
        #custom-left, #custom-right { padding: 0 12px; background: #2e8b57; }
        #custom-centre { padding: 0 60px; background: #ffd700; color: #000000; }
        """

    /// The python3-gi program of a window painted `window`'s colour, undecorated, fullscreen or
    /// maximized if asked.
    static func windowScript(fullscreen: Bool, maximized: Bool = false) -> String {
        """
        import sys, gi
        gi.require_version("Gtk", "3.0")
        from gi.repository import Gtk, Gdk
        css = Gtk.CssProvider()
        css.load_from_data(b"window, window * { background: rgb(\(window.red), \(window.green), \(window.blue)); background-image: none; }")
        Gtk.StyleContext.add_provider_for_screen(Gdk.Screen.get_default(), css, Gtk.STYLE_PROVIDER_PRIORITY_USER)
        w = Gtk.Window(title="placement-test-window")
        w.set_decorated(False)
        def draw(widget, cr):
            cr.set_source_rgb(\(window.red) / 255, \(window.green) / 255, \(window.blue) / 255)
            cr.paint()
            return True
        w.connect("draw", draw)
        w.connect("destroy", Gtk.main_quit)
        if \(fullscreen ? "True" : "False"):
            w.fullscreen()
        if \(maximized ? "True" : "False"):
            w.maximize()
        w.show_all()
        Gtk.main()
        """
    }

    /// A GTK window (python3-gi) that paints itself `window`'s colour, fullscreen if asked.
    static func startWindow(_ nook: SwayNook, fullscreen: Bool) throws -> PackageProcess {
        let script = windowScript(fullscreen: fullscreen)
        let home = nook.scratch.appendingPathComponent("window-home")
        try nook.sway.user.makePrivateDirectory(home)
        let (executable, arguments) = try nook.sway.user.command("/usr/bin/python3", ["-c", script], environment: nook.sway.clientEnvironment.merging([
            "GDK_BACKEND": "wayland", "HOME": home.path, "NO_AT_BRIDGE": "1",
        ]) { $1 })
        let process = try PackageProcess(executable, arguments, logDirectory: nook.scratch.appendingPathComponent("window-home"))
        nook.stack.onStop { await process.stop() }
        return process
    }

    /// waybar, as the sway user, with `waybarConfig` and `waybarStyle`.
    static func startWaybar(_ nook: SwayNook) throws -> PackageProcess {
        let directory = nook.scratch.appendingPathComponent("waybar")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
        try waybarConfig.write(to: directory.appendingPathComponent("config"), atomically: true, encoding: .utf8)
        try waybarStyle.write(to: directory.appendingPathComponent("style.css"), atomically: true, encoding: .utf8)
        let home = nook.scratch.appendingPathComponent("waybar-home")
        try nook.sway.user.makePrivateDirectory(home)
        let (executable, arguments) = try nook.sway.user.command(
            try Tools.path(of: "waybar"), ["-c", directory.appendingPathComponent("config").path, "-s", directory.appendingPathComponent("style.css").path],
            environment: nook.sway.clientEnvironment.merging(["HOME": home.path, "NO_AT_BRIDGE": "1", "XDG_CONFIG_HOME": home.path]) { $1 })
        let process = try PackageProcess(executable, arguments, logDirectory: directory)
        nook.stack.onStop { await process.stop() }
        return process
    }

    static func isWindow(_ shot: RGBImage, _ x: Int, _ y: Int) -> Bool {
        let index = (y * shot.width + x) * 3
        return abs(Int(shot.bytes[index]) - window.red) <= 2 && abs(Int(shot.bytes[index + 1]) - window.green) <= 2
            && abs(Int(shot.bytes[index + 2]) - window.blue) <= 2
    }

    /// The first row of the window at the left edge of `shot`, nil without the window.
    static func windowTop(_ shot: RGBImage) -> Int? { (0..<shot.height).first { isWindow(shot, 5, $0) } }

    /// Pixels in `rows` of `shot` that are not the window's colour.
    static func notWindow(_ shot: RGBImage, rows: Range<Int>) -> Int {
        rows.reduce(0) { count, y in count + (0..<shot.width).filter { !isWindow(shot, $0, y) }.count }
    }

    /// The nook idle beside `bar` (a bar already up, whose top-left pixel is `barColour`):
    /// the bar's row is the same pixel for pixel with the nook hidden and with the pill shown,
    /// the pill is drawn, and every pixel of the window's top 80 rows is the window's.
    static func checkIdleNookBeside(_ nook: SwayNook, barColour: [UInt8], name: String) async throws {
        let width = SwayServer.screen.width
        let barUp = await eventually(timeout: .seconds(60), poll: .milliseconds(200)) {
            (try? await nook.sway.screenshot(x: 0, y: 0, width: 4, height: 4).bytes.prefix(3).elementsEqual(barColour)) == true
        }
        #expect(barUp, "the bar never drew itself:\n\(nook.logs)")
        _ = try startWindow(nook, fullscreen: false)
        let windowUp = await eventually(timeout: .seconds(60), poll: .milliseconds(200)) {
            guard let shot = try? await nook.sway.screenshot(x: 0, y: SwayServer.screen.height - 10, width: 10, height: 10) else { return false }
            return isWindow(shot, 5, 5)
        }
        #expect(windowUp, "the test window never showed:\n\(nook.logs)")

        // Without the nook.
        _ = try await nook.control("Hide")
        let hidden = await eventually(timeout: .seconds(60), poll: .milliseconds(100)) { (try? await nook.state().presentation) == "hidden" }
        #expect(hidden, "the nook never hid:\n\(nook.logs)")
        try await nook.waitUntilSettled(serial: try await nook.state().serial)
        // The band goes with the pill: the window comes up to the bar.
        let windowUnderBar = await eventually(timeout: .seconds(60), poll: .milliseconds(200)) {
            guard let shot = try? await nook.sway.screenshot(height: 120) else { return false }
            return windowTop(shot) == barHeight
        }
        #expect(windowUnderBar, "with nothing shown the window does not start right below the bar:\n\(nook.logs)")
        // The bar alone: nothing of the pill left in its rows (its music note's pink plate; the
        // bars here have no pink, and black is their text's colour too).
        let barClear = await eventually(timeout: .seconds(60), poll: .milliseconds(200)) {
            guard let shot = try? await nook.sway.screenshot(height: barHeight) else { return false }
            return !stride(from: 0, to: shot.bytes.count - 2, by: 3).contains { shot.bytes[$0] > 180 && shot.bytes[$0 + 1] < 100 && shot.bytes[$0 + 2] > 80 }
        }
        if !barClear, let shot = try? await nook.sway.screenshot(height: 200) {
            var data = Data("P6\n\(shot.width) \(shot.height)\n255\n".utf8)
            data.append(contentsOf: shot.bytes)
            try? data.write(to: FileManager.default.temporaryDirectory.appendingPathComponent("nook-placement-\(name)-hidden.ppm"))
        }
        #expect(barClear, "the hidden nook still draws over the bar (screenshot: nook-placement-\(name)-hidden.ppm in the temporary directory):\n\(nook.logs)")
        let barAlone = try await nook.sway.screenshot(height: barHeight)

        // With the idle pill: waited for as a whole (the bar's rows as they were alone, the
        // pill drawn between the bar and the window, the window's top rows its own), since the
        // band and the pill are two surfaces the compositor places one after the other.
        try await nook.showPill()
        let barBytes = barAlone.width * barHeight * 3
        let differingFromBar: @Sendable (RGBImage) -> Int = { shot in
            var differing = 0
            for index in stride(from: 0, to: min(barBytes, shot.bytes.count, barAlone.bytes.count) - 2, by: 3)
            where barAlone.bytes[index..<(index + 3)] != shot.bytes[index..<(index + 3)] {
                differing += 1
            }
            return differing
        }
        let clear = await eventually(timeout: .seconds(60), poll: .milliseconds(200)) {
            guard let shot = try? await nook.sway.screenshot(height: 200) else { return false }
            guard let top = windowTop(shot), top > barHeight else { return false }
            // The pill (black chrome) is drawn between the bar and the window.
            let pill = (barHeight..<top).reduce(0) { count, y in
                count + (0..<shot.width).filter { x in shot.bytes[(y * shot.width + x) * 3..<(y * shot.width + x) * 3 + 3].allSatisfy { $0 < 8 } }.count
            }
            return pill > 500 && notWindow(shot, rows: top..<(top + 80)) == 0 && differingFromBar(shot) == 0
        }
        let shot = try await nook.sway.screenshot(height: 200)
        ReachOnScreenTests.saveScreenshot(shot, "placement-\(name)")
        let top = windowTop(shot)
        var kept = ""
        if !clear {
            // Both pictures kept, to look at what differs.
            let stem = FileManager.default.temporaryDirectory.appendingPathComponent("nook-placement-\(name)-\(UUID().uuidString)").path
            for (image, suffix) in [(barAlone, "bar-alone"), (shot, "with-nook")] {
                var data = Data("P6\n\(image.width) \(image.height)\n255\n".utf8)
                data.append(contentsOf: image.bytes)
                try? data.write(to: URL(fileURLWithPath: "\(stem)-\(suffix).ppm"))
            }
            kept = " (screenshots: \(stem)-*.ppm)"
        }
        #expect(clear, "the idle pill is not drawn between the bar and the window, covers the window (its top at \(String(describing: top))), or changes \(differingFromBar(shot)) pixels of the bar's rows (\(width)x\(barHeight))\(kept):\n\(nook.logs)")
        #expect(nook.reservationSurfaces.count >= 1, "no reservation band was asked for: \(LayerSurfaceTrace(nook.rendererLog).requests)")
    }

    /// waybar as Debian ships it, with three modules: the idle nook covers none of them and no
    /// window content; it sits in a band it reserves right below the bar.
    @Test func idleNookBesideWaybarCoversNoModuleAndNoWindow() async throws {
        try await SwayNook.with(slowMotion: 1) { nook in
            let waybar = try Self.startWaybar(nook)
            // The centre module is there to be covered (its gold).
            let centreUp = await eventually(timeout: .seconds(60), poll: .milliseconds(200)) {
                guard let shot = try? await nook.sway.screenshot(height: Self.barHeight) else { return false }
                return stride(from: 0, to: shot.bytes.count, by: 3).filter { shot.bytes[$0] == 0xff && shot.bytes[$0 + 1] == 0xd7 && shot.bytes[$0 + 2] == 0 }.count > 200
            }
            #expect(centreUp, "waybar never drew its centre module:\n\(waybar.log)\n\(nook.logs)")
            // waybar's top-left pixel is its left module's.
            try await Self.checkIdleNookBeside(nook, barColour: [0x2e, 0x8b, 0x57], name: "waybar")
        }
    }

    /// swaybar, docked at the top: the same.
    @Test func idleNookBesideSwaybarCoversNoBarAndNoWindow() async throws {
        let swayConfig = """
            bar {
                position top
                height \(Self.barHeight)
                workspace_buttons no
                status_command while :; do echo "status text"; sleep 3600; done
                colors {
                    background #1e90ff
                }
            }
            """
        try await SwayNook.with(slowMotion: 1, swayConfig: swayConfig) { nook in
            try await Self.checkIdleNookBeside(nook, barColour: [0x1e, 0x90, 0xff], name: "swaybar")
        }
    }

    /// A fullscreen window covers the idle nook and a normal notification's peek; a critical
    /// notification (`notify-send -u critical`, through the real bridge) peeks over it, on the
    /// overlay layer, and only while that peek shows.
    @Test func onlyACriticalNotificationPeeksOverAFullscreenWindow() async throws {
        try await SwayNook.with(slowMotion: 1) { nook in
            let bridge = try nook.stack.process("nook-notifications", ["--address", nook.bus.address, "--state-dir", nook.scratch.path + "/bridge-state"],
                                                environment: ["XDG_RUNTIME_DIR": nook.scratch.path])
            try await nook.stack.waitUntil("nook-notifications", logs: bridge.log) {
                bridge.log.contains("serving org.freedesktop.Notifications")
            }
            var environment = ProcessInfo.processInfo.environment
            environment["DBUS_SESSION_BUS_ADDRESS"] = nook.bus.address
            let band = 0..<160
            let coveredByTheWindow: @Sendable () async -> Bool = {
                guard let shot = try? await nook.sway.screenshot(height: band.upperBound) else { return false }
                return Self.notWindow(shot, rows: band) == 0
            }
            _ = try Self.startWindow(nook, fullscreen: true)
            #expect(await eventually(timeout: .seconds(60), poll: .milliseconds(200), coveredByTheWindow),
                    "the fullscreen window does not cover the top band with the idle nook:\n\(nook.logs)")

            // A normal notification peeks; once the renderer has asked the broker how relevant
            // it is, and found it not critical, the nook stays under the window. (Its animation
            // does not run to the end there: sway sends no frame callbacks to a covered surface.)
            let normal = try await Tools.run("notify-send", ["Normal", "stays under the window"], environment: environment)
            #expect(normal.status == 0, "\(normal.stderr)")
            let peeked = await eventually(timeout: .seconds(60), poll: .milliseconds(50)) { (try? await nook.state().presentation) == "peek" }
            #expect(peeked, "the normal notification never peeked:\n\(nook.logs)")
            let judged = await eventually(timeout: .seconds(60), poll: .milliseconds(50)) {
                nook.rendererLog.contains("not critical: under fullscreen windows")
            }
            #expect(judged, "the renderer never judged the normal peek:\n\(nook.logs)")
            let under = try await nook.sway.screenshot(height: band.upperBound)
            #expect(Self.notWindow(under, rows: band) == 0, "a normal peek shows over the fullscreen window:\n\(nook.logs)")
            #expect(!nook.rendererLog.contains(".set_layer(3)"), "a normal peek asked for the overlay layer")

            // A critical one peeks over it.
            let critical = try await Tools.run("notify-send", ["-u", "critical", "Critical", "over the fullscreen window"], environment: environment)
            #expect(critical.status == 0, "\(critical.stderr)")
            let over = await eventually(timeout: .seconds(60), poll: .milliseconds(100)) {
                guard let shot = try? await nook.sway.screenshot(height: band.upperBound) else { return false }
                return Self.notWindow(shot, rows: band) > 500
            }
            #expect(over, "the critical notification's peek is not drawn over the fullscreen window:\n\(nook.logs)")
            if let shot = try? await nook.sway.screenshot(height: band.upperBound) {
                ReachOnScreenTests.saveScreenshot(shot, "placement-critical-over-fullscreen")
            }
            // The surface was moved to the overlay layer (3) for it.
            #expect(nook.rendererLog.contains(".set_layer(3)"), "the renderer never asked for the overlay layer: \(nook.layerSurfaces)")

            // Once its peek is over, the nook is under the window again.
            let back = await eventually(timeout: .seconds(120), poll: .milliseconds(200)) {
                guard (try? await nook.state().presentation) != "peek" else { return false }
                return await coveredByTheWindow()
            }
            #expect(back, "after the critical peek the nook stays over the fullscreen window:\n\(nook.logs)")
        }
    }
}
