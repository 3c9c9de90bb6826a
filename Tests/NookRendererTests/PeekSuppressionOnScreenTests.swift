import Foundation
import NookBus
import NookCore
import NookTestSupport
import Testing

/// SPEC rule 10 held for the whole peek, on screen: while the music activity peeks, the cover
/// is seen once (in the peek), across an unrelated activity's update and a display change.
/// Screenshots are taken throughout each plan, in slow motion, until it settles.
@Suite
struct PeekSuppressionOnScreenTests {
    @Test func rule10_theCoverIsNeverSeenTwiceDuringAPeek() async throws {
        try await RendererNook.with(slowMotion: 4) { nook in
            try await nook.showPillAtRest()
            // Another module, whose activity sits in a capsule and updates while the pill peeks.
            let clock = try await BusConnection.connect(to: .address(nook.bus.address), description: "clock-module")
            defer { Task { await clock.close() } }
            func modules(_ member: String, _ arguments: [DBusValue]) async throws {
                _ = try await clock.call(destination: "org.nook.Nook1", path: "/org/nook/Nook1", interface: "org.nook.Nook1.Modules",
                                         member: member, arguments: arguments, timeout: .seconds(20))
            }
            func text(_ string: String) -> PropValue { .node(RawNode(kind: "text", props: ["text": .string(string)], children: [])) }
            try await modules("Register", [.string("clock"), WireCodec.vardict([:])])
            try await modules("StartActivity", [.string("tea"), WireCodec.vardict([
                "accessibility_label": .string("Tea"), "relevance": .double(-1), "compact_leading": text("T"),
                "compact_trailing": text("5:00"), "minimal": text("5:00"),
            ])])
            try await nook.waitUntilSettled(serial: try await nook.state().serial)

            var seen: [String] = []
            /// Screenshots until plan `serial` settles on screen, then one more at rest: the
            /// cover must be one blob in each.
            func watch(_ what: String, serial: UInt64) async throws {
                var shots = 0
                while true {
                    let settled = nook.logLines("settled").contains { UInt64($0["serial"] ?? "") ?? 0 >= serial }
                    let shot = try await nook.xvfb.screenshot()
                    shots += 1
                    let covers = shot.coverBlobs()
                    if covers.count > 1 { seen.append("\(what), shot \(shots): \(covers)") }
                    if settled { break }
                    if shots > 600 { throw TestSupportError("plan \(serial) (\(what)) never settled:\n\(nook.logs)") }
                }
                let rest = try await nook.xvfb.screenshot().coverBlobs()
                #expect(rest.count == 1, "\(what), at rest: \(rest.count) covers")
            }

            guard case .uint64(let peek)? = try await nook.control("Peek", [.string("music"), .string("song")]).first else {
                throw TestSupportError("Peek replied without a serial")
            }
            _ = try await nook.waitForPlan(serial: peek)
            try await watch("the peek opening", serial: peek)

            try await modules("UpdateActivity", [.string("tea"), WireCodec.vardict(["minimal": text("4:59"), "compact_trailing": text("4:59")])])
            let update = try await nook.state().serial
            #expect(update > peek)
            _ = try await nook.waitForPlan(serial: update)
            try await watch("an unrelated update", serial: update)

            // A notch written to renderer.json: the renderer declares the display again.
            try #"{"notch": "180x30"}"#.write(to: nook.rendererConfigFile, atomically: true, encoding: .utf8)
            let declared = await eventually(timeout: .seconds(60), poll: .milliseconds(50)) {
                nook.logLines("plan").contains { $0["cause"] == "display_changed" }
            }
            #expect(declared, "no display_changed plan after the notch changed:\n\(nook.logs)")
            let display = try #require(nook.logLines("plan").first { $0["cause"] == "display_changed" }?["serial"].flatMap { UInt64($0) })
            try await watch("a display change", serial: display)
            #expect(try await nook.state().presentation == "peek")
            #expect(seen.isEmpty, "the cover was seen twice during the peek: \(seen)\n\(nook.logs)")
        }
    }
}
