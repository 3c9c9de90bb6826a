import Foundation
import Testing
@testable import NookBroker
@testable import NookCore
import NookTestSupport

/// The state file, with real files in a temporary directory.
@Suite struct PersistenceTests {
    /// The state file waits `persistDelay` (500 ms) after a change while writes are quick, and
    /// less once writes slow down, so that a change still reaches the disk within one second
    /// behind the write on its way and its own (SPEC: "each change on disk within one second").
    @Test func theDebounceLeavesRoomForTwoWritesInTheSecond() {
        let delay = Duration.milliseconds(500)
        #expect(Broker.debounce(delay, lastWrite: .zero) == .milliseconds(500))
        #expect(Broker.debounce(delay, lastWrite: .milliseconds(150)) == .milliseconds(500))
        #expect(Broker.debounce(delay, lastWrite: .milliseconds(300)) == .milliseconds(400))
        #expect(Broker.debounce(delay, lastWrite: .milliseconds(400)) == .milliseconds(200))
        // Slower still: the shortest debounce, not less (a burst still shares a write).
        #expect(Broker.debounce(delay, lastWrite: .seconds(3)) == .milliseconds(200))
        // A configured delay below the shortest is kept as it is.
        #expect(Broker.debounce(.milliseconds(50), lastWrite: .seconds(3)) == .milliseconds(50))
        #expect(Broker.debounce(.zero, lastWrite: .zero) == .zero)
    }

    func populated() throws -> Registry {
        var registry = Registry()
        _ = try registry.register(module: "music", info: ["display_name": .string("Music"), "version": .string("2")], caller: ":1.1", now: .zero)
        _ = try registry.register(module: "timer", info: [:], caller: ":1.2", now: .zero)
        var spec = Fixtures.spec(relevance: 2, sequence: 9, shared: "cover")
        spec["expanded"] = .node(RawNode(kind: "view", props: [
            "name": .string("CoverArt"),
            "params": .dictionary(["big": .uint(.max), "small": .int(.min), "ratio": .double(0.25), "list": .array([.bool(true), .string("x")])]),
            "padding": .structure([.double(1), .double(2), .double(3), .double(4)]),
        ]))
        spec["stale_date"] = .int(1_800_000_000_000_000)
        _ = try registry.startActivity("song", spec: spec, caller: ":1.1", now: .zero)
        _ = try registry.startActivity("egg", spec: Fixtures.spec(), caller: ":1.2", now: .zero)
        _ = try registry.setContent(slot: "compact_leading", view: Fixtures.text("♪"), caller: ":1.1", now: .zero)
        _ = try registry.setContent(slot: "home", view: Fixtures.text("home"), caller: ":1.2", now: .zero)
        return registry
    }

    @Test func storedValuesKeepTheirTypes() throws {
        let values: [PropValue] = [
            .bool(false), .int(.min), .uint(.max), .double(-0.5), .double(.infinity), .string("é ✓"),
            .array([]), .structure([.double(1)]), .dictionary(["k": .node(Fixtures.text("t"))]),
        ]
        for value in values {
            let data = try JSONEncoder().encode(StoredValue(value))
            #expect(try JSONDecoder().decode(StoredValue.self, from: data).propValue == value, "\(value)")
        }
        let nan = try JSONDecoder().decode(StoredValue.self, from: JSONEncoder().encode(StoredValue(.double(.nan))))
        if case .double(let back) = nan.propValue { #expect(back.isNaN) } else { Issue.record("NaN lost its type") }
    }

    @Test func aSavedRegistryRestoresEverythingWithoutOwners() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let registry = try populated()
        let store = StateStore(directory: temp.stateDirectory)
        try await store.save(StateFile(registry: registry.snapshot, settings: ["reduce_motion": .bool(true)]), generation: 1)
        guard case .loaded(let file) = await store.load() else { Issue.record("not loaded"); return }
        #expect(file.settings == ["reduce_motion": .bool(true)])
        let (restored, warnings) = Registry.restoring(file.registry, grace: 10, now: BrokerTime(seconds: 100))
        #expect(warnings.isEmpty)
        #expect(restored.displayOrder == registry.displayOrder)
        #expect(restored.compactContentModule == "music")
        #expect(restored.nextExpiry == BrokerTime(seconds: 110))
        for (id, module) in registry.modules {
            let back = try #require(restored.modules[id])
            #expect(back.owner == .vanished(until: BrokerTime(seconds: 110)))
            #expect(back.info == module.info && back.content == module.content)
            for (activityId, activity) in module.activities {
                var expected = activity
                expected.adoptable = true
                #expect(back.activities[activityId] == expected)
            }
        }
        #expect(restored.snapshot == registry.snapshot)
        // New starts keep counting after the restored ones.
        var next = restored
        _ = try next.register(module: "music", info: [:], caller: ":1.9", now: BrokerTime(seconds: 101))
        _ = try next.startActivity("late", spec: Fixtures.spec(relevance: 2), caller: ":1.9", now: BrokerTime(seconds: 101))
        #expect(next.displayOrder.map(\.description) == ["music/song", "music/late", "timer/egg"])
    }

