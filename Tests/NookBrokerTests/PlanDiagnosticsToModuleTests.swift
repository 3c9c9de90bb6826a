import Foundation
import NookBus
import NookCore
import NookTestSupport
import Testing

/// Contract 1.1 "Diagnostics": what planning says about a module's views reaches the module
/// through `Diagnostics` (rule 9: "why didn't my cover move?"), each distinct (code, element,
/// activity) once per change of its content, however many plans and renderers repeat it.
@Suite struct PlanDiagnosticsToModuleTests {
    typealias C = ControlRenderTests

    /// The song with two sources for `cover` in its expanded view: that key cannot move (rule 9).
    static func song(title: String) -> [String: PropValue] {
        var spec = C.songSpec(title: title)
        spec["expanded"] = .node(C.node("vstack", [:], [C.cover(120), C.cover(60), C.node("text", ["text": .string(title)])]))
        return spec
    }

    /// The diagnostics `client` received with this code, as records.
    static func received(_ client: BrokerClient, _ code: String) -> [Vardict] {
        client.diagnostics.all.flatMap { signal -> [Vardict] in
            guard case .array(_, let records) = signal.arguments.first else { return [] }
            return records.compactMap { try? Vardict($0) }.filter { $0["code"] == .string(code) }
        }
    }

    /// Opens onto the song and closes again, waiting for both plans; then a round trip on the
    /// module's own connection, so any `Diagnostics` sent before it has arrived.
    static func openAndClose(_ music: BrokerClient, _ renderer: C.Renderer, _ nookd: NookdProcess) async throws {
        let open = try await C.control(music, "Open", [WireCodec.vardict([:])])
        let plan = try #require(await renderer.plan(serial: open), "no plan \(open): \(nookd.log)")
        #expect(plan["cause"] == .string("open") && plan["to"] == .string("expanded"), "\(plan)")
        let close = try await C.control(music, "Close", [WireCodec.vardict([:])])
        _ = try #require(await renderer.plan(serial: close), "no plan \(close): \(nookd.log)")
        _ = try await music.state()
    }

    @Test func rule9_duplicateSourceReachesTheModuleOncePerChangeOfItsContent() async throws {
        try await C.withMusic { bus, nookd, music in
            let other = try await BrokerClient.connect(bus)
            try await other.register("clock")
            try await music.start("song", Self.song(title: "Quiet Song"))
            // Two renderers: each plan says it, the module hears it once.
            let renderer = try await C.Renderer.subscribe(bus)
            let second = try await C.Renderer.subscribe(bus)

            try await Self.openAndClose(music, renderer, nookd)
            _ = try #require(await second.plan(where: { $0["cause"] == .string("close") }), "the second renderer got no close")
            _ = try await music.state()
            let first = Self.received(music, "duplicate-source")
            #expect(!first.isEmpty, "the module never heard duplicate-source: \(music.diagnosticCodes)\n\(nookd.log)")
            let warning = try #require(first.first { $0["severity"] == .string("warning") }, "\(first)")
            #expect(warning["element"] == .string("cover") && warning["activity"] == .string("song") && warning["id"] == .string("cover"))
            #expect(warning["module"] == .string("music"))
            #expect(warning["path"] == .string("expanded/0"))
            // Each distinct (code, element, activity) once: the warning for the two copies in the
            // expanded view (the lone pill copy facing them is the same element of the same activity).
            #expect(first.count == 1, "heard more than once: \(first)")
            #expect(Self.received(other, "duplicate-source").isEmpty, "another module heard music's diagnostics")

            // The same open again, nothing changed: nothing new.
            try await Self.openAndClose(music, renderer, nookd)
            #expect(Self.received(music, "duplicate-source").count == 1, "\(Self.received(music, "duplicate-source"))")

            // The module changes its content: the next plan that finds the problem says it again, once.
            try await music.update("song", ["compact_trailing": .node(C.node("text", ["text": .string("Louder Song")]))])
            try await Self.openAndClose(music, renderer, nookd)
            #expect(Self.received(music, "duplicate-source").count == 2, "\(Self.received(music, "duplicate-source"))")
            await second.client.close()
            await renderer.client.close()
            await other.close()
            await music.close()
            #expect(await nookd.stop() == 0, "\(nookd.log)")
        }
    }

    @Test func rule4_noCounterpartTellsTheModuleWhyItsCoverDidNotMove() async throws {
        try await C.withMusic { bus, nookd, music in
            // The home shows no cover: the pill's cover has no counterpart when the nook opens onto it.
            try await music.call("SetContent", [.string("home"), C.node("text", ["text": .string("Library")]).wireValue])
            try await music.start("song", C.songSpec())
            let renderer = try await C.Renderer.subscribe(bus)
            let open = try await C.control(music, "Open", [WireCodec.vardict(["onto": .string("home")])])
            _ = try #require(await renderer.plan(serial: open), "no plan \(open): \(nookd.log)")
            _ = try await music.state()
            let heard = Self.received(music, "no-counterpart")
            let cover = try #require(heard.first, "the module never heard no-counterpart: \(music.diagnosticCodes)")
            #expect(cover["element"] == .string("cover") && cover["activity"] == .string("song") && cover["path"] == .string("compact_leading"))
            #expect(heard.count == 1, "\(heard)")
            await renderer.client.close()
            await music.close()
            #expect(await nookd.stop() == 0, "\(nookd.log)")
        }
    }
}
