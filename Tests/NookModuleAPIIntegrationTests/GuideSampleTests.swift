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
            let now = NookInstant.now()
            let pot = Brew(id: "green", name: "Sencha", started: now, ends: now + .seconds(1))
            let brewing = Task { try await brew(pot, address: .bus(bus.address)) }
            #expect(await eventually { await observer.activities() == ["tea/green"] })
            try await brewing.value
            #expect(await observer.activities().isEmpty)
            await observer.close()
            #expect(await nookd.process.stop() == 0, "\(nookd.log)")
        }
    }
}
