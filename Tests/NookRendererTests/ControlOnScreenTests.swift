import Foundation
import NookBus
import NookTestSupport
import Synchronization
import Testing

/// Controls on screen (contract 1.1, "Touch"), all real processes: Xvfb, a private bus,
/// nookd, a python3-dbus module whose expanded view holds three controls, and nook-renderer.
/// xdotool opens the nook by hover and presses a control at the rect the plan's scene gives
/// it; the module must receive `ActionInvoked` for that control's action.
@Suite(.serialized)
struct ControlOnScreenTests {
    /// A second subscriber declaring the renderer's display (Xvfb's 1512x982 screen, scale 1,
    /// no notch), so the broker lays its scenes out exactly as it does the renderer's: where
    /// the test reads each control's rect from.
    final class SceneWatcher: Sendable {
        private let connection: BusConnection
        private let latest = Locked<DBusValue?>(nil)

        private init(connection: BusConnection) { self.connection = connection }

        static func subscribe(_ address: String) async throws -> SceneWatcher {
            let connection = try await BusConnection.connect(to: .address(address), description: "scene-watcher")
            let watcher = SceneWatcher(connection: connection)
            _ = try await connection.addMatch(MatchRule(path: "/org/nook/Nook1", interface: "org.nook.Nook1.Render", member: "Plan")) { signal in
                if let plan = signal.arguments.first { watcher.latest.withLock { $0 = plan } }
            }
            let display: [String: DBusValue] = [
                "width": .double(Double(XvfbServer.screen.width)), "height": .double(Double(XvfbServer.screen.height)),
                "notch_width": .double(0), "notch_height": .double(0), "scale": .double(1), "refresh_rate": .double(60),
                "name": .string("screen"), "capabilities": .array(element: "s", [.string("relayout"), .string("spring"), .string("crossfade")]),
            ]
            let reply = try await connection.call(destination: "org.nook.Nook1", path: "/org/nook/Nook1", interface: "org.nook.Nook1.Render",
                                                  member: "Subscribe", arguments: [.vardict(display)])
            if reply.count == 2 { watcher.latest.withLock { $0 = $0 ?? reply[1] } }
            return watcher
        }

        func close() async { await connection.close() }

        /// The node carrying `action` in the latest plan's scene whose presentation is
        /// `presentation`.
        func node(withAction action: String, presentation: String) -> Vardict? {
            guard let plan = latest.withLock({ $0 }), let record = try? Vardict(plan, at: "plan"),
                  case .string(presentation)? = record["to"]?.unwrappingVariants,
                  let scene = record["scene"].flatMap({ try? Vardict($0.unwrappingVariants, at: "scene") }),
                  case .array(_, let nodes)? = scene["nodes"]?.unwrappingVariants else { return nil }
            for entry in nodes {
                guard let node = try? Vardict(entry.unwrappingVariants, at: "node"), case .string(action)? = node["action"]?.unwrappingVariants else {
                    continue
                }
                return node
            }
            return nil
        }

        /// The nodes of the latest plan's scene whose presentation is `presentation`.
        func nodes(presentation: String) -> [Vardict] {
            guard let plan = latest.withLock({ $0 }), let record = try? Vardict(plan, at: "plan"),
                  case .string(presentation)? = record["to"]?.unwrappingVariants,
                  let scene = record["scene"].flatMap({ try? Vardict($0.unwrappingVariants, at: "scene") }),
                  case .array(_, let nodes)? = scene["nodes"]?.unwrappingVariants else { return [] }
            return nodes.compactMap { try? Vardict($0.unwrappingVariants, at: "node") }
        }

        /// That node's rect.
        func rect(ofAction action: String, presentation: String) -> (x: Double, y: Double, width: Double, height: Double)? {
            guard case .structure(let parts)? = node(withAction: action, presentation: presentation)?["rect"]?.unwrappingVariants else {
                return nil
            }
            let numbers = parts.compactMap { part -> Double? in
                if case .double(let value) = part.unwrappingVariants { return value }
                return nil
            }
            return numbers.count == 4 ? (numbers[0], numbers[1], numbers[2], numbers[3]) : nil
        }
    }

