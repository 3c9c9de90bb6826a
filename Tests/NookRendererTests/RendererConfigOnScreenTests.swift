import Foundation
import NookBus
import NookTestSupport
import Testing

/// `renderer.json` on a real Xvfb display with the real nookd: the notch, the chrome's
/// colour, a rewrite while running, a refused file, and Reduce Motion reaching the broker.
/// Every wait is on the renderer's log or the screen, with generous deadlines.
@Suite
struct RendererConfigOnScreenTests {
    static let slate = (red: 0x20, green: 0x30, blue: 0x40)
    static let umber = (red: 0x60, green: 0x40, blue: 0x20)

    /// `notch: auto` (no notch) draws the pill around its two slots only; `--notch 200x32`
    /// adds a 200-point empty slab between them. Both black chromes measured on screen.
    @Test func autoNotchLeavesNoEmptySlabInThePill() async throws {
        let withoutNotch = try await RendererNook.with(slowMotion: 1, rendererConfig: #"{"notch": "auto"}"#) { nook in
            try await nook.showPillAtRest()
            #expect(nook.rendererLog.contains("renderer config \(nook.rendererConfigFile.path) applied"), "\(nook.rendererLog)")
            return try #require(try await nook.xvfb.screenshot().chromeBox(), "no chrome on screen:\n\(nook.logs)")
        }
        let withNotch = try await RendererNook.with(slowMotion: 1, rendererArguments: ["--notch", "200x32"]) { nook in
            try await nook.showPillAtRest()
            return try #require(try await nook.xvfb.screenshot().chromeBox(), "no chrome on screen:\n\(nook.logs)")
        }
        // The pill is its slots either side of the notch: exactly the notch's width narrower.
        #expect(abs((withNotch.width - withoutNotch.width) - 200) <= 2, "pill without notch \(withoutNotch), with a 200x32 notch \(withNotch)")
        #expect(withoutNotch.minY == 0 && withNotch.minY == 0)
    }

    static let yellow = (red: 0xF0, green: 0xE0, blue: 0x00)

    /// `colors.text` draws text that has no colour of its own: a module's plain title comes
    /// out in the config's colour.
    @Test func textColourComesFromTheConfig() async throws {
        try await RendererNook.with(slowMotion: 1, rendererConfig: ##"{"colors": {"text": "#F0E000"}}"##, withMusic: false) { nook in
            let module = try await LooksOnScreenTests.startModule(nook, expanded: LooksOnScreenTests.text("MMMMMM", size: 40))
            defer { Task { await module.close() } }
            try await LooksOnScreenTests.openCard(nook)
            let shot = try await nook.xvfb.screenshot()
            #expect(shot.pixels(near: Self.yellow) > 200, "no #F0E000 text on screen (\(shot.pixels(near: Self.yellow)) px):\n\(nook.logs)")
        }
    }

    /// `font` is retired (text is drawn in the theme's `font.family`, which the broker measures
    /// it in): a file with it still applies, and the log says the key does nothing and where
    /// the font is set.
    @Test func theRetiredFontKeyIsLoggedAsDoingNothing() async throws {
        try await RendererNook.with(slowMotion: 1, rendererConfig: ##"{"font": "DejaVu Serif", "colors": {"chrome": "#203040"}}"##) { nook in
            try await nook.showPillAtRest()
            #expect(nook.rendererLog.contains("renderer config \(nook.rendererConfigFile.path) applied"), "\(nook.rendererLog)")
            #expect(nook.rendererLog.contains("key 'font' has no effect and is ignored"), "\(nook.rendererLog)")
            #expect(nook.rendererLog.contains("nookctl theme set font.family"), "\(nook.rendererLog)")
            // The rest of the file applies.
            #expect(try await nook.xvfb.screenshot().pixels(near: Self.slate) > 1500, "\(nook.logs)")
        }
    }

    /// `colors.chrome` fills the chrome on screen; no black chrome is left. With `reduce_motion`
    /// absent (`auto`) and animations on (GTK's default under Xvfb), the broker's
    /// ReduceMotion stays false.
    @Test func chromeColourComesFromTheConfig() async throws {
        try await RendererNook.with(slowMotion: 1, rendererConfig: ##"{"colors": {"chrome": "#203040"}}"##) { nook in
            try await nook.showPillAtRest()
            let shot = try await nook.xvfb.screenshot()
            #expect(shot.pixels(near: Self.slate) > 1500, "no #203040 chrome on screen (\(shot.pixels(near: Self.slate)) px):\n\(nook.logs)")
            #expect(shot.chromeBox() == nil, "a black chrome is still drawn: \(String(describing: shot.chromeBox()))")
            #expect(try await nook.reduceMotion() == false)
        }
    }

