import Testing
import NookBroker
import NookCore
import NookTestSupport

/// `Registry.primaryActivity` finds the first of the display order in one pass; it must be the
/// one `displayOrder` sorts first, with relevance ties, stale activities and ended ones.
@Suite struct PrimaryActivityTests {
    @Test func thePrimaryActivityIsTheFirstOfTheDisplayOrder() throws {
        let seed = SeededGenerator.runSeed()
        var random = SeededGenerator(seed: seed)
        let now = BrokerTime.zero
        let unixNow: Int64 = 1_800_000_000_000_000
        for round in 0..<300 {
            var registry = Registry()
            registry.unixNow = unixNow
            let modules = Int.random(in: 1...5, using: &random)
            for module in 0..<modules {
                let caller = ":1.\(module + 10)"
                _ = try registry.register(module: "m\(module)", info: [:], caller: caller, now: now)
                for activity in 0..<Int.random(in: 0...4, using: &random) {
                    // Few distinct relevances, so ties fall back on start order.
                    var extra: [String: PropValue] = [:]
                    if Bool.random(using: &random) { extra["relevance"] = .double([0, 0.5, 1].randomElement(using: &random)!) }
                    if Int.random(in: 0..<3, using: &random) == 0 { extra["stale_date"] = .int(unixNow - 1_000_000) }
                    _ = try registry.startActivity("a\(activity)", spec: Fixtures.spec(extra: extra), caller: caller, now: now)
                }
                if Int.random(in: 0..<4, using: &random) == 0, let first = registry.modules["m\(module)"]?.activities.keys.first {
                    _ = try registry.endActivity(first, options: [:], caller: caller, now: now)
                }
            }
            _ = registry.markStale(unixMicroseconds: unixNow)
            #expect(registry.primaryActivity == registry.displayOrder.first, "round \(round), seed \(seed): \(registry.displayOrder)")
        }
    }
}

/// An update walks only the slots it touches for nook ids; the record's ids must stay those of
/// all its views, as a record made afresh from them has.
@Suite struct NookIdsAfterUpdateTests {
    @Test func aRecordsNookIdsAreThoseOfAllItsViewsAfterEveryUpdate() throws {
        let seed = SeededGenerator.runSeed()
        var random = SeededGenerator(seed: seed)
        let caller = ":1.10", now = BrokerTime.zero
        var registry = Registry()
        _ = try registry.register(module: "music", info: [:], caller: caller, now: now)
        _ = try registry.startActivity("song", spec: Fixtures.spec(shared: "cover"), caller: caller, now: now)
        let ids: [String?] = [nil, "cover", "title", "art"]
        for step in 0..<400 {
            var changes: [String: PropValue] = [:]
            for slot in ["compact_leading", "compact_trailing", "minimal", "peek"] where Bool.random(using: &random) {
                changes[slot] = .node(Fixtures.text("\(step)", shared: ids.randomElement(using: &random)!))
            }
            _ = try registry.updateActivity("song", changes: changes, caller: caller, now: now)
            let record = try #require(registry.modules["music"]?.activities["song"])
            let afresh = ActivityRecord(id: record.id, accessibilityLabel: record.accessibilityLabel, views: record.views, startOrder: record.startOrder)
            #expect(record.nookIds == afresh.nookIds, "step \(step), seed \(seed)")
        }
    }
}
