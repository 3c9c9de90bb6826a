import Foundation
import NookBus
import NookTestSupport
import Testing

/// A notification's body markup drawn, its link opened and its default action fired by
/// clicks, all real processes: Xvfb, a private bus, nookd, nook-notifications, nook-renderer,
/// a notification sent by `gdbus call`, clicks by xdotool, and `dbus-monitor` watching the
/// spec's signals. `xdg-open` is a stub first on the bridge's `PATH` that records its arguments.
@Suite(.serialized)
struct NotificationMarkupOnScreenTests {
    /// Pixels brighter than mid grey (white text on the dark chrome) in `rect`.
    static func litPixels(_ shot: RGBImage, in rect: (x: Double, y: Double, width: Double, height: Double)) -> Int {
        var count = 0
        for y in max(0, Int(rect.y))..<min(shot.height, Int(rect.y + rect.height)) {
            for x in max(0, Int(rect.x))..<min(shot.width, Int(rect.x + rect.width)) {
                let pixel = shot.pixel(x: x, y: y)
                if Int(pixel[0]) + Int(pixel[1]) + Int(pixel[2]) > 3 * 128 { count += 1 }
            }
        }
        return count
    }

    static func rect(_ node: Vardict) -> (x: Double, y: Double, width: Double, height: Double)? {
        guard case .structure(let parts)? = node["rect"]?.unwrappingVariants else { return nil }
        let numbers = parts.compactMap { part -> Double? in if case .double(let value) = part.unwrappingVariants { value } else { nil } }
        return numbers.count == 4 ? (numbers[0], numbers[1], numbers[2], numbers[3]) : nil
    }

    /// The scene nodes of a plan (`a{sv}` with `scene`).
    static func sceneNodes(_ plan: DBusValue?) throws -> [Vardict] {
        guard let plan, let scene = try Vardict(plan, at: "plan")["scene"], case .array(_, let nodes)? = try Vardict(scene.unwrappingVariants, at: "scene")["nodes"]?.unwrappingVariants
        else { return [] }
        return nodes.compactMap { try? Vardict($0.unwrappingVariants, at: "node") }
    }

    static func text(_ node: Vardict) -> String? {
        if case .string(let text)? = node["text"]?.unwrappingVariants { text } else { nil }
    }

    /// `ActionInvoked` and `NotificationClosed` as dbus-monitor printed them: `(member, id, value)`.
    static func signals(_ output: String) -> [(member: String, id: String, value: String)] {
        let lines = output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        var out: [(String, String, String)] = []
        for (index, line) in lines.enumerated() where index + 2 < lines.count {
            guard line.hasPrefix("signal "), let member = ["ActionInvoked", "NotificationClosed"].first(where: { line.hasSuffix("member=\($0)") }) else {
                continue
            }
            let id = lines[index + 1].replacingOccurrences(of: "uint32 ", with: "")
            let value = lines[index + 2].replacingOccurrences(of: "uint32 ", with: "").replacingOccurrences(of: "string ", with: "")
                .replacingOccurrences(of: "\"", with: "")
            out.append((member, id, value))
        }
        return out
    }

