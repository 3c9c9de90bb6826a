import Foundation
import NookTestSupport
import Testing

/// The renderer follows the output `renderer.json` names on a real compositor: headless sway
/// adds an output (`swaymsg create_output`) and moves it while the renderer runs. Taking one
/// away cannot be tried: sway 1.7 fails to commit a headless output's `disable` and has no
/// `unplug`.
@Suite(.serialized)
struct SwayOutputFollowingTests {
    static let second = SwayServer.Output(name: "HEADLESS-2", active: true, x: SwayServer.screen.width, y: 0, width: 1280, height: 800)

    /// Configured for HEADLESS-2 before it exists: the nook waits on HEADLESS-1, moves to
    /// HEADLESS-2 once it is plugged in (one new layer surface there, the display declared
    /// again for its size), and when HEADLESS-2 is then moved in the layout it stays where it
    /// is on that output: no new layer surface, no `DisplayChanged`, no fresh-window plan.
    @Test func followsItsOutputWhenItAppearsAndNotRebuiltWhenItMoves() async throws {
        let placeSecond = "output HEADLESS-2 mode \(Self.second.width)x\(Self.second.height) position \(Self.second.x) 0"
        try await SwayNook.with(slowMotion: 1, swayConfig: placeSecond, rendererConfig: #"{"output": "HEADLESS-2"}"#) { nook in
            try await nook.showPill()
            #expect(nook.rendererLog.contains("output 'HEADLESS-2' is not connected"), "\(nook.logs)")
            #expect(nook.layerSurfaces.map(\.output) == ["HEADLESS-1"], "\(nook.layerSurfaces)")

            try await nook.sway.swaymsg(["create_output"])
            let moved = await eventually(timeout: .seconds(60), poll: .milliseconds(100)) {
                nook.layerSurfaces.last?.output == "HEADLESS-2"
            }
            #expect(moved, "no layer surface on HEADLESS-2 once it appeared: \(nook.layerSurfaces)\n\(nook.logs)")
            let outputs = try await nook.sway.outputs()
            #expect(outputs.contains { $0.name == "HEADLESS-2" && $0.width == Self.second.width && $0.x == Self.second.x }, "\(outputs)")
            // A 1280x800 output is another display: declared, and its pill centred on it.
            let declared = await eventually(timeout: .seconds(60), poll: .milliseconds(100)) {
                nook.rendererLog.contains("display changed to \(Self.second.width)x\(Self.second.height)")
            }
            #expect(declared, "the renderer did not declare HEADLESS-2's size:\n\(nook.logs)")
            try await nook.showPill(on: Self.second)
            let first = try await nook.sway.screenshot(height: 200)
            #expect(first.coverBlobs().isEmpty, "the pill is still drawn on HEADLESS-1 too")

            // Only the position changes: nothing may be rebuilt.
            let surfacesBefore = nook.layerSurfaces.count
            let plansBefore = nook.logLines("plan").count
            let declarationsBefore = nook.rendererLog.components(separatedBy: "display changed to").count
            try await nook.sway.swaymsg(["output", "HEADLESS-2", "position", "0", String(SwayServer.screen.height)])
            let below = SwayServer.Output(name: "HEADLESS-2", active: true, x: 0, y: SwayServer.screen.height,
                                          width: Self.second.width, height: Self.second.height)
            let rearranged = await eventually(timeout: .seconds(30), poll: .milliseconds(100)) {
                (try? await nook.sway.outputs().contains { $0.name == "HEADLESS-2" && $0.x == 0 && $0.y == below.y }) == true
            }
            let layout = (try? await nook.sway.outputs()) ?? []
            #expect(rearranged, "sway did not move HEADLESS-2: \(layout)")
            let drawnBelow = await eventually(timeout: .seconds(30), poll: .milliseconds(200)) {
                (try? await nook.sway.screenshot(x: below.x, y: below.y, width: below.width, height: 200).coverBlobs().isEmpty) == false
            }
            #expect(drawnBelow, "the pill is not drawn on HEADLESS-2 at its new place")
            // A plan through the broker to the renderer's main loop, which by then has handled
            // the compositor's news of the move: had it declared the display, the broker's
            // fresh-window plan would be in the log before this one.
            let opened = try await nook.open()
            let openPlan = try await nook.waitForPlan(serial: opened)
            #expect(openPlan["cause"] == "open" && openPlan["fresh_window"] != "true", "\(openPlan.text)")
            #expect(nook.layerSurfaces.count == surfacesBefore, "moving the output rebuilt the surface: \(nook.layerSurfaces)")
            let newPlans = nook.logLines("plan").dropFirst(plansBefore)
            #expect(!newPlans.contains { $0["fresh_window"] == "true" || $0["cause"] == "display_changed" },
                    "moving the output caused a fresh-window plan: \(newPlans.map(\.text))")
            #expect(nook.rendererLog.components(separatedBy: "display changed to").count == declarationsBefore,
                    "moving the output declared the display again:\n\(nook.logs)")
        }
    }

    /// No polling for `output: focused` (issue 39): on sway the renderer follows the focus
    /// from sway's IPC events (`$SWAYSOCK`, subscribed to `workspace` and `output`). With two
    /// outputs, `swaymsg focus output HEADLESS-2` moves the nook there (a layer surface pinned
    /// to HEADLESS-2, the 1280x800 display declared, the pill drawn on it and gone from
    /// HEADLESS-1), and focusing HEADLESS-1 brings it back. Each move is driven and its event
    /// waited for; the once-a-second check that used to follow the compositor never acts
    /// (its log line, `the compositor put the nook on`, never appears).
    @Test func focusedFollowsSwaysFocusFromItsIPCEventsWithNoPolling() async throws {
        let placeSecond = "output HEADLESS-2 mode \(Self.second.width)x\(Self.second.height) position \(Self.second.x) 0"
        try await SwayNook.with(slowMotion: 1, swayConfig: placeSecond, rendererConfig: #"{"output": "focused"}"#, outputs: 2) { nook in
            #expect(nook.rendererLog.contains("following sway's focus from its IPC events"), "\(nook.logs)")
            _ = try await nook.sway.swaymsg(["focus", "output", "HEADLESS-1"])
            let onFirst = await eventually(timeout: .seconds(60), poll: .milliseconds(100)) { nook.layerSurfaces.last?.output == "HEADLESS-1" }
            #expect(onFirst, "the nook was not pinned to HEADLESS-1 with the focus there: \(nook.layerSurfaces)\n\(nook.logs)")
            try await nook.showPill()

            _ = try await nook.sway.swaymsg(["focus", "output", "HEADLESS-2"])
            let moved = await eventually(timeout: .seconds(60), poll: .milliseconds(100)) { nook.layerSurfaces.last?.output == "HEADLESS-2" }
            #expect(moved, "focusing HEADLESS-2 did not move the nook there: \(nook.layerSurfaces)\n\(nook.logs)")
            #expect(nook.rendererLog.contains("sway says HEADLESS-2 has the focus"), "\(nook.logs)")
            let declared = await eventually(timeout: .seconds(60), poll: .milliseconds(100)) {
                nook.rendererLog.contains("display changed to \(Self.second.width)x\(Self.second.height)")
            }
            #expect(declared, "the renderer did not declare HEADLESS-2's size:\n\(nook.logs)")
            try await nook.showPill(on: Self.second)
            let first = try await nook.sway.screenshot(height: 200)
            #expect(first.coverBlobs().isEmpty, "the pill is still drawn on HEADLESS-1 after the focus left it")

            _ = try await nook.sway.swaymsg(["focus", "output", "HEADLESS-1"])
            let back = await eventually(timeout: .seconds(60), poll: .milliseconds(100)) { nook.layerSurfaces.last?.output == "HEADLESS-1" }
            #expect(back, "focusing HEADLESS-1 again did not bring the nook back: \(nook.layerSurfaces)\n\(nook.logs)")
            try await nook.showPill()
            #expect(!nook.rendererLog.contains("the compositor put the nook on"), "the once-a-second check moved the nook:\n\(nook.logs)")
        }
    }
}