    /// Rewriting the file while the renderer runs: the new chrome colour (and Reduce Motion)
    /// apply without a restart; a bad rewrite is refused naming its key and the colour stays.
    @Test func rewritingTheFileAppliesItWithoutRestart() async throws {
        try await RendererNook.with(slowMotion: 1, rendererConfig: ##"{"colors": {"chrome": "#203040"}}"##) { nook in
            try await nook.showPillAtRest()
            #expect(try await nook.xvfb.screenshot().pixels(near: Self.slate) > 1500, "\(nook.logs)")

            try ##"{"colors": {"chrome": "#604020"}, "reduce_motion": true}"##
                .write(to: nook.rendererConfigFile, atomically: true, encoding: .utf8)
            let recoloured = await eventually(timeout: .seconds(60), poll: .milliseconds(200)) {
                guard let shot = try? await nook.xvfb.screenshot() else { return false }
                return shot.pixels(near: Self.umber) > 1500 && shot.pixels(near: Self.slate) == 0
            }
            #expect(recoloured, "the rewritten chrome colour never reached the screen:\n\(nook.logs)")
            let reduced = await eventually(timeout: .seconds(60), poll: .milliseconds(100)) {
                (try? await nook.reduceMotion()) == true
            }
            #expect(reduced, "the rewritten reduce_motion never reached nookd:\n\(nook.logs)")

            try ##"{"colors": {"chrome": "#604020", "rim": "#FFFFFF"}}"##
                .write(to: nook.rendererConfigFile, atomically: true, encoding: .utf8)
            let refused = await eventually(timeout: .seconds(60), poll: .milliseconds(100)) {
                nook.rendererLog.contains("refused: renderer.json: unknown key 'colors.rim'")
                    && nook.rendererLog.contains("keeping the renderer config in force")
            }
            #expect(refused, "the bad rewrite was not reported by its key:\n\(nook.logs)")
            // A redraw after the refusal still paints the config in force.
            _ = try await nook.control("Show")
            #expect(try await nook.xvfb.screenshot().pixels(near: Self.umber) > 1500, "\(nook.logs)")
        }
    }

    /// A config directory that does not exist at start (the system one, `XDG_CONFIG_DIRS`'s
    /// `nook`, as `/etc/xdg/nook` on most machines) costs no wakeups while it is missing (GLib
    /// would look for a missing path every four seconds; its nearest existing ancestor is
    /// watched instead), and a file made there later, directory and all, is applied.
    @Test func aMissingConfigDirectoryCostsNoWakeupsAndIsWatchedWhenMade() async throws {
        try await RendererNook.with(slowMotion: 1) { nook in
            try await nook.showPillAtRest()
            // GLib's own thread, where file monitors run: asleep while nothing changes.
            let before = Self.wakeups(of: nook.renderer.pid, thread: "gmain")
            try await Task.sleep(for: .seconds(12))
            let after = Self.wakeups(of: nook.renderer.pid, thread: "gmain")
            #expect(after - before <= 1, "GLib's thread woke \(after - before) times in 12 s (a missing path polled every 4 s wakes it 3)")

            let system = nook.scratch.appendingPathComponent("system-config/nook")
            try FileManager.default.createDirectory(at: system, withIntermediateDirectories: true)
            let file = system.appendingPathComponent("renderer.json")
            try #"{"notch": "200x32"}"#.write(to: file, atomically: true, encoding: .utf8)
            let applied = await eventually(timeout: .seconds(60), poll: .milliseconds(100)) {
                nook.rendererLog.contains("renderer config \(file.path) applied")
            }
            #expect(applied, "the file in the new directory was not applied:\n\(nook.rendererLog)")
        }
    }

    /// The voluntary context switches of `pid`'s threads named `thread`, summed.
    static func wakeups(of pid: Int32, thread: String) -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.reduce(0) { total, task in
            let directory = "/proc/\(pid)/task/\(task)"
            guard (try? String(contentsOfFile: directory + "/comm", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) == thread,
                  let status = try? String(contentsOfFile: directory + "/status", encoding: .utf8),
                  let line = status.split(separator: "\n").first(where: { $0.hasPrefix("voluntary_ctxt_switches:") }),
                  let count = Int(line.split(separator: "\t").last?.trimmingCharacters(in: .whitespaces) ?? "")
            else { return total }
            return total + count
        }
    }