    /// Starts the nook without the music player, the python module, and a scene watcher,
    /// then opens the nook by hovering the pill and waits until it has settled expanded.
    static func withOpenNook(rendererEnvironment: [String: String?] = [:],
                             _ body: (RendererNook, OutputProcess, SceneWatcher) async throws -> Void) async throws {
        try await withOpenNook(rendererEnvironment: rendererEnvironment, control: "pause", start: { nook in
            let module = try OutputProcess.playerModule(busAddress: nook.bus.address, in: nook.scratch)
            let ready = await eventually(timeout: .seconds(60), poll: .milliseconds(50)) { module.lines.contains("ready") }
            guard ready else {
                module.stop()
                throw TestSupportError("the python module did not start:\n\(module.output)")
            }
            return [module]
        }) { nook, processes, watcher in try await body(nook, processes[0], watcher) }
    }

    /// Starts the nook without the music player, then `start`'s processes (ended by pid
    /// afterwards, newest first) and a scene watcher; opens the nook by hovering the pill and
    /// waits until it has settled expanded with a node carrying `control` in its scene.
    static func withOpenNook(rendererEnvironment: [String: String?] = [:], control: String,
                             start: (RendererNook) async throws -> [OutputProcess],
                             _ body: (RendererNook, [OutputProcess], SceneWatcher) async throws -> Void) async throws {
        try await RendererNook.with(slowMotion: 1, withMusic: false, rendererEnvironment: rendererEnvironment) { nook in
            let processes = try await start(nook)
            defer { for process in processes.reversed() { process.stop() } }
            let watcher = try await SceneWatcher.subscribe(nook.bus.address)
            do {
                // The pill, drawn: hover its middle to open the nook onto the primary activity's expanded view.
                _ = await eventually(timeout: .seconds(60), poll: .milliseconds(50)) {
                    (try? await nook.state().presentation) == "pill" && nook.logLines("frame").last.flatMap { LoggedRect($0["chrome"]) } != nil
                }
                let at = try #require(nook.logLines("frame").last.flatMap { LoggedRect($0["chrome"]) }, "no pill drawn:\n\(nook.logs)")
                try await nook.xvfb.run("xdotool", ["mousemove", String(Int(at.midX)), String(Int(at.midY))])
                let opened = await eventually(timeout: .seconds(60), poll: .milliseconds(50)) {
                    (try? await nook.state().presentation) == "expanded"
                }
                try #require(opened, "hovering the pill did not open the nook:\n\(nook.logs)")
                let serial = try await nook.state().serial
                try await nook.waitUntilSettled(serial: serial)
                let scene = await eventually(timeout: .seconds(30), poll: .milliseconds(50)) {
                    watcher.rect(ofAction: control, presentation: "expanded") != nil
                }
                try #require(scene, "no expanded scene with the \(control) control reached the watcher")
                try await body(nook, processes, watcher)
            } catch {
                await watcher.close()
                throw error
            }
            await watcher.close()
        }
    }

    static func invoked(_ module: OutputProcess, _ line: String) async -> Bool {
        await eventually(timeout: .seconds(30), poll: .milliseconds(50)) { module.lines.contains(line) }
    }

