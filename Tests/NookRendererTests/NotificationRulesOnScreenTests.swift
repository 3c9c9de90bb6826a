import Foundation
import NookBus
import NookTestSupport
import Testing

/// Issue 40, part 3, on screen: the real nook-notifications with a rules file, Debian's
/// `notify-send`, nookd and nook-renderer on Xvfb. A rule's colour is drawn as the
/// notification's accent; with do not disturb on, the pill shows the bell with a slash and the
/// count of notifications held.
@Suite(.serialized)
struct NotificationRulesOnScreenTests {
    /// The rule's colour, `#FF2D55` (pink: nothing else in the nook or on the desktop is).
    static let pink = (0xFF, 0x2D, 0x55)

    @Test func aRuleColourIsDrawnAndDoNotDisturbShowsItsBellInThePill() async throws {
        try await RendererNook.with(slowMotion: 1, withMusic: false, root: EmptyNookOnScreenTests.desktop) { nook in
            let rules = nook.scratch.appendingPathComponent("notifications.rules")
            try "[app-name=Builder]\ncolour=pink\n".write(to: rules, atomically: true, encoding: .utf8)
            let bridge = try nook.stack.process("nook-notifications", [
                "--address", nook.bus.address, "--rules", rules.path, "--peek-seconds", "60",
                "--state-dir", nook.scratch.appendingPathComponent("bridge-state").path,
            ], environment: ["XDG_RUNTIME_DIR": nook.scratch.path])
            try await nook.stack.waitUntil("nook-notifications", logs: bridge.log) { bridge.log.contains("serving org.freedesktop.Notifications") }
            var environment = ProcessInfo.processInfo.environment
            environment["DBUS_SESSION_BUS_ADDRESS"] = nook.bus.address
            let posted = try await Tools.run("notify-send", ["-p", "-t", "0", "-a", "Builder", "Build done", "All tests passed"], environment: environment)
            #expect(posted.status == 0, "\(posted.stderr)")
            let nookctl = try PackageProcess.executable("nookctl").path
            // The peek: the accent bar beside the icon, in the rule's pink.
            let peeking = await eventually(timeout: .seconds(60), poll: .milliseconds(100)) { (try? await nook.state().presentation) == "peek" }
            #expect(peeking, "\(bridge.log)\n\(nook.logs)")
            let peekSerial = try await nook.state().serial
            _ = try await nook.waitForPlan(serial: peekSerial)
            try await nook.waitUntilSettled(serial: peekSerial)
            let peek = try await nook.xvfb.screenshot(rows: EmptyNookOnScreenTests.bandRows)
            await EmptyNookOnScreenTests.keep(peek, as: "notification-rule-colour-peek-top-band")
            #expect(TimerOnScreenTests.count(Self.pink, in: peek) > 60, "pink \(TimerOnScreenTests.count(Self.pink, in: peek)) px in the peek")
            #expect(try await Tools.run(nookctl, ["--address", nook.bus.address, "unpeek"]).status == 0)
            // The pill's summary in the rule's pink, once the peek is over.
            let pink = await eventually(timeout: .seconds(60), poll: .milliseconds(200)) {
                guard let state = try? await nook.state(), state.presentation == "pill",
                      let shot = try? await nook.xvfb.screenshot(rows: EmptyNookOnScreenTests.bandRows) else { return false }
                return TimerOnScreenTests.count(Self.pink, in: shot) > 20
            }
            let coloured = try await nook.xvfb.screenshot(rows: EmptyNookOnScreenTests.bandRows)
            await EmptyNookOnScreenTests.keep(coloured, as: "notification-rule-colour-top-band")
            #expect(pink, "pink \(TimerOnScreenTests.count(Self.pink, in: coloured)) px:\n\(bridge.log)\n\(nook.logs)")

            // It goes; do not disturb on: the bell with a slash and 0 in the pill.
            let id = posted.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(try await Tools.run(nookctl, ["--address", nook.bus.address, "end", "notifications/n\(id)"]).status == 0)
            #expect(try await Tools.run(nookctl, ["--address", nook.bus.address, "dnd", "on"]).status == 0)
            for n in 1...3 { _ = try await Tools.run("notify-send", ["-t", "1", "-a", "Chat", "Held \(n)"], environment: environment) }
            // The three expire at once; then the bell is the only activity, in the pill.
            let alone = await eventually(timeout: .seconds(60), poll: .milliseconds(100)) {
                guard let state = try? await nook.state() else { return false }
                return state.activityCount == 1 && state.presentation == "pill"
            }
            #expect(alone, "\(bridge.log)\n\(nook.logs)")
            let serial = try await nook.state().serial
            _ = try await nook.waitForPlan(serial: serial)
            try await nook.waitUntilSettled(serial: serial)
            let bell = try await nook.xvfb.screenshot(rows: EmptyNookOnScreenTests.bandRows)
            await EmptyNookOnScreenTests.keep(bell, as: "dnd-bell-pill-top-band")
            let chrome = try #require(bell.chromeBox(background: 48 + 96 + 160), "no pill on screen:\n\(nook.logs)")
            // The pill's chrome, and light pixels (the bell and the digit) inside it.
            var light = 0
            for y in chrome.minY...chrome.maxY {
                for x in chrome.minX...chrome.maxX {
                    let p = bell.pixel(x: x, y: y)
                    if Int(p[0]) + Int(p[1]) + Int(p[2]) > 3 * 180 { light += 1 }
                }
            }
            #expect(light > 30, "\(light) light pixels in the pill \(chrome)")
        }
    }
}