    /// A new `notch` in the file is declared to the broker (`DisplayChanged`), whose fresh
    /// plan widens the pill by the notch.
    @Test func aNotchWrittenWhileRunningIsDeclaredToTheBroker() async throws {
        try await RendererNook.with(slowMotion: 1) { nook in
            try await nook.showPillAtRest()
            let before = try #require(try await nook.xvfb.screenshot().chromeBox(), "no chrome:\n\(nook.logs)")
            try #"{"notch": "200x32"}"#.write(to: nook.rendererConfigFile, atomically: true, encoding: .utf8)
            let planned = await eventually(timeout: .seconds(60), poll: .milliseconds(50)) {
                nook.logLines("plan").contains { $0["cause"] == "display_changed" }
            }
            #expect(planned, "no display_changed plan after the notch changed:\n\(nook.logs)")
            let widened = await eventually(timeout: .seconds(60), poll: .milliseconds(200)) {
                guard let box = try? await nook.xvfb.screenshot().chromeBox() else { return false }
                return abs(box.width - before.width - 200) <= 2
            }
            #expect(widened, "the pill did not widen by the notch (was \(before)):\n\(nook.logs)")
        }
    }

    /// A bad file at start is logged naming the key, and the renderer draws with the
    /// defaults (the black chrome, no notch).
    @Test func aBadFileAtStartIsNamedAndTheDefaultsDraw() async throws {
        try await RendererNook.with(slowMotion: 1, rendererConfig: #"{"layer": "bottom"}"#) { nook in
            #expect(nook.rendererLog.contains(#"refused: renderer.json: key 'layer' must be "auto", "overlay" or "top", got "bottom""#),
                    "\(nook.rendererLog)")
            try await nook.showPillAtRest()
            let chrome = try #require(try await nook.xvfb.screenshot().chromeBox(), "no black chrome:\n\(nook.logs)")
            #expect(chrome.minY == 0 && chrome.width > 40, "\(chrome)")
        }
    }

    /// `reduce_motion: true` sets the broker's ReduceMotion (read back with Properties.Get).
    @Test func explicitReduceMotionReachesTheBroker() async throws {
        try await RendererNook.with(slowMotion: 1, rendererConfig: #"{"reduce_motion": true}"#) { nook in
            let on = try await nook.reduceMotion()
            #expect(on == true, "\(nook.logs)")
            #expect(nook.rendererLog.contains("reduce motion set to true"))
        }
    }

    /// `reduce_motion: auto` follows GTK's `gtk-enable-animations`: a desktop with animations
    /// off (here through GTK's settings.ini, the only source Xvfb has) turns Reduce Motion on.
    @Test func autoReduceMotionFollowsTheDesktopAnimationSetting() async throws {
        try await RendererNook.with(slowMotion: 1, rendererConfig: #"{"reduce_motion": "auto"}"#,
                                    gtkSettings: "[Settings]\ngtk-enable-animations=false\n") { nook in
            let on = try await nook.reduceMotion()
            #expect(on == true, "\(nook.logs)")
        }
    }
}

extension RendererNook {
    /// Shows the nook and waits until the renderer has drawn the pill at rest with the cover.
    func showPillAtRest() async throws { try await showPillAtRest(on: "screen") { try await self.xvfb.screenshot() } }

    /// The broker's `Control.ReduceMotion`, through `org.freedesktop.DBus.Properties.Get`.
    func reduceMotion() async throws -> Bool {
        let connection = try await BusConnection.connect(to: .address(bus.address), description: "renderer-test")
        defer { Task { await connection.close() } }
        let reply = try await connection.call(destination: "org.nook.Nook1", path: "/org/nook/Nook1",
                                              interface: "org.freedesktop.DBus.Properties", member: "Get",
                                              arguments: [.string("org.nook.Nook1.Control"), .string("ReduceMotion")])
        guard case .bool(let on)? = reply.first?.unwrappingVariants else {
            throw TestSupportError("ReduceMotion is not a boolean: \(reply)")
        }
        return on
    }
}

extension RGBImage {
    /// Pixels within 3 of `colour` on every channel.
    func pixels(near colour: (red: Int, green: Int, blue: Int)) -> Int {
        var count = 0
        for index in 0..<(width * height) {
            let r = Int(bytes[index * 3]), g = Int(bytes[index * 3 + 1]), b = Int(bytes[index * 3 + 2])
            if abs(r - colour.red) <= 3 && abs(g - colour.green) <= 3 && abs(b - colour.blue) <= 3 { count += 1 }
        }
        return count
    }
}