    @Test func aClickOnAControlWhereThePlanPutsItReachesTheModule() async throws {
        try await Self.withOpenNook { nook, module, watcher in
            let pause = try #require(watcher.rect(ofAction: "pause", presentation: "expanded"))
            let x = Int(pause.x + pause.width / 2), y = Int(pause.y + pause.height / 2)
            try await nook.xvfb.run("xdotool", ["mousemove", String(x), String(y)])
            let hand = await eventually(timeout: .seconds(30), poll: .milliseconds(50)) { nook.rendererLog.contains("cursor pointer") }
            #expect(hand, "no hand cursor over the control:\n\(nook.rendererLog)")
            try await nook.xvfb.run("xdotool", ["click", "1"])
            let reached = await Self.invoked(module, "invoked player pause renderer")
            #expect(reached, "the module never got ActionInvoked for pause:\n\(module.output)\n\(nook.logs)")
            #expect(nook.rendererLog.contains("activate action=pause"), "\(nook.rendererLog)")
            // Pressed on pause, released beside the nook: cancelled, nothing sent.
            try await nook.xvfb.run("xdotool", ["mousedown", "1"])
            try await nook.xvfb.run("xdotool", ["mousemove", String(x + 600), String(y + 300)])
            try await nook.xvfb.run("xdotool", ["mouseup", "1"])
            let cancelled = await eventually(timeout: .seconds(30), poll: .milliseconds(50)) {
                nook.rendererLog.contains("press cancelled action=pause")
            }
            #expect(cancelled, "\(nook.rendererLog)")
            #expect(module.lines.filter { $0.hasPrefix("invoked") } == ["invoked player pause renderer"], "\(module.output)")
        }
    }

    /// Pixels of the focus ring's blue (#3584E4) in the 4-point band just outside `rect`.
    static func ringPixels(in shot: RGBImage, around rect: (x: Double, y: Double, width: Double, height: Double)) -> Int {
        var count = 0
        let minX = Int(rect.x) - 4, maxX = Int(rect.x + rect.width) + 4, minY = Int(rect.y) - 4, maxY = Int(rect.y + rect.height) + 4
        for y in max(0, minY)..<min(shot.height, maxY) {
            for x in max(0, minX)..<min(shot.width, maxX) {
                let inside = x >= Int(rect.x) && x < Int(rect.x + rect.width) && y >= Int(rect.y) && y < Int(rect.y + rect.height)
                let pixel = shot.pixel(x: x, y: y)
                if !inside, abs(Int(pixel[0]) - 0x35) < 12, abs(Int(pixel[1]) - 0x84) < 12, abs(Int(pixel[2]) - 0xE4) < 12 { count += 1 }
            }
        }
        return count
    }

    @Test func tabAndEnterOnAControlDoWhatAClickDoes() async throws {
        try await Self.withOpenNook { nook, module, watcher in
            let pause = try #require(watcher.rect(ofAction: "pause", presentation: "expanded"))
            #expect(Self.ringPixels(in: try await nook.xvfb.screenshot(), around: pause) == 0, "a ring before any Tab")
            // Reading order: previous, pause, next. The pointer rests on the nook, which keeps it
            // open; with no window manager on Xvfb the keyboard goes to the window under it.
            try await nook.xvfb.run("xdotool", ["key", "Tab"])
            try await nook.xvfb.run("xdotool", ["key", "Tab"])
            let focused = await eventually(timeout: .seconds(30), poll: .milliseconds(50)) {
                nook.rendererLog.contains("focus action=pause")
            }
            try #require(focused, "Tab Tab did not focus pause:\n\(nook.rendererLog)")
            // The focus ring: the accent blue just outside pause's rect, where nothing was blue before.
            let ringDrawn = await eventually(timeout: .seconds(30), poll: .milliseconds(100)) {
                guard let shot = try? await nook.xvfb.screenshot() else { return false }
                return Self.ringPixels(in: shot, around: pause) > Int(pause.width)
            }
            #expect(ringDrawn, "no focus ring around pause at \(pause)")
            try await nook.xvfb.run("xdotool", ["key", "Return"])
            let reached = await Self.invoked(module, "invoked player pause renderer")
            #expect(reached, "Enter on pause never reached the module:\n\(module.output)\n\(nook.logs)")
            // Enter shows pause pressed for a moment, as a click does, then lets it go.
            let pressedThenReleased = await eventually(timeout: .seconds(30), poll: .milliseconds(50)) {
                let log = nook.rendererLog
                guard let shown = log.range(of: "key press shown path=") else { return false }
                return log[shown.upperBound...].contains("key press released")
            }
            #expect(pressedThenReleased, "Enter did not show pause pressed, then release it:\n\(nook.rendererLog)")
            // Escape asks the broker to close the nook.
            try await nook.xvfb.run("xdotool", ["key", "Escape"])
            let closed = await eventually(timeout: .seconds(30), poll: .milliseconds(50)) {
                (try? await nook.state().presentation) == "pill"
            }
            #expect(closed, "Escape did not close the nook:\n\(nook.logs)")
        }
    }
}

