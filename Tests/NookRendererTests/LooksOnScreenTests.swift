import Foundation
import NookBus
import NookTestSupport
import Synchronization
import Testing

/// Issue 39, parts 6 and 7, on a real screen (Xvfb, a private bus, nookd, nook-renderer):
/// a theme change restyles what is on screen at once, as a plan of its own; buttons look like
/// buttons (a plate, lighter under the pointer and pressed); a missing icon is drawn as the
/// generic one. Every wait is on the renderer's log or the screen.
@Suite(.serialized)
struct LooksOnScreenTests {
    static func text(_ text: String, size: Double) -> DBusValue {
        .structure([.string("text"), .vardict(["text": .string(text), "font_size": .double(size)]), .array(element: "v", [])])
    }

    static func image(uri: String, size: Double) -> DBusValue {
        .structure([.string("image"), .vardict(["uri": .string(uri), "width": .double(size), "height": .double(size)]),
                    .array(element: "v", [])])
    }

    /// A module `looks` (its own connection, the caller closes it) with one activity `card`
    /// whose expanded view is `expanded`; nothing in it moves by itself.
    static func startModule(_ nook: RendererNook, expanded: DBusValue) async throws -> BusConnection {
        let module = try await BusConnection.connect(to: .address(nook.bus.address), description: "looks-module")
        func call(_ member: String, _ arguments: [DBusValue]) async throws {
            _ = try await module.call(destination: "org.nook.Nook1", path: "/org/nook/Nook1", interface: "org.nook.Nook1.Modules",
                                      member: member, arguments: arguments, timeout: .seconds(20))
        }
        try await call("Register", [.string("looks"), .vardict([:])])
        try await call("StartActivity", [.string("card"), .vardict([
            "accessibility_label": .string("Card"), "relevance": .double(100),
            "compact_leading": Self.text("L", size: 13), "compact_trailing": Self.text("1", size: 13),
            "minimal": Self.text("L", size: 13), "expanded": expanded,
        ])])
        return module
    }

    /// Opens the nook onto the module's card and waits until that is drawn at rest.
    static func openCard(_ nook: RendererNook) async throws {
        let serial = try await nook.open(["onto": .string("activity"), "module": .string("looks"), "activity": .string("card")])
        _ = try await nook.waitForPlan(serial: serial)
        try await nook.waitUntilSettled(serial: serial)
    }

    /// Waits for the renderer to log a `theme_changed` plan newer than `after`, then for it to
    /// settle: its serial.
    static func themePlan(_ nook: RendererNook, after: UInt64) async throws -> (serial: UInt64, line: LogLine) {
        let find: @Sendable () -> LogLine? = {
            nook.logLines("plan").last { $0["cause"] == "theme_changed" && UInt64($0["serial"] ?? "") ?? 0 > after }
        }
        _ = await eventually(timeout: .seconds(60), poll: .milliseconds(50)) { find() != nil }
        let line = try #require(find(), "no theme_changed plan reached the renderer:\n\(nook.logs)")
        let serial = try #require(UInt64(line["serial"] ?? ""))
        try await nook.waitUntilSettled(serial: serial)
        return (serial, line)
    }

    /// Pixels whose colour differs by more than 40 in some channel, inside `box`.
    static func changedPixels(_ a: RGBImage, _ b: RGBImage, in box: RGBImage.Blob) -> Int {
        var count = 0
        for y in box.minY...box.maxY {
            for x in box.minX...box.maxX {
                let index = (y * a.width + x) * 3
                if (0..<3).contains(where: { abs(Int(a.bytes[index + $0]) - Int(b.bytes[index + $0])) > 40 }) { count += 1 }
            }
        }
        return count
    }

    /// `NOOK_SAVE_SCREENSHOTS=DIR` keeps a screenshot as `DIR/name.ppm`, to look at.
    static func keep(_ image: RGBImage, _ name: String) {
        guard let directory = ProcessInfo.processInfo.environment["NOOK_SAVE_SCREENSHOTS"] else { return }
        var data = Data("P6\n\(image.width) \(image.height)\n255\n".utf8)
        data.append(contentsOf: image.bytes)
        try? data.write(to: URL(fileURLWithPath: directory).appendingPathComponent(name + ".ppm"))
    }

