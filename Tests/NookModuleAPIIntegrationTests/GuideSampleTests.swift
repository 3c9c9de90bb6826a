import Foundation
import NookBus
import NookCore
import NookModuleAPI
@testable import NookGuideSample
import NookTestSupport
import Testing

/// The guide's sample module, run against the real nookd.
@Suite(.serialized) struct GuideSampleTests {
    @Test func guideModuleBrewsAPotAndEndsIt() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, home: scratch.url)
            let observer = try await Observer.connect(bus)
            let plans = try await observer.recordPlans()
            let now = NookInstant.now()
            // Long enough that connecting and starting cannot use it all up on a loaded machine,
            // so the pot is on screen for some frames; the renderer's plans show it, where a
            // poll of GetState could miss it.
            let pot = Brew(id: "green", name: "Sencha", started: now, ends: now + .seconds(4))
            try await brew(pot, address: .bus(bus.address))
            // The renderer drew the pot while it steeped, and it is gone now.
            #expect(await eventually { plans.anySceneShows(owner: "tea/green") }, "\(plans.all.map { $0["cause"] })")
            #expect(await observer.activities().isEmpty)
            await observer.close()
            #expect(await nookd.process.stop() == 0, "\(nookd.log)")
        }
    }
}
