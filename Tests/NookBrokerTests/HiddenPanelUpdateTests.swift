import Foundation
import NookBroker
import NookBus
import NookCore
import NookTestSupport
import Testing

/// An update of a panel the nook is not showing wakes no renderer (issue 42, "no frame without
/// a change"): a progress notification's body under the pill made a plan, and a renderer's
/// frame, on every step, though every renderer's scene stayed what it was.
@Suite struct HiddenPanelUpdateTests {
    typealias R = ControlRenderTests

    static func expanded(_ text: String) -> [String: PropValue] {
        ["expanded": .node(R.node("vstack", [:], [R.cover(120), R.node("text", ["text": .string(text)])]))]
    }

    @Test func anUpdateOfAPanelTheNookDoesNotShowSendsNoPlanAndOpeningShowsIt() async throws {
        try await R.withMusic { bus, nookd, music in
            var spec = R.songSpec()
            spec.merge(Self.expanded("0:00")) { $1 }
            try await music.start("song", spec)
            let renderer = try await R.Renderer.subscribe(bus)
            #expect(renderer.first["to"] == .string("pill"))
            let before = try await music.state()["serial"]
            guard case .uint64(let serialBefore)? = before else { throw TestSupportError("GetState has no serial: \(String(describing: before))") }

            // The expanded view's elapsed time, under the pill, three times; then the pill's title.
            for elapsed in ["0:01", "0:02", "0:03"] { try await music.update("song", Self.expanded(elapsed)) }
            try await music.update("song", ["compact_trailing": .node(R.node("text", ["text": .string("Next Song")]))])
            let visible = try #require(await renderer.plan { "\($0["scene"] ?? .string(""))".contains("Next Song") }, "no plan for the title: \(nookd.log)")
            #expect(visible["serial"] == .uint64(serialBefore + 1), "the panel's updates took no serial: \(renderer.received.map { $0["serial"] })")
            #expect(renderer.received.count == 1, "only the title's update made a plan: \(renderer.received.map { $0["cause"] })")

            // Nothing was lost: opening shows the panel as it was last updated.
            let open = try await R.control(music, "Open", [WireCodec.vardict(["module": .string("music"), "activity": .string("song")])])
            let opened = try #require(await renderer.plan(serial: open), "no plan \(open): \(nookd.log)")
            let scene = "\(opened["scene"] ?? .string(""))"
            #expect(scene.contains("0:03") && !scene.contains("0:02"), "the expanded view is the latest: \(scene.prefix(400))")

            // Once the panel is shown, its updates are planned as before.
            try await music.update("song", Self.expanded("0:04"))
            #expect(await renderer.plan { "\($0["scene"] ?? .string(""))".contains("0:04") }?["cause"] == .string("activity_updated"))
            await renderer.client.close()
            await music.close()
            #expect(await nookd.stop() == 0, "\(nookd.log)")
        }
    }
}
