import Foundation
import NookBus
import NookTestSupport
import Testing

/// Issue 40, part 5 on screen: the real renderer on headless sway draws the count of
/// notifications stacked in the pill (the real bridge, driven by `notify-send`).
@Suite(.serialized) struct NotificationStackOnScreenTests {
    /// How wide the dark chrome is on row `y`, walking out from the screen's centre (the notch,
    /// always chrome) until the background: the pill alone, not its capsules beside it.
    static func pillWidth(_ shot: RGBImage, row y: Int) -> Int {
        func sum(_ x: Int) -> Int {
            let offset = (y * shot.width + x) * 3
            return Int(shot.bytes[offset]) + Int(shot.bytes[offset + 1]) + Int(shot.bytes[offset + 2])
        }
        let background = sum(0)
        let dark: (Int) -> Bool = { sum($0) < background - 15 }
        let centre = shot.width / 2
        guard dark(centre) else { return 0 }
        var left = centre, right = centre
        while left > 0, dark(left - 1) { left -= 1 }
        while right < shot.width - 1, dark(right + 1) { right += 1 }
        return right - left + 1
    }

    /// The rule: the pill shows the count. One notification's pill holds its summary; five with
    /// the same summary give the newest's pill the same summary and a badge with 5, so the pill
    /// is drawn wider (the screenshots are saved with NOOK_SCREENSHOTS set, to be looked at).
    @Test func thePillOfFiveNotificationsShowsTheirCount() async throws {
        try await SwayNook.with(slowMotion: 1) { nook in
            let bridge = try nook.stack.process("nook-notifications", [
                "--address", nook.bus.address, "--state-dir", nook.scratch.path + "/bridge-state", "--peek-seconds", "1",
            ], environment: ["XDG_RUNTIME_DIR": nook.scratch.path])
            try await nook.stack.waitUntil("nook-notifications", logs: bridge.log) {
                bridge.log.contains("serving org.freedesktop.Notifications")
            }
            var environment = ProcessInfo.processInfo.environment
            environment["DBUS_SESSION_BUS_ADDRESS"] = nook.bus.address
            // The song steps aside, so the notifications have the pill.
            _ = try await nook.control("EndActivity", [.string("music"), .string("song"), .vardict([:])])
            let row = 16
            /// The pill's width once two screenshots in a row agree, with `count` activities at rest.
            @Sendable func settledWidth(_ count: Int) async -> Int? {
                guard let state = try? await nook.state(), state.presentation == "pill", state.activityCount == count,
                    let first = try? await nook.sway.screenshot(height: 60), let second = try? await nook.sway.screenshot(height: 60)
                else { return nil }
                let (a, b) = (Self.pillWidth(first, row: row), Self.pillWidth(second, row: row))
                return a == b && a > 0 ? a : nil
            }

            let one = try await Tools.run("notify-send", ["-t", "0", "-a", "Chat", "Message", "one"], environment: environment)
            #expect(one.status == 0, "\(one.stderr)")
            #expect(await eventually(timeout: .seconds(120), poll: .milliseconds(200)) { await settledWidth(1) != nil }, "\(nook.logs)")
            let alone = await settledWidth(1) ?? 0

            for body in ["two", "three", "four", "five"] {
                let sent = try await Tools.run("notify-send", ["-t", "0", "-a", "Chat", "Message", body], environment: environment)
                #expect(sent.status == 0, "\(sent.stderr)")
            }
            // The badge (a capsule with "5", about 17 px) and its 6 px gap widen the pill.
            let widened = await eventually(timeout: .seconds(120), poll: .milliseconds(200)) {
                guard let width = await settledWidth(5) else { return false }
                return width >= alone + 12
            }
            let five = await settledWidth(5)
            #expect(widened, "the pill of five is \(String(describing: five)) px wide, alone \(alone) px:\n\(nook.logs)")
            print("the pill alone: \(alone) px; with the count of five: \(String(describing: five)) px")
            if let shot = try? await nook.sway.screenshot(height: 60) { ReachOnScreenTests.saveScreenshot(shot, "notifications-stack-pill") }

            // Opened (as a hover or click on the pill does): the other four listed under the newest.
            _ = try await nook.open(["module": .string("notifications"), "activity": .string("n5")])
            let opened = await eventually(timeout: .seconds(120), poll: .milliseconds(200)) {
                (try? await nook.state().presentation)?.hasPrefix("expanded") == true
            }
            #expect(opened, "\(nook.logs)")
            let serial = try await nook.state().serial
            try await nook.waitUntilSettled(serial: serial)
            if let shot = try? await nook.sway.screenshot(height: 300) { ReachOnScreenTests.saveScreenshot(shot, "notifications-stack-expanded") }
        }
    }
}