    @Test func bodyMarkupIsDrawnALinkClickRunsXdgOpenAndAHeaderClickFiresDefault() async throws {
        try await RendererNook.with(slowMotion: 1, withMusic: false) { nook in
            let scratch = nook.scratch
            let stubs = scratch.appendingPathComponent("stubs")
            try FileManager.default.createDirectory(at: stubs, withIntermediateDirectories: true)
            let record = scratch.appendingPathComponent("xdg-open.record")
            let stub = stubs.appendingPathComponent("xdg-open")
            try ExecutableScript.write("#!/bin/sh\nprintf '%s\\n' \"$*\" >> '\(record.path)'\n", to: stub)

            let monitor = try OutputProcess("/usr/bin/dbus-monitor", ["--address", nook.bus.address, "interface='org.freedesktop.Notifications'"],
                                            in: scratch, name: "dbus-monitor")
            defer { monitor.stop() }
            let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
            let bridge = try nook.stack.process(
                "nook-notifications", ["--address", nook.bus.address, "--state-dir", scratch.appendingPathComponent("bridge-state").path],
                environment: ["PATH": stubs.path + ":" + path, "XDG_RUNTIME_DIR": scratch.path])
            let serving = await eventually { bridge.log.contains("serving org.freedesktop.Notifications") }
            try #require(serving, "the bridge did not start: \(bridge.log)")
            let watcher = try await ControlOnScreenTests.SceneWatcher.subscribe(nook.bus.address)
            defer { Task { await watcher.close() } }

            let body = "MMMM <b>MMMM</b> and <i>slanted</i>, see <a href=\"https://example.com/build?id=42&amp;log=1\">the log</a>"
            let sent = try await nook.xvfb.run("gdbus", [
                "call", "--address", nook.bus.address, "--dest", "org.freedesktop.Notifications", "--object-path", "/org/freedesktop/Notifications",
                "--method", "org.freedesktop.Notifications.Notify", "Builder", "0", "", "Build done", body, "['default', 'Open']", "{}", "0",
            ])
            #expect(sent.contains("uint32 1"), "\(sent)")
            let started = await eventually { (try? await nook.state().activityCount) == 1 }
            try #require(started, "the notification's activity did not start:\n\(bridge.log)")
            // The peek draws the markup too: the scene of a peek at it (the broker's dry run, so
            // no race with the peek's 5 s) has the bold run, bold.
            let preview = try await nook.control("PreviewPlan", [.string("peek"), .vardict(["module": .string("notifications"), "activity": .string("n1")])])
            let peekNodes = try Self.sceneNodes(preview.first)
            #expect(peekNodes.contains { Self.text($0) == " MMMM" && $0["font_weight"]?.unwrappingVariants == .string("bold") && $0["slot"]?.unwrappingVariants == .string("peek") },
                    "the peek's scene has no bold run: \(peekNodes.compactMap(Self.text))")
            // For the eyes (no pixel is asserted: a loaded machine may end the peek before drawing it).
            let peekState = try await nook.state()
            if peekState.presentation == "peek" {
                try await nook.waitUntilSettled(serial: peekState.serial)
                ReachOnScreenTests.saveScreenshot(try await nook.xvfb.screenshot(), "notification-markup-peek")
            }
            let serial = try await nook.open(["onto": .string("activity"), "module": .string("notifications"), "activity": .string("n1")])
            try await nook.waitUntilSettled(serial: serial)
            let drawn = await eventually(timeout: .seconds(60), poll: .milliseconds(50)) {
                watcher.rect(ofAction: "link-1", presentation: "expanded") != nil
            }
            try #require(drawn, "no expanded scene with the link reached the watcher:\n\(nook.logs)\n\(bridge.log)")

            // Bold: the bold run's box holds more lit pixels than the regular run's of the same letters.
            let nodes = watcher.nodes(presentation: "expanded").filter { $0["owner"]?.unwrappingVariants == .string("notifications/n1") }
            // No closure inside a macro's argument in this test: Swift 6.3.1 named one inside
            // `#expect`'s expansion and one outside alike, and ran the wrong one.
            let regularNode = nodes.first { Self.text($0) == "MMMM" }
            let boldNode = nodes.first { Self.text($0) == " MMMM" }
            let italicNode = nodes.first { Self.text($0) == " slanted" }
            let regular = try #require(regularNode.flatMap(Self.rect), "\(nodes)")
            let bold = try #require(boldNode.flatMap(Self.rect), "\(nodes)")
            #expect(boldNode?["font_weight"]?.unwrappingVariants == .string("bold"))
            #expect(regularNode?["font_weight"] == nil)
            #expect(italicNode?["classes"]?.unwrappingVariants == .string("italic"), "\(nodes)")
            let shot = try await nook.xvfb.screenshot()
            ReachOnScreenTests.saveScreenshot(shot, "notification-markup")
            let regularLit = Self.litPixels(shot, in: regular), boldLit = Self.litPixels(shot, in: bold)
            #expect(regularLit > 40, "the regular run is not drawn (\(regularLit) px at \(regular))")
            #expect(Double(boldLit) > 1.25 * Double(regularLit), "bold \(boldLit) px at \(bold) against regular \(regularLit) px at \(regular)")

            // A click on the link runs xdg-open with its URL; the notification stays.
            let link = try #require(watcher.rect(ofAction: "link-1", presentation: "expanded"))
            try await nook.xvfb.run("xdotool", ["mousemove", String(Int(link.x + link.width / 2)), String(Int(link.y + link.height / 2))])
            try await nook.xvfb.run("xdotool", ["click", "1"])
            let opened = await eventually(timeout: .seconds(30), poll: .milliseconds(50)) {
                ((try? String(contentsOf: record, encoding: .utf8)) ?? "") == "https://example.com/build?id=42&log=1\n"
            }
            #expect(opened, "xdg-open recorded: \((try? String(contentsOf: record, encoding: .utf8)) ?? "nothing")\n\(bridge.log)\n\(nook.rendererLog)")
            #expect(Self.signals(monitor.output).isEmpty, "a link click sent \(Self.signals(monitor.output))")

            // A click on the header (icon, app name, summary) fires `default`, then closes it (reason 2).
            let header = try #require(watcher.rect(ofAction: "default", presentation: "expanded"))
            try await nook.xvfb.run("xdotool", ["mousemove", String(Int(header.x + header.width / 2)), String(Int(header.y + header.height / 2))])
            try await nook.xvfb.run("xdotool", ["click", "1"])
            let fired = await eventually(timeout: .seconds(30), poll: .milliseconds(50)) {
                let seen = Self.signals(monitor.output)
                return seen.contains { $0 == ("ActionInvoked", "1", "default") } && seen.contains { $0 == ("NotificationClosed", "1", "2") }
            }
            #expect(fired, "dbus-monitor saw \(Self.signals(monitor.output)):\n\(monitor.output)\n\(bridge.log)\n\(nook.rendererLog)")

            // A critical notification (its 300 ms expire_timeout does not apply) is dismissed with the mouse: its
            // close control beside the expanded view ends it, reason 2.
            let critical = try await nook.xvfb.run("gdbus", [
                "call", "--address", nook.bus.address, "--dest", "org.freedesktop.Notifications", "--object-path", "/org/freedesktop/Notifications",
                "--method", "org.freedesktop.Notifications.Notify", "Battery", "0", "", "Battery low", "3% left", "[]", "{'urgency': <byte 2>}", "300",
            ])
            #expect(critical.contains("uint32 2"), "\(critical)")
            let criticalStarted = await eventually { (try? await nook.state().activityCount) == 1 }
            try #require(criticalStarted, "the critical notification's activity did not start:\n\(bridge.log)")
            let criticalSerial = try await nook.open(["onto": .string("activity"), "module": .string("notifications"), "activity": .string("n2")])
            try await nook.waitUntilSettled(serial: criticalSerial)
            let chrome = try #require(LoggedRect(try await nook.waitForPlan(serial: criticalSerial)["chrome_to"]), "\(nook.rendererLog)")
            let drawnClose = await eventually(timeout: .seconds(60), poll: .milliseconds(50)) {
                ReachOnScreenTests.targetRect(nook, "close:notifications/n2") != nil
            }
            try #require(drawnClose, "no close control beside the critical notification:\n\(nook.rendererLog)")
            // Where the close control rests: 8 points right of the chrome, bottom-aligned, 26 points.
            let closeX = Int(chrome.x + chrome.width + 8 + 13), closeY = Int(chrome.y + chrome.height - 13)
            try await nook.xvfb.run("xdotool", ["mousemove", String(closeX), String(closeY)])
            try await nook.xvfb.run("xdotool", ["click", "1"])
            let dismissed = await eventually(timeout: .seconds(30), poll: .milliseconds(50)) {
                Self.signals(monitor.output).contains { $0 == ("NotificationClosed", "2", "2") }
            }
            #expect(dismissed, "dbus-monitor saw \(Self.signals(monitor.output))\n\(bridge.log)\n\(nook.rendererLog)")
            #expect(await bridge.stop(SIGTERM) == 0, "\(bridge.log)")
        }
    }
}
