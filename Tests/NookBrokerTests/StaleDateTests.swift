import Testing
import NookBroker
import NookBus
import NookCore
import NookTestSupport
import Foundation

/// `stale_date`: an activity past it sorts after fresh ones and its module is told.
@Suite struct StaleDateTests {
    let a = ":1.30"

    @Test func staleActivitiesSortAfterFreshOnesAndTheModuleHears() throws {
        var registry = Registry()
        _ = try registry.register(module: "news", info: [:], caller: a, now: .zero)
        _ = try registry.startActivity("breaking", spec: Fixtures.spec(relevance: 9, extra: ["stale_date": .int(1_000)]), caller: a, now: .zero)
        _ = try registry.startActivity("weather", spec: Fixtures.spec(relevance: 1), caller: a, now: .zero)
        #expect(registry.primaryActivity?.activity == "breaking")
        #expect(registry.nextStaleDate == 1_000)
        #expect(registry.markStale(unixMicroseconds: 999).isEmpty, "not yet")
        let actions = registry.markStale(unixMicroseconds: 1_000)
        #expect(registry.displayOrder.map(\.activity) == ["weather", "breaking"])
        #expect(actions.contains { if case .diagnostics(_, "news", let list) = $0 { list.map(\.code) == [.activityStale] } else { false } })
        #expect(actions.sceneChanges.map(\.cause) == [.activityUpdated])
        #expect(registry.nextStaleDate == nil)
        #expect(registry.markStale(unixMicroseconds: 2_000).isEmpty, "stale once")
        // An update with a new stale date makes it fresh again.
        _ = try registry.updateActivity("breaking", changes: ["stale_date": .int(5_000)], caller: a, now: .zero)
        #expect(registry.primaryActivity?.activity == "breaking")
    }

    @Test func nookdDemotesAnActivityWhenItsStaleDatePasses() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            let news = try await BrokerClient.connect(bus)
            try await news.register("news")
            let soon = Int64((Date().timeIntervalSince1970 + 0.3) * 1_000_000)
            try await news.start("breaking", ControlRenderTests.songSpec().merging(["relevance": .double(9), "stale_date": .int(soon)]) { $1 })
            try await news.start("weather", ControlRenderTests.songSpec().merging(["relevance": .double(1)]) { $1 })
            // (Before its stale date "breaking" leads; the registry test pins that without a clock.)
            let demoted = try await eventually { try await news.activities() == ["news/weather", "news/breaking"] }
            #expect(demoted, "the stale activity did not move after the fresh one")
            #expect(await eventually { news.diagnosticCodes.contains("activity-stale") })
            await news.close()
            _ = await nookd.stop()
        }
    }
}
