import Foundation
import NookBus
import NookTestSupport
import Testing

/// The keyboard reaches every activity (issue 39, part 1), on Xvfb with xdotool: real nookd,
/// nook-renderer, the simulated music player (the pill) and a second module whose activity
/// sits in a capsule. `nookctl focus` gives the nook the keyboard with the pointer far away;
/// the arrow keys move a ring from the pill to the capsule, Enter opens that activity, Escape
/// closes it back to the pill (the ring back on the capsule), Delete ends the focused activity
/// (the module hears `activity-dismissed`), and Escape on the pill gives the keyboard back.
@Suite(.serialized)
struct KeyboardReachOnScreenTests {
    static func key(_ nook: RendererNook, _ name: String) async throws {
        _ = try await nook.xvfb.run("xdotool", ["key", name])
    }

    static func waitForLog(_ nook: RendererNook, _ text: String, after count: Int = 0) async throws {
        let seen = await eventually(timeout: .seconds(60), poll: .milliseconds(50)) {
            nook.rendererLog.components(separatedBy: text).count - 1 > count
        }
        guard seen else { throw TestSupportError("the renderer never logged '\(text)':\n\(nook.logs)") }
    }

    @Test func nookctlFocusThenKeysCycleOpenCloseAndDismissActivities() async throws {
        try await RendererNook.with(slowMotion: 1) { nook in
            try await nook.showPillAtRest()
            let module = try await ReachOnScreenTests.SideModule.register(on: nook)
            defer { Task { await module.close() } }
            try await module.start("n2", letter: "N")
            try await nook.waitUntilSettled(serial: try await nook.state().serial)
            try await nook.xvfb.run("xdotool", ["mousemove", "20", String(XvfbServer.screen.height - 20)])

            let ctl = try PackageProcess.executable("nookctl").path
            let run = try await Tools.run(ctl, ["--address", nook.bus.address, "focus"])
            #expect(run.status == 0, "nookctl focus: \(run.stderr)")
            try await Self.waitForLog(nook, "the nook takes the keyboard")
            try await Self.waitForLog(nook, "reach focus pill music/song")

            try await Self.key(nook, "Right")
            try await Self.waitForLog(nook, "reach focus capsule reach/n2")
            let capsule = try #require(ReachOnScreenTests.targetRect(nook, "capsule:reach/n2"), "no capsule drawn:\n\(nook.logs)")
            let ringed = await eventually(timeout: .seconds(30), poll: .milliseconds(100)) {
                guard let shot = try? await nook.xvfb.screenshot() else { return false }
                return ControlOnScreenTests.ringPixels(in: shot, around: (capsule.x, capsule.y, capsule.width, capsule.height)) > Int(capsule.width)
            }
            #expect(ringed, "no focus ring around the capsule at \(capsule)")
            ReachOnScreenTests.saveScreenshot(try await nook.xvfb.screenshot(), "reach-keyboard-capsule")

            try await Self.key(nook, "Return")
            let opened = await eventually(timeout: .seconds(60), poll: .milliseconds(50)) {
                guard let state = try? await ReachOnScreenTests.showing(nook) else { return false }
                return state.presentation == "expanded" && state.module == "reach" && state.activity == "n2"
            }
            #expect(opened, "Enter on the capsule did not open reach/n2:\n\(nook.logs)")
            try await nook.waitUntilSettled(serial: try await nook.state().serial)

            // Escape closes the panel; the focus is back on the capsule that opened it.
            try await Self.key(nook, "Escape")
            let closed = await eventually(timeout: .seconds(60), poll: .milliseconds(50)) {
                (try? await nook.state().presentation) == "pill"
            }
            #expect(closed, "Escape did not close the panel:\n\(nook.logs)")
            try await nook.waitUntilSettled(serial: try await nook.state().serial)
            let ringedAgain = await eventually(timeout: .seconds(30), poll: .milliseconds(100)) {
                guard let shot = try? await nook.xvfb.screenshot() else { return false }
                return ControlOnScreenTests.ringPixels(in: shot, around: (capsule.x, capsule.y, capsule.width, capsule.height)) > Int(capsule.width)
            }
            #expect(ringedAgain, "the focus ring is not back around the capsule after Escape")
            try await Self.key(nook, "Delete")
            let ended = await eventually(timeout: .seconds(60), poll: .milliseconds(50)) {
                (try? await ReachOnScreenTests.showing(nook).activities.contains("reach/n2")) == false
            }
            #expect(ended, "Delete did not end reach/n2:\n\(nook.logs)")
            let heard = await eventually(timeout: .seconds(30), poll: .milliseconds(50)) { module.diagnostics.contains("activity-dismissed n2") }
            #expect(heard, "the module never heard activity-dismissed: \(module.diagnostics)")

            try await Self.key(nook, "Escape")
            try await Self.waitForLog(nook, "the nook gives the keyboard back (Escape)")
        }
    }
}