/// Controls for assistive technology: nook-renderer on a real AT-SPI bus, read by an AT-SPI
/// client the way Orca reads the desktop.
@Suite(.serialized)
struct ControlAccessibilityTests {
    @Test func controlsAreAnnouncedAsPushButtonsByTheirLabelsAndPressable() async throws {
        try #require(AccessibilityBus.isInstalled, "at-spi2-core's at-spi-bus-launcher is missing (make test installs at-spi2-core)")
        let a11y = try await AccessibilityBus.start()
        defer { a11y.stop() }
        try await ControlOnScreenTests.withOpenNook(rendererEnvironment: ["AT_SPI_BUS_ADDRESS": a11y.address, "NO_AT_BRIDGE": nil]) { nook, module, watcher in
            let lines = try await a11y.pushButtons(press: "Pause")
            print("AT-SPI client: \(lines)")
            let names = lines.filter { $0.hasPrefix("button ") }.map { String($0.dropFirst("button ".count).prefix { $0 != "|" }) }
            // The module's three controls in reading order, then the close control the renderer draws.
            #expect(names == ["Previous", "Pause", "Next", "Close"], "AT-SPI saw: \(lines)\n\(nook.rendererLog)")
            // Each button's extents are its control's rect in the plan's scene (window = display points here).
            let pause = try #require(watcher.rect(ofAction: "pause", presentation: "expanded"))
            let extents = lines.first { $0.hasPrefix("button Pause|") }.map { String($0.dropFirst("button Pause|".count)) }
            #expect(extents == "\(Int(pause.x.rounded())),\(Int(pause.y.rounded())),\(Int(pause.width.rounded())),\(Int(pause.height.rounded()))",
                    "Pause's extents \(extents ?? "-") against the scene's \(pause)")
            // The button's action presses the control.
            #expect(lines.contains("pressed"), "\(lines)")
            let reached = await ControlOnScreenTests.invoked(module, "invoked player pause renderer")
            #expect(reached, "the accessible click never reached the module:\n\(module.output)\n\(nook.rendererLog)")
        }
    }

    /// The close control is a push button for a screen reader too ("Close", described by the
    /// activity it ends), and its action ends the activity as a click on it does.
    @Test func theCloseControlIsAnnouncedAndEndsItsActivity() async throws {
        try #require(AccessibilityBus.isInstalled, "at-spi2-core's at-spi-bus-launcher is missing (make test installs at-spi2-core)")
        let a11y = try await AccessibilityBus.start()
        defer { a11y.stop() }
        try await ControlOnScreenTests.withOpenNook(rendererEnvironment: ["AT_SPI_BUS_ADDRESS": a11y.address, "NO_AT_BRIDGE": nil]) { nook, _, _ in
            let lines = try await a11y.pushButtons(press: "Close")
            print("AT-SPI client: \(lines)")
            #expect(lines.contains("description Close|Ends py/player"), "AT-SPI saw: \(lines)\n\(nook.rendererLog)")
            #expect(lines.contains("pressed"), "\(lines)")
            let ended = await eventually(timeout: .seconds(60), poll: .milliseconds(50)) {
                (try? await ReachOnScreenTests.showing(nook).activities.contains("py/player")) == false
            }
            #expect(ended, "the accessible Close did not end py/player:\n\(nook.rendererLog)")
            #expect(nook.rendererLog.contains("dismiss py/player by accessibility"), "\(nook.rendererLog)")
        }
    }
}
