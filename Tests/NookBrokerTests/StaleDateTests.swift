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

    /// A stale date `seconds` from now.
    static func inSeconds(_ seconds: Double) -> PropValue { .int(Int64((Date().timeIntervalSince1970 + seconds) * 1_000_000)) }

    /// The real nookd on a private bus with module `news`: "breaking" (relevance 9, stale
    /// 0.3 s from now) before "weather" (relevance 1).
    static func withNews(_ body: (BrokerClient, NookdProcess) async throws -> Void) async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            let news = try await BrokerClient.connect(bus)
            try await news.register("news")
            try await news.start("breaking", ControlRenderTests.songSpec().merging(["relevance": .double(9), "stale_date": inSeconds(0.3)]) { $1 })
            try await news.start("weather", ControlRenderTests.songSpec().merging(["relevance": .double(1)]) { $1 })
            try await body(news, nookd)
            await news.close()
            _ = await nookd.stop()
        }
    }

    @Test func nookdDemotesAnActivityWhenItsStaleDatePasses() async throws {
        try await Self.withNews { news, _ in
            // (Before its stale date "breaking" leads; the registry test pins that without a clock.)
            let demoted = try await eventually { try await news.activities() == ["news/weather", "news/breaking"] }
            #expect(demoted, "the stale activity did not move after the fresh one")
            #expect(await eventually { news.diagnosticCodes.contains("activity-stale") })
        }
    }

    /// nookd keeps one timer for the next stale date and sets it again only for an earlier
    /// date: a date moved later is found by the timer set for the earlier one, which then sets
    /// the next; a date moved earlier replaces the timer.
    @Test func nookdDemotesAtAStaleDateMovedLaterOrEarlier() async throws {
        try await Self.withNews { news, _ in
            // Later: the timer set for 0.3 s fires, finds nothing stale, and sets the next.
            let later = Date().addingTimeInterval(2)
            try await news.update("breaking", ["stale_date": Self.inSeconds(2)])
            try await Task.sleep(for: .milliseconds(600))
            let order = try await news.activities()
            // (Judged only while the new date is still ahead: a slow machine may pass it.)
            if Date() < later.addingTimeInterval(-0.2) {
                #expect(order == ["news/breaking", "news/weather"], "demoted before its new stale date")
            }
            let demoted = try await eventually { try await news.activities() == ["news/weather", "news/breaking"] }
            #expect(demoted, "the stale date moved later never demoted it")
            // Earlier: a date an hour away, then one a moment away, which must replace its timer.
            try await news.update("breaking", ["stale_date": Self.inSeconds(3600)])
            #expect(try await eventually { try await news.activities() == ["news/breaking", "news/weather"] })
            try await news.update("breaking", ["stale_date": Self.inSeconds(0.3)])
            let demotedAgain = try await eventually { try await news.activities() == ["news/weather", "news/breaking"] }
            #expect(demotedAgain, "the stale date moved earlier never demoted it")
        }
    }
}
