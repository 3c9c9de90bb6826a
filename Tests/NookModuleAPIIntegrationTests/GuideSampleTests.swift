import Foundation
import NookBus
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
            let nookd = try await Nookd(bus: bus, home: scratch.url)
            let observer = try await Observer.connect(bus)
            let plans = try await observer.recordPlanCauses()
            let now = NookInstant.now()
            let pot = Brew(id: "green", name: "Sencha", started: now, ends: now + .seconds(1))
            // The pot may be done before a poll would see it on a loaded machine: wait for the
            // plans instead, which a renderer receives however short the activity lived.
            try await brew(pot, address: .bus(bus.address))
            // The end and the republished home arrive in one frame, so one plan may carry both.
            #expect(await eventually { plans.all.contains("activity_started") }, "\(plans.all)")
            #expect(await observer.activities().isEmpty)
            #expect(plans.all.last != "activity_started", "no plan took the pot away: \(plans.all)")
            await observer.close()
            #expect(await nookd.process.stop() == 0, "\(nookd.log)")
        }
    }
}