    /// A person's dismissals outlive a broker restart: the restored module still refuses to
    /// start them again, and a dismissed id that breaks the id rules is set aside by name.
    @Test func dismissalsAreSavedAndRestoredThroughTheIdCheck() throws {
        var registry = try populated()
        _ = try registry.dismiss(ActivityRef(module: "timer", activity: "egg"), options: [:], now: .zero)
        var snapshot = registry.snapshot
        #expect(snapshot.modules.first { $0.id == "timer" }?.dismissed == ["egg"])
        snapshot.modules[snapshot.modules.firstIndex { $0.id == "music" }!].dismissed = ["bad id!"]
        let (restored, rejected) = Registry.restoring(snapshot, grace: 10, now: .zero)
        #expect(restored.modules["timer"]?.dismissed == ["egg"])
        #expect(restored.modules["music"]?.dismissed == [])
        #expect(rejected.map(\.warning).contains { $0.contains("bad id!") }, "\(rejected)")
        var next = restored
        _ = try next.register(module: "timer", info: [:], caller: ":1.9", now: .zero)
        #expect(throws: RegistryError.self) { try next.startActivity("egg", spec: Fixtures.spec(), caller: ":1.9", now: .zero) }
    }

    @Test func writesAreAtomicAndLeaveNoTemporaryFiles() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let store = StateStore(directory: temp.stateDirectory)
        let registry = try populated()
        try await store.save(StateFile(registry: registry.snapshot), generation: 1)
        try await store.save(StateFile(registry: .empty), generation: 2)
        // An older generation arriving late is dropped.
        try await store.save(StateFile(registry: registry.snapshot), generation: 1)
        let names = try FileManager.default.contentsOfDirectory(atPath: temp.stateDirectory.path)
        #expect(names == ["state.json"])
        guard case .loaded(let file) = await store.load() else { Issue.record("not loaded"); return }
        #expect(file.registry == .empty)
        let text = try String(contentsOf: store.fileURL, encoding: .utf8)
        #expect(text.contains("\"format\":\"nook-state\"") && text.contains("\"version\":1"))
    }

    @Test func aCorruptFileIsMovedAsideNotFatal() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let store = StateStore(directory: temp.stateDirectory)
        try FileManager.default.createDirectory(at: temp.stateDirectory, withIntermediateDirectories: true)
        try "{\"format\": \"nook-state\", \"version\": 1, \"registry\": {".write(to: store.fileURL, atomically: true, encoding: .utf8)
        guard case .corrupt(_, let movedTo) = await store.load() else { Issue.record("a truncated file was accepted"); return }
        let moved = try #require(movedTo)
        #expect(FileManager.default.fileExists(atPath: moved) && !FileManager.default.fileExists(atPath: store.fileURL.path))
        guard case .empty = await store.load() else { Issue.record("the corrupt file is still in the way"); return }
        // Another program's JSON, or a future version, is not ours to read either.
        try "{\"format\": \"nook-state\", \"version\": 99, \"registry\": {\"counter\": 0, \"modules\": []}}".write(to: store.fileURL, atomically: true, encoding: .utf8)
        guard case .corrupt(let reason, _) = await store.load() else { Issue.record("version 99 was accepted"); return }
        #expect(reason.contains("99"))
    }

    @Test func restoringRevalidatesAndDropsWhatNoLongerPasses() throws {
        var snapshot = try populated().snapshot
        snapshot.modules[0].activities[0].views["minimal"] = StoredNode(RawNode(kind: "sparkles"))
        snapshot.modules[1].id = "bad id"
        let (restored, rejected) = Registry.restoring(snapshot, now: .zero)
        #expect(rejected.map(\.name) == [#"module "bad id""#, #"activity "song" of module "music""#], "\(rejected)")
        #expect(rejected.allSatisfy { !$0.reason.isEmpty })
        #expect(restored.modules.count == 1)
    }

    /// Restore goes through the live entry points, so the registry's limits (whatever they are
    /// now) refuse stored entries exactly as they refuse calls.
    @Test func restoringAppliesTheLimitsLiveCallsGet() throws {
        let snapshot = try populated().snapshot
        var short = RegistryLimits.standard
        short.maxInfoStringBytes = 4  // "Music" is 5 bytes: Register would refuse it
        let (withoutMusic, refusedModules) = Registry.restoring(snapshot, limits: short, now: .zero)
        #expect(refusedModules.map(\.name) == [#"module "music""#])
        #expect(refusedModules.first?.reason.contains("at most 4") == true, "\(refusedModules)")
        #expect(withoutMusic.modules.keys.sorted() == ["timer"])

        var tiny = RegistryLimits.standard
        tiny.view.maxNodes = 0  // no view fits: StartActivity and SetContent would refuse them all
        let (empty, refusedViews) = Registry.restoring(snapshot, limits: tiny, now: .zero)
        #expect(Set(refusedViews.map(\.name)) == [
            #"activity "song" of module "music""#, #"activity "egg" of module "timer""#,
            #"content compact_leading of module "music""#, #"content home of module "timer""#,
        ])
        #expect(empty.modules.count == 2 && empty.displayOrder.isEmpty)
    }

    /// Start orders with gaps and near the counter's maximum are renumbered from 1, keeping
    /// the display order across modules and which module's compact content is shown.
    @Test func restoringRenumbersTheOrderKeepingTheDisplayOrder() throws {
        var snapshot = try populated().snapshot
        snapshot.counter = .max
        snapshot.modules[0].compactOrder = .max - 1  // music's compact content, set last
        snapshot.modules[0].activities[0].startOrder = .max - 5  // music/song
        snapshot.modules[1].activities[0].startOrder = 7  // timer/egg, started first
        snapshot.modules[0].activities[0].relevance = 0
        let (restored, rejected) = Registry.restoring(snapshot, now: .zero)
        #expect(rejected.isEmpty)
        #expect(restored.displayOrder.map(\.description) == ["timer/egg", "music/song"])
        #expect(restored.compactContentModule == "music")
        #expect(restored.snapshot.counter == 3)
    }

    /// Set-aside names never collide, even for two files set aside at the very same instant.
    @Test func twoCorruptFilesSetAsideInTheSameSecondAreBothKept() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let instant = Date(timeIntervalSince1970: 1_800_000_000)
        let store = StateStore(directory: temp.stateDirectory, clock: { instant })
        try FileManager.default.createDirectory(at: temp.stateDirectory, withIntermediateDirectories: true)
        var moved: [String] = []
        for text in ["first {", "second {"] {
            try text.write(to: store.fileURL, atomically: true, encoding: .utf8)
            guard case .corrupt(_, let path?) = await store.load() else { Issue.record("not moved aside"); return }
            moved.append(path)
        }
        #expect(Set(moved).count == 2, "\(moved)")
        #expect(moved.map { (try? String(contentsOfFile: $0, encoding: .utf8)) ?? "" } == ["first {", "second {"])
        #expect(moved.allSatisfy { ($0 as NSString).lastPathComponent.hasPrefix("state.corrupt-20270115T080000Z-") }, "\(moved)")
    }

    @Test func theDefaultDirectoryFollowsXDG() {
        #expect(StateStore.defaultDirectory(environment: ["XDG_STATE_HOME": "/x/state", "HOME": "/home/u"]).path == "/x/state/nook")
        #expect(StateStore.defaultDirectory(environment: ["HOME": "/home/u"]).path == "/home/u/.local/state/nook")
        #expect(StateStore.defaultDirectory(environment: ["XDG_STATE_HOME": "relative", "HOME": "/home/u"]).path == "/home/u/.local/state/nook")
    }
}
