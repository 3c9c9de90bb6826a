import Testing
import NookBroker
import NookCore

/// The registry holds activity spec numbers to their `NumberDomain`, refusing by key and
/// changing nothing (issue 15, cases 1 and 12).
@Suite struct RegistryDomainTests {
    static func registry() throws -> Registry {
        var registry = Registry()
        _ = try registry.register(module: "music", info: [:], caller: ":1.10", now: .zero)
        _ = try registry.startActivity("song", spec: Fixtures.spec(), caller: ":1.10", now: .zero)
        return registry
    }

    static func refusal(_ body: () throws(RegistryError) -> Void) -> RegistryError? {
        do {
            try body()
            return nil
        } catch {
            return error
        }
    }

    @Test func staleDatesOutsideTheWindowAreRefusedAndChangeNothing() throws {
        var registry = try Self.registry()
        let before = registry
        for date in [Int64.min, -1, Int64.max, 7_258_118_400_000_001] {
            let start = Self.refusal { () throws(RegistryError) in
                _ = try registry.startActivity("news", spec: Fixtures.spec(extra: ["stale_date": .int(date)]), caller: ":1.10", now: .zero)
            }
            #expect(start?.kind == .invalidArgs && start?.message.contains("key 'stale_date'") == true, "\(date): \(String(describing: start))")
            let update = Self.refusal { () throws(RegistryError) in
                _ = try registry.updateActivity("song", changes: ["stale_date": .int(date)], caller: ":1.10", now: .zero)
            }
            #expect(update?.message.contains("1970..2200") == true, "\(date)")
        }
        #expect(registry == before)
        // The window's ends are fine.
        _ = try registry.updateActivity("song", changes: ["stale_date": .int(0)], caller: ":1.10", now: .zero)
        _ = try registry.updateActivity("song", changes: ["stale_date": .int(7_258_118_400_000_000)], caller: ":1.10", now: .zero)
    }

    @Test func relevanceMustBeFiniteAndWithinRange() throws {
        var registry = try Self.registry()
        for (value, words) in [(Double.nan, "key 'relevance': NaN is not a finite number"), (1e300, "1e+300 is outside"),
                               (-.infinity, "-inf is not a finite number")] {
            let error = Self.refusal { () throws(RegistryError) in
                _ = try registry.updateActivity("song", changes: ["relevance": .double(value)], caller: ":1.10", now: .zero)
            }
            #expect(error?.message.contains(words) == true, "\(value): \(String(describing: error))")
        }
    }

    @Test func hugeIdsAreQuotedShort() throws {
        var registry = try Self.registry()
        let id = String(repeating: "a", count: 1 << 20)
        let error = Self.refusal { () throws(RegistryError) in
            _ = try registry.startActivity(id, spec: Fixtures.spec(), caller: ":1.10", now: .zero)
        }
        #expect(error?.kind == .invalidId)
        #expect((error?.message.utf8.count ?? .max) < 400)
    }
}
