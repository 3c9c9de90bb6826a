import Foundation
import NookBus
import NookCore
import NookTestSupport
import Testing
@testable import NookCtlKit

/// Issue 43, part 2, for scripts and key bindings: `nookctl osd volume|brightness|caps-lock
/// VALUE` (what swayosd-client and avizo-client are used for), as a real process against the
/// real nookd, a subscribed renderer connection watching.
@Suite(.serialized) struct OSDTests {
    typealias Shell = ActivityScenarioTests.Shell
    typealias Renderer = ActivityScenarioTests.Renderer

    /// The level bar beside the notch of `osd/<kind>` in a plan's scene.
    static func level(_ plan: DBusValue, kind: String = "volume") -> Double? {
        let bar = (try? ReceivedPlan(reply: plan))?.scene.nodes.first { $0.owner == "osd/\(kind)" && $0.slot == "compact_trailing" && $0.kind == "progress" }
        return bar?.props["value"]?.lenientDouble
    }

    @Test func anOSDPeeksTheLevelReplacesItselfAndEndsByItself() async throws {
        try await Shell.start().use { shell in
            let renderer = try await Renderer(shell.bus)
            let first = try await shell.nookctl(["osd", "volume", "40"])
            #expect(first.status == 0 && first.output.contains("Volume 40%"), "\(first.output)")
            #expect(await eventually { renderer.plans.plans.contains { Self.level($0.plan) == 0.4 } }, "the renderer never showed 40 %")
            #expect(await eventually { renderer.plans.plans.contains { ActivityScenarioTests.plan($0)?.cause == .peek } }, "no peek")

            // A key held down: each call replaces the one display in place. (Checked in the
            // plans: the display ends 1.5 s after its last call, which a slow machine may pass.)
            let second = try await shell.nookctl(["osd", "volume", "65%"])
            #expect(second.status == 0 && second.output.contains("Volume 65%"), "\(second.output)")
            #expect(await eventually { renderer.plans.plans.contains { Self.level($0.plan) == 0.65 } }, "the renderer never showed 65 %")
            let showing = try #require(renderer.plans.plans.last { Self.level($0.plan) == 0.65 })
            let owners = Set((ActivityScenarioTests.plan(showing)?.scene.nodes ?? []).map(\.owner).filter { $0.hasPrefix("osd/") })
            #expect(owners == ["osd/volume"], "\(owners)")

            // Muted and Caps Lock say so in words; each kind is its own display.
            #expect(try await shell.nookctl(["osd", "volume", "mute"]).status == 0)
            #expect(try await shell.nookctl(["osd", "caps-lock", "on"]).status == 0)
            // (Each in some plan: under load the first may end before the second starts.)
            @Sendable func shown(_ owner: String, saying text: String) -> Bool {
                renderer.plans.plans.contains { plan in
                    (ActivityScenarioTests.plan(plan)?.scene.nodes ?? []).contains { $0.owner == owner && $0.props["text"] == .string(text) }
                }
            }
            #expect(await eventually { shown("osd/volume", saying: "Muted") }, "no plan showed the volume muted")
            #expect(await eventually { shown("osd/caps-lock", saying: "On") }, "no plan showed Caps Lock on")

            // It ends by itself once its last change is 1.5 s old.
            let ended = await eventually(timeout: .seconds(30)) { await shell.activities().filter { $0.hasPrefix("osd/") }.isEmpty }
            #expect(ended, "the displays never ended")

            // Bad values are refused before any bus call, naming what is wrong.
            let bad = try await shell.nookctl(["osd", "volume", "140"])
            #expect(bad.status == 2 && bad.output.contains("expected a level from 0 to 100"), "\(bad.output)")
            let unknown = try await shell.nookctl(["osd", "keyboard", "on"])
            #expect(unknown.status == 2 && unknown.output.contains("expected volume, brightness or caps-lock"), "\(unknown.output)")
            await renderer.close()
        }
    }

    @Test func osdArgumentsParse() throws {
        #expect(try OSDRequest.parse(kind: "brightness", value: "30", verb: "osd") == OSDRequest(kind: .brightness, value: .level(0.3)))
        #expect(try OSDRequest.parse(kind: "volume", value: "muted", verb: "osd") == OSDRequest(kind: .volume, value: .muted))
        #expect(try OSDRequest.parse(kind: "caps-lock", value: "off", verb: "osd") == OSDRequest(kind: .capsLock, value: .on(false)))
        #expect(throws: UsageError.self) { try OSDRequest.parse(kind: "brightness", value: "mute", verb: "osd") }
        #expect(throws: UsageError.self) { try OSDRequest.parse(kind: "volume", value: "nan", verb: "osd") }
        #expect(throws: UsageError.self) { try OSDRequest.parse(kind: "volume", value: nil, verb: "osd") }
    }
}