    // MARK: Part 6: styling takes effect at once

    /// `SetTokens` of `font.family` redraws the text on screen in the new family with no
    /// transition asked for: a plan of its own (`theme_changed`), the presentation as it was.
    /// The same for `ReloadTheme` of a rewritten theme.json, and for the file being rewritten
    /// alone (nookd notices it).
    @Test func aSetTokensOfFontFamilyRestylesTheTextOnScreenWithoutATransition() async throws {
        try await RendererNook.with(slowMotion: 1, withMusic: false) { nook in
            let module = try await Self.startModule(nook, expanded: Self.text("Hamburgefonstiv 0123", size: 28))
            defer { Task { await module.close() } }
            try await Self.openCard(nook)
            let sans = try await nook.xvfb.screenshot()
            Self.keep(sans, "theme-before-sans")
            let box = try #require(sans.chromeBox(), "no chrome on screen:\n\(nook.logs)")
            let before = try await nook.state()
            #expect(before.presentation == "expanded")

            _ = try await nook.control("SetTokens", [.vardict(["font.family": .variant(.string("DejaVu Serif"))])])
            let serif = try await Self.themePlan(nook, after: before.serial)
            #expect(serif.line["from"] == "expanded" && serif.line["to"] == "expanded", "\(serif.line.text)")
            // Settled is logged at the last tick; the paint follows it.
            _ = await eventually(timeout: .seconds(60), poll: .milliseconds(100)) {
                guard let shot = try? await nook.xvfb.screenshot() else { return false }
                return Self.changedPixels(sans, shot, in: box) > 150
            }
            let serifShot = try await nook.xvfb.screenshot()
            Self.keep(serifShot, "theme-after-serif")
            let changed = Self.changedPixels(sans, serifShot, in: box)
            #expect(changed > 150, "the text looks the same after font.family became DejaVu Serif (\(changed) px changed):\n\(nook.logs)")
            let after = try await nook.state()
            #expect(after.presentation == "expanded", "the theme change moved the nook: \(after.presentation)")
            #expect(after.serial == serif.serial, "another plan came after the theme's: \(after.serial) vs \(serif.serial)")
        }
    }

    /// The theme file rewritten, with nothing called: nookd notices (inotify),
    /// reloads it, and the expanded chrome takes the new width at once. `ReloadTheme` then
    /// sends a plan of its own too.
    @Test func rewritingTheThemeFileRestylesTheScreenWithoutACall() async throws {
        try await RendererNook.with(slowMotion: 1, withMusic: false) { nook in
            let module = try await Self.startModule(nook, expanded: Self.text("Hamburgefonstiv", size: 28))
            defer { Task { await module.close() } }
            try await Self.openCard(nook)
            let wide = try #require(try await nook.xvfb.screenshot().chromeBox(), "no chrome on screen:\n\(nook.logs)")
            let before = try await nook.state()

            let themeFile = nook.nookd.configDirectory.appendingPathComponent("nook/theme.json")
            try FileManager.default.createDirectory(at: themeFile.deletingLastPathComponent(), withIntermediateDirectories: true)
            try #"{"geometry": {"expanded": {"width": {"$type": "dimension", "$value": "360px"}}}}"#
                .write(to: themeFile, atomically: true, encoding: .utf8)
            let watched = try await Self.themePlan(nook, after: before.serial)
            #expect(nook.logs.contains("the theme file \(themeFile.path) changed; reloading it"), "\(nook.logs)")
            _ = await eventually(timeout: .seconds(60), poll: .milliseconds(100)) {
                guard let box = try? await nook.xvfb.screenshot().chromeBox() else { return false }
                return abs((wide.width - box.width) - 120) <= 2
            }
            let narrowShot = try await nook.xvfb.screenshot()
            Self.keep(narrowShot, "theme-file-narrow")
            let narrow = try #require(narrowShot.chromeBox(), "no chrome on screen:\n\(nook.logs)")
            #expect(abs((wide.width - narrow.width) - 120) <= 2, "expanded chrome \(wide) before, \(narrow) after a 480 -> 360 px theme")
            #expect(try await nook.state().presentation == "expanded")

            _ = try await nook.control("ReloadTheme")
            _ = try await Self.themePlan(nook, after: watched.serial)
        }
    }

    // MARK: Part 7: what a person sees looks finished

    /// A python3-dbus module `py` whose activity `ask` shows a title and a row of buttons
    /// (`role: button`): "Yes" and "Later" with padding around their labels, and an icon
    /// button (close). Prints `ready`, then `invoked <activity> <action> <source>` per press.
    static func buttonsModule(busAddress: String, in directory: URL) throws -> OutputProcess {
        try OutputProcess(python: """
            import dbus
            from dbus.mainloop.glib import DBusGMainLoop
            from gi.repository import GLib
            DBusGMainLoop(set_as_default=True)
            bus = dbus.bus.BusConnection("\(busAddress)")
            modules = dbus.Interface(bus.get_object("org.nook.Nook1", "/org/nook/Nook1"), "org.nook.Nook1.Modules")

            def node(kind, props, children=()):
                return dbus.Struct((kind, dbus.Dictionary(props, signature="sv"), dbus.Array(list(children), signature="v")),
                                   signature="sa{sv}av")

            def text(value, size):
                return node("text", {"text": value, "font_size": dbus.Double(size)})

            def symbol(name, size):
                return node("image", {"symbol": name, "width": dbus.Double(size), "height": dbus.Double(size)})

            def button(action, label):
                return node("hstack", {"action": action, "role": "button",
                                       "padding": dbus.Struct((5.0, 12.0, 5.0, 12.0), signature="dddd")}, [text(label, 13)])

            def icon_button(action, label, name):
                return node("hstack", {"action": action, "action_label": label, "role": "button",
                                       "padding": dbus.Struct((2.0, 2.0, 2.0, 2.0), signature="dddd")}, [symbol(name, 20)])

            expanded = node("vstack", {"spacing": dbus.Double(10)}, [
                text("Update ready", 15),
                node("hstack", {"spacing": dbus.Double(12)}, [
                    button("yes", "Yes"), button("later", "Later"), icon_button("close", "Close", "xmark"),
                ]),
            ])

            def invoked(activity, action, info):
                print("invoked", activity, action, info.get("source", "?"), flush=True)

            bus.add_signal_receiver(invoked, signal_name="ActionInvoked", dbus_interface="org.nook.Nook1.Modules")
            modules.Register("py", dbus.Dictionary({"display_name": "Py"}, signature="sv"))
            modules.StartActivity("ask", dbus.Dictionary({
                "accessibility_label": "Ask",
                "compact_leading": symbol("bell.fill", 20), "compact_trailing": text("Py", 13),
                "minimal": symbol("bell.fill", 20), "expanded": expanded, "relevance": dbus.Double(100),
            }, signature="sv"))
            print("ready", flush=True)
            GLib.MainLoop().run()
            """, in: directory, name: "buttons-module")
    }

    /// The mean of a pixel's channels.
    static func brightness(_ image: RGBImage, _ x: Int, _ y: Int) -> Int {
        let index = (y * image.width + x) * 3
        return (Int(image.bytes[index]) + Int(image.bytes[index + 1]) + Int(image.bytes[index + 2])) / 3
    }

    /// On screen: a labelled button has a visible plate (lighter than the chrome beside it),
    /// lighter under the pointer (xdotool) and lighter still pressed; an icon button shows its
    /// plate only under the pointer; the press still reaches the module.
    @Test func buttonsHaveAPlateThatLightensUnderThePointerAndWhenPressed() async throws {
        try await ControlOnScreenTests.withOpenNook(control: "yes", start: { nook in
            let module = try Self.buttonsModule(busAddress: nook.bus.address, in: nook.scratch)
            let ready = await eventually(timeout: .seconds(60), poll: .milliseconds(50)) { module.lines.contains("ready") }
            guard ready else {
                module.stop()
                throw TestSupportError("the python module did not start:\n\(module.output)")
            }
            return [module]
        }) { nook, processes, watcher in
            let yes = try #require(watcher.rect(ofAction: "yes", presentation: "expanded"))
            let close = try #require(watcher.rect(ofAction: "close", presentation: "expanded"))
            // On the plate but off the label (inside the left padding), and just outside it.
            let plate = (x: Int(yes.x + 4), y: Int(yes.y + yes.height / 2))
            let beside = (x: Int(yes.x - 4), y: plate.y)
            // Around the icon: on its hover plate, outside the icon's own rect.
            let ring = (x: Int(close.x - 2), y: Int(close.y + close.height / 2))

            let rest = try await nook.xvfb.screenshot()
            Self.keep(rest, "buttons-rest")
            let restPlate = Self.brightness(rest, plate.x, plate.y)
            #expect(restPlate >= 25 && restPlate > Self.brightness(rest, beside.x, beside.y) + 20,
                    "no button plate at rest: \(restPlate) on the plate, \(Self.brightness(rest, beside.x, beside.y)) beside")
            #expect(Self.brightness(rest, ring.x, ring.y) < 15, "the icon button has a plate at rest")

            try await nook.xvfb.run("xdotool", ["mousemove", String(Int(yes.x + yes.width / 2)), String(plate.y)])
            let hoverSeen = Locked(0)
            let lit = await eventually(timeout: .seconds(60), poll: .milliseconds(100)) {
                guard let shot = try? await nook.xvfb.screenshot() else { return false }
                let value = Self.brightness(shot, plate.x, plate.y)
                hoverSeen.withLock { $0 = value }
                if value > restPlate + 15 { Self.keep(shot, "buttons-hover"); return true }
                return false
            }
            let hoverPlate = hoverSeen.withLock { $0 }
            #expect(lit, "the button did not lighten under the pointer (\(restPlate) at rest, \(hoverPlate) hovered):\n\(nook.logs)")

            try await nook.xvfb.run("xdotool", ["mousedown", "1"])
            let pressedSeen = Locked(0)
            let pressed = await eventually(timeout: .seconds(60), poll: .milliseconds(100)) {
                guard let shot = try? await nook.xvfb.screenshot() else { return false }
                let value = Self.brightness(shot, plate.x, plate.y)
                pressedSeen.withLock { $0 = value }
                if value > hoverPlate + 15 { Self.keep(shot, "buttons-pressed"); return true }
                return false
            }
            let pressedPlate = pressedSeen.withLock { $0 }
            #expect(pressed, "the button did not lighten while pressed (\(hoverPlate) hovered, \(pressedPlate) pressed)")
            try await nook.xvfb.run("xdotool", ["mouseup", "1"])
            #expect(await ControlOnScreenTests.invoked(processes[0], "invoked ask yes renderer"), "\(processes[0].output)\n\(nook.logs)")

            try await nook.xvfb.run("xdotool", ["mousemove", String(Int(close.x + close.width / 2)), String(ring.y)])
            let iconLit = await eventually(timeout: .seconds(60), poll: .milliseconds(100)) {
                guard let shot = try? await nook.xvfb.screenshot() else { return false }
                if Self.brightness(shot, ring.x, ring.y) > 25 { Self.keep(shot, "buttons-icon-hover"); return true }
                return false
            }
            #expect(iconLit, "the icon button showed no plate under the pointer:\n\(nook.logs)")
        }
    }

    /// An icon name the theme lacks (an app that is not installed) is drawn as the generic
    /// application icon at the size asked, not an empty outline; the log says so once.
    @Test func aMissingIconIsDrawnAsTheGenericIconOfTheSameSize() async throws {
        try await RendererNook.with(slowMotion: 1, withMusic: false) { nook in
            let module = try await Self.startModule(nook, expanded: Self.image(uri: "nook-test-uninstalled-app", size: 64))
            defer { Task { await module.close() } }
            try await Self.openCard(nook)
            let shot = try await nook.xvfb.screenshot()
            Self.keep(shot, "icon-fallback")
            let box = try #require(shot.chromeBox(), "no chrome on screen:\n\(nook.logs)")
            var lit = 0
            for y in box.minY...box.maxY {
                for x in box.minX...box.maxX where Self.brightness(shot, x, y) > 60 { lit += 1 }
            }
            // An outline of a 64 px square is about 250 px; the generic icon fills much of it.
            #expect(lit > 64 * 64 / 4, "only \(lit) px drawn where the 64 px icon should be:\n\(nook.logs)")
            #expect(nook.rendererLog.contains("icon 'nook-test-uninstalled-app' is not in the icon theme"), "\(nook.rendererLog)")
        }
    }
}
