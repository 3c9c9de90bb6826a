import Testing
@testable import NookBroker
@testable import NookCore

/// Views and specs the registry tests share.
enum Fixtures {
    static func text(_ text: String, shared: String? = nil) -> RawNode {
        var props: [String: PropValue] = ["text": .string(text)]
        if let shared { props["shared"] = .dictionary(["id": .string(shared)]) }
        return RawNode(kind: "text", props: props)
    }

    static func spec(
        label: String = "Now playing", relevance: Double? = nil, sequence: UInt64? = nil, shared: String? = nil,
        extra: [String: PropValue] = [:]
    ) -> [String: PropValue] {
        var spec: [String: PropValue] = [
            "accessibility_label": .string(label),
            "compact_leading": .node(text("L", shared: shared)),
            "compact_trailing": .node(text("T")),
            "minimal": .node(text("M")),
        ]
        if let relevance { spec["relevance"] = .double(relevance) }
        if let sequence { spec["sequence"] = .uint(sequence) }
        return spec.merging(extra) { $1 }
    }
}

@Suite struct RegistryTests {
    let a = ":1.10", b = ":1.11", c = ":1.12"
    let t0 = BrokerTime.zero

    func registered(_ modules: [(String, String)] = [("music", ":1.10")]) throws -> Registry {
        var registry = Registry()
        for (id, connection) in modules { _ = try registry.register(module: id, info: [:], caller: connection, now: t0) }
        return registry
    }

    func expectError(_ kind: RegistryError.Kind, mentioning text: String, _ body: () throws(RegistryError) -> Void) {
        do {
            try body()
            Issue.record("expected \(kind)")
        } catch {
            #expect(error.kind == kind, "\(error)")
            #expect(error.message.contains(text), "\(error.message) should mention \(text)")
        }
    }

    // MARK: Registration

    @Test func registerTracksThePeerAndPersists() throws {
        var registry = Registry()
        let actions = try registry.register(module: "music", info: ["display_name": .string("Music"), "version": .string("1")], caller: a, now: t0)
        #expect(actions == [.trackPeer(a), .persist])
        #expect(registry.modules["music"]?.info == ModuleInfo(displayName: "Music", version: "1"))
        #expect(registry.module(ownedBy: a) == "music")
        // Registering again from the same connection is fine.
        #expect(try registry.register(module: "music", info: [:], caller: a, now: t0) == [.persist])
    }

    @Test func anIdHeldByALiveConnectionIsTaken() throws {
        var registry = try registered()
        expectError(.moduleTaken, mentioning: "\"music\"") { () throws(RegistryError) in
            _ = try registry.register(module: "music", info: [:], caller: b, now: t0)
        }
    }

    @Test func invalidIdsAreRefusedNamingTheId() throws {
        var registry = Registry()
        expectError(.invalidId, mentioning: "\"bad id\"") { () throws(RegistryError) in
            _ = try registry.register(module: "bad id", info: [:], caller: a, now: t0)
        }
        registry = try registered()
        expectError(.invalidId, mentioning: "\"x/y\"") { () throws(RegistryError) in
            _ = try registry.startActivity("x/y", spec: Fixtures.spec(), caller: a, now: t0)
        }
    }

    @Test func oneModulePerConnection() throws {
        var registry = try registered()
        expectError(.invalidArgs, mentioning: "\"music\"") { () throws(RegistryError) in
            _ = try registry.register(module: "timer", info: [:], caller: a, now: t0)
        }
    }

    @Test func infoKeysAreTypedAndUnknownOnesReported() throws {
        var registry = Registry()
        expectError(.invalidArgs, mentioning: "'display_name'") { () throws(RegistryError) in
            _ = try registry.register(module: "music", info: ["display_name": .int(1)], caller: a, now: t0)
        }
        let actions = try registry.register(module: "music", info: ["colour": .string("red")], caller: a, now: t0)
        #expect(actions.diagnostics(to: a).map(\.code) == [.unknownKey])
        #expect(actions.diagnostics(to: a).first?.message.contains("'colour'") == true)
    }

    @Test func callsWithoutRegistrationAreRefused() {
        var registry = Registry()
        expectError(.notRegistered, mentioning: a) { () throws(RegistryError) in
            _ = try registry.startActivity("song", spec: Fixtures.spec(), caller: a, now: t0)
        }
        expectError(.notRegistered, mentioning: a) { () throws(RegistryError) in _ = try registry.unregister(caller: a, now: t0) }
        expectError(.notRegistered, mentioning: a) { () throws(RegistryError) in
            _ = try registry.setContent(slot: "home", view: Fixtures.text("x"), caller: a, now: t0)
        }
    }

    @Test func onlyTheOwnerMayChangeAModule() throws {
        var registry = try registered([("music", a), ("timer", b)])
        _ = try registry.startActivity("song", spec: Fixtures.spec(), caller: a, now: t0)
        // Another connection naming the module is denied, whether or not it holds one itself.
        for caller in [b, c] {
            expectError(.accessDenied, mentioning: "\"music\"") { () throws(RegistryError) in
                _ = try registry.updateActivity("song", changes: ["module": .string("music"), "relevance": .double(1)], caller: caller, now: t0)
            }
            expectError(.accessDenied, mentioning: "\"music\"") { () throws(RegistryError) in
                _ = try registry.endActivity("song", options: ["module": .string("music")], caller: caller, now: t0)
            }
        }
        // Without the key a connection only ever reaches its own module.
        expectError(.unknownActivity, mentioning: "\"song\"") { () throws(RegistryError) in
            _ = try registry.endActivity("song", options: [:], caller: b, now: t0)
        }
        expectError(.unknownModule, mentioning: "\"radio\"") { () throws(RegistryError) in
            _ = try registry.endActivity("song", options: ["module": .string("radio")], caller: a, now: t0)
        }
        #expect(registry.displayOrder == [ActivityRef(module: "music", activity: "song")])
    }

    // MARK: Activities

    @Test func startUpdateEndProduceSceneChanges() throws {
        var registry = try registered()
        var actions = try registry.startActivity("song", spec: Fixtures.spec(), caller: a, now: t0)
        #expect(actions.sceneChanges == [SceneChange(cause: .activityStarted, module: "music", activity: "song")])
        #expect(actions.persists)
        actions = try registry.updateActivity(
            "song", changes: ["accessibility_label": .string("Paused"), "animate": .bool(false), "animation": .string("snappy")],
            caller: a, now: t0)
        #expect(actions.sceneChanges == [SceneChange(cause: .activityUpdated, module: "music", activity: "song", animate: false, animation: "snappy")])
        #expect(registry.activity(ActivityRef(module: "music", activity: "song"))?.accessibilityLabel == "Paused")
        actions = try registry.endActivity("song", options: ["dismissal": .string("immediate")], caller: a, now: t0)
        #expect(actions.sceneChanges == [SceneChange(cause: .activityEnded, module: "music", activity: "song", dismissal: .immediate)])
        #expect(registry.displayOrder.isEmpty)
    }

    @Test func requiredKeysAndTypesAreChecked() throws {
        var registry = try registered()
        for key in ["accessibility_label", "compact_leading", "compact_trailing", "minimal"] {
            var spec = Fixtures.spec()
            spec[key] = nil
            expectError(.invalidArgs, mentioning: "'\(key)'") { () throws(RegistryError) in
                _ = try registry.startActivity("song", spec: spec, caller: a, now: t0)
            }
        }
        expectError(.invalidArgs, mentioning: "'relevance'") { () throws(RegistryError) in
            _ = try registry.startActivity("song", spec: Fixtures.spec(extra: ["relevance": .string("high")]), caller: a, now: t0)
        }
        expectError(.invalidArgs, mentioning: "'relevance'") { () throws(RegistryError) in
            _ = try registry.startActivity("song", spec: Fixtures.spec(extra: ["relevance": .double(.nan)]), caller: a, now: t0)
        }
        expectError(.invalidArgs, mentioning: "'minimal'") { () throws(RegistryError) in
            _ = try registry.startActivity("song", spec: Fixtures.spec(extra: ["minimal": .string("M")]), caller: a, now: t0)
        }
        expectError(.invalidArgs, mentioning: "'dismissal'") { () throws(RegistryError) in
            _ = try registry.startActivity("song", spec: Fixtures.spec(), caller: a, now: t0)
            _ = try registry.endActivity("song", options: ["dismissal": .string("later")], caller: a, now: t0)
        }
        // A refused call changed nothing: the activity started above is still there.
        #expect(registry.displayOrder.count == 1)
    }

    @Test func invalidViewsNameThePath() throws {
        var registry = try registered()
        var bad = Fixtures.spec()
        bad["compact_leading"] = .node(RawNode(kind: "hstack", children: [
            RawNode(kind: "text", props: ["shared": .dictionary(["id": .int(7)])]),
        ]))
        expectError(.invalidView, mentioning: "compact_leading/0.shared.id") { () throws(RegistryError) in
            _ = try registry.startActivity("song", spec: bad, caller: a, now: t0)
        }
        bad["compact_leading"] = .node(Fixtures.text("x", shared: "co ver"))
        expectError(.invalidId, mentioning: "compact_leading.shared.id") { () throws(RegistryError) in
            _ = try registry.startActivity("song", spec: bad, caller: a, now: t0)
        }
        var deep = Fixtures.text("leaf")
        for _ in 0..<40 { deep = RawNode(kind: "vstack", children: [deep]) }
        bad["compact_leading"] = .node(deep)
        expectError(.limitsExceeded, mentioning: "compact_leading/0") { () throws(RegistryError) in
            _ = try registry.startActivity("song", spec: bad, caller: a, now: t0)
        }
        #expect(registry.displayOrder.isEmpty)
    }

    @Test func viewErrorClassesAgreeWithTheCodec() {
        for code in ViewValidationError.Code.allCases {
            let kind = RegistryError.Kind.forView(code)
            let expected: RegistryError.Kind = code.isLimit ? .limitsExceeded : (code == .invalidId || code == .invalidGroupName) ? .invalidId : .invalidView
            #expect(kind == expected)
        }
    }

    @Test func aRefusedUpdateChangesNothing() throws {
        var registry = try registered()
        _ = try registry.startActivity("song", spec: Fixtures.spec(sequence: 1), caller: a, now: t0)
        let before = registry
        expectError(.invalidArgs, mentioning: "'relevance'") { () throws(RegistryError) in
            _ = try registry.updateActivity(
                "song", changes: ["accessibility_label": .string("new"), "sequence": .uint(2), "relevance": .bool(true)], caller: a, now: t0)
        }
        expectError(.invalidView, mentioning: "peek") { () throws(RegistryError) in
            _ = try registry.updateActivity("song", changes: ["minimal": .node(Fixtures.text("ok")), "peek": .node(RawNode(kind: "blob"))], caller: a, now: t0)
        }
        #expect(registry == before)
    }

    @Test func duplicateAndUnknownActivities() throws {
        var registry = try registered()
        _ = try registry.startActivity("song", spec: Fixtures.spec(), caller: a, now: t0)
        expectError(.activityExists, mentioning: "\"song\"") { () throws(RegistryError) in
            _ = try registry.startActivity("song", spec: Fixtures.spec(), caller: a, now: t0)
        }
        expectError(.unknownActivity, mentioning: "\"other\"") { () throws(RegistryError) in
            _ = try registry.updateActivity("other", changes: [:], caller: a, now: t0)
        }
        expectError(.unknownActivity, mentioning: "\"other\"") { () throws(RegistryError) in
            _ = try registry.endActivity("other", options: [:], caller: a, now: t0)
        }
    }

    @Test func unknownKeysBecomeInfoDiagnosticsForTheModule() throws {
        var registry = try registered()
        let actions = try registry.startActivity("song", spec: Fixtures.spec(extra: ["sparkle": .bool(true)]), caller: a, now: t0)
        let diagnostics = actions.diagnostics(to: a)
        #expect(diagnostics.map(\.code) == [.unknownKey])
        #expect(diagnostics[0].severity == .info && diagnostics[0].module == "music" && diagnostics[0].message.contains("'sparkle'"))
    }

    @Test func staleSequencesAreIgnoredWithADiagnosticToTheModuleOnly() throws {
        var registry = try registered([("music", a), ("timer", b)])
        _ = try registry.startActivity("song", spec: Fixtures.spec(sequence: 5), caller: a, now: t0)
        _ = try registry.updateActivity("song", changes: ["sequence": .uint(7), "accessibility_label": .string("seven")], caller: a, now: t0)
        let actions = try registry.updateActivity("song", changes: ["sequence": .uint(6), "accessibility_label": .string("six")], caller: a, now: t0)
        #expect(actions.sceneChanges.isEmpty && !actions.persists)
        #expect(actions.diagnostics(to: a).map(\.code) == [.staleUpdate])
        #expect(actions.diagnostics(to: a)[0].severity == .warning)
        #expect(actions.diagnostics(to: b).isEmpty)
        #expect(registry.activity(ActivityRef(module: "music", activity: "song"))?.accessibilityLabel == "seven")
        // The same sequence again, or a newer one, applies; an update without one always does.
        _ = try registry.updateActivity("song", changes: ["sequence": .uint(7), "accessibility_label": .string("again")], caller: a, now: t0)
        _ = try registry.updateActivity("song", changes: ["accessibility_label": .string("unsequenced")], caller: a, now: t0)
        #expect(registry.activity(ActivityRef(module: "music", activity: "song"))?.accessibilityLabel == "unsequenced")
    }

    @Test func primaryIsMostRelevantThenFirstStarted() throws {
        var registry = try registered([("music", a), ("timer", b)])
        _ = try registry.startActivity("song", spec: Fixtures.spec(relevance: 1), caller: a, now: t0)
        _ = try registry.startActivity("egg", spec: Fixtures.spec(relevance: 1), caller: b, now: t0)
        _ = try registry.startActivity("tea", spec: Fixtures.spec(relevance: 5), caller: b, now: t0)
        _ = try registry.startActivity("low", spec: Fixtures.spec(), caller: a, now: t0)
        #expect(registry.displayOrder.map(\.description) == ["timer/tea", "music/song", "timer/egg", "music/low"])
        #expect(registry.primaryActivity == ActivityRef(module: "timer", activity: "tea"))
        _ = try registry.updateActivity("low", changes: ["relevance": .double(9)], caller: a, now: t0)
        #expect(registry.primaryActivity == ActivityRef(module: "music", activity: "low"))
    }

    @Test func activityLimitPerModule() throws {
        var registry = Registry(limits: RegistryLimits(maxActivitiesPerModule: 2))
        _ = try registry.register(module: "music", info: [:], caller: a, now: t0)
        _ = try registry.startActivity("one", spec: Fixtures.spec(), caller: a, now: t0)
        _ = try registry.startActivity("two", spec: Fixtures.spec(), caller: a, now: t0)
        expectError(.limitsExceeded, mentioning: "maxActivitiesPerModule") { () throws(RegistryError) in
            _ = try registry.startActivity("three", spec: Fixtures.spec(), caller: a, now: t0)
        }
    }

    @Test func moduleAndPayloadLimits() throws {
        var registry = Registry(limits: RegistryLimits(maxModules: 1, maxPayloadBytes: 2000))
        _ = try registry.register(module: "music", info: [:], caller: a, now: t0)
        expectError(.limitsExceeded, mentioning: "maxModules") { () throws(RegistryError) in
            _ = try registry.register(module: "timer", info: [:], caller: b, now: t0)
        }
        expectError(.limitsExceeded, mentioning: "maxPayloadBytes") { () throws(RegistryError) in
            _ = try registry.startActivity("song", spec: Fixtures.spec(label: String(repeating: "x", count: 3000)), caller: a, now: t0)
        }
    }

    /// Issue 38, finding 7: modules without a live connection no longer lock the table. A
    /// full table ends the ownerless module used least recently for a new registration; only
    /// a table of live owners refuses.
    @Test func aFullModuleTableMakesRoomByEndingTheOwnerlessModuleUsedLeastRecently() throws {
        var registry = Registry(limits: RegistryLimits(maxModules: 3))
        let d = ":1.13"
        _ = try registry.register(module: "old", info: [:], caller: a, now: t0)
        _ = try registry.startActivity("one", spec: Fixtures.spec(), caller: a, now: t0)
        _ = try registry.register(module: "newer", info: [:], caller: b, now: t0)
        _ = try registry.startActivity("two", spec: Fixtures.spec(), caller: b, now: t0)
        _ = try registry.register(module: "live", info: [:], caller: c, now: t0)
        _ = registry.connectionLeft(b, now: t0)
        _ = registry.connectionLeft(a, now: t0)
        let actions = try registry.register(module: "fresh", info: [:], caller: d, now: t0)
        #expect(registry.modules.keys.sorted() == ["fresh", "live", "newer"])
        #expect(actions.contains(.sceneChanged(SceneChange(cause: .moduleVanished, module: "old", activity: "one", dismissal: .default))))
        #expect(actions.diagnostics(to: d).map(\.code) == [.moduleEvicted])
        // Every module has a live owner now but "newer": it goes next, then the table refuses.
        _ = try registry.register(module: "another", info: [:], caller: ":1.14", now: t0)
        #expect(registry.modules["newer"] == nil)
        expectError(.limitsExceeded, mentioning: "maxModules") { () throws(RegistryError) in
            _ = try registry.register(module: "last", info: [:], caller: ":1.15", now: t0)
        }
    }

    @Test func suffixingKicksInWithAnInfoDiagnostic() throws {
        var registry = try registered()
        var actions = try registry.startActivity("one", spec: Fixtures.spec(shared: "timer"), caller: a, now: t0)
        #expect(actions.diagnostics(to: a).isEmpty)
        actions = try registry.startActivity("two", spec: Fixtures.spec(shared: "timer"), caller: a, now: t0)
        let suffixed = actions.diagnostics(to: a).filter { $0.code == .idSuffixed }
        #expect(suffixed.count == 2 && suffixed.allSatisfy { $0.id == "timer" && $0.module == "music" })
        // Nothing new to say on an unrelated update.
        actions = try registry.updateActivity("two", changes: ["relevance": .double(2)], caller: a, now: t0)
        #expect(actions.diagnostics(to: a).isEmpty)
    }

    /// Rule 8 through updates: an update that starts marking an id another activity marks
    /// hears that it is suffixed, one that keeps its ids hears nothing new, and one that drops
    /// the shared id lets the other activity answer to the plain key again (its diagnostic
    /// goes). Updates skip working the diagnostics out again when the activity's ids stay.
    @Test func rule8_anUpdateThatStartsSharingAnIdHearsItIsSuffixed() throws {
        var registry = try registered()
        _ = try registry.startActivity("one", spec: Fixtures.spec(shared: "timer"), caller: a, now: t0)
        _ = try registry.startActivity("two", spec: Fixtures.spec(), caller: a, now: t0)
        var actions = try registry.updateActivity("two", changes: ["compact_leading": .node(Fixtures.text("L", shared: "timer"))], caller: a, now: t0)
        let suffixed = actions.diagnostics(to: a).filter { $0.code == .idSuffixed }
        #expect(suffixed.count == 2 && suffixed.allSatisfy { $0.id == "timer" && $0.module == "music" })
        #expect(registry.modules["music"]!.marks.suffixingDiagnostics.count == 2)
        // The same ids again, with other text: nothing new.
        actions = try registry.updateActivity("two", changes: ["compact_leading": .node(Fixtures.text("L2", shared: "timer"))], caller: a, now: t0)
        #expect(actions.diagnostics(to: a).filter { $0.code == .idSuffixed }.isEmpty)
        // The shared id dropped: no activity is suffixed any longer.
        _ = try registry.updateActivity("two", changes: ["compact_leading": .node(Fixtures.text("L"))], caller: a, now: t0)
        #expect(registry.modules["music"]!.marks.suffixingDiagnostics.isEmpty)
        #expect(registry.modules["music"]!.marks.answerKeys(activity: "one", id: "timer").keys == ["music/timer.one", "music/timer"])
    }

    // MARK: Content

    @Test func moduleContentAndTheCompactOwner() throws {
        var registry = try registered([("music", a), ("timer", b)])
        var actions = try registry.setContent(slot: "compact_leading", view: Fixtures.text("♪"), caller: a, now: t0)
        #expect(actions.sceneChanges == [SceneChange(cause: .contentChanged, module: "music", slot: .compactLeading)])
        _ = try registry.setContent(slot: "home", view: Fixtures.text("home"), caller: b, now: t0)
        #expect(registry.compactContentModule == "music")
        _ = try registry.setContent(slot: "compact_trailing", view: Fixtures.text("3:00"), caller: b, now: t0)
        #expect(registry.compactContentModule == "timer")
        _ = try registry.clearContent(slot: "compact_trailing", caller: b, now: t0)
        #expect(registry.compactContentModule == "music")
        actions = try registry.clearContent(slot: "compact_trailing", caller: b, now: t0)
        #expect(actions.isEmpty)
        expectError(.invalidArgs, mentioning: "\"minimal\"") { () throws(RegistryError) in
            _ = try registry.setContent(slot: "minimal", view: Fixtures.text("x"), caller: a, now: t0)
        }
        var noAnimation = Fixtures.text("x")
        noAnimation.props["animate"] = .bool(false)
        actions = try registry.setContent(slot: "widget", view: noAnimation, caller: a, now: t0)
        #expect(actions.sceneChanges.first?.animate == false)
    }

    // MARK: Leaving, grace, taking back

    @Test func unregisterEndsEverything() throws {
        var registry = try registered()
        _ = try registry.startActivity("song", spec: Fixtures.spec(), caller: a, now: t0)
        _ = try registry.setContent(slot: "home", view: Fixtures.text("home"), caller: a, now: t0)
        let actions = try registry.unregister(caller: a, now: t0)
        #expect(actions.sceneChanges == [
            SceneChange(cause: .activityEnded, module: "music", activity: "song", dismissal: .default),
            SceneChange(cause: .contentChanged, module: "music", slot: .home),
        ])
        #expect(actions.contains(.untrackPeer(a)) && actions.persists)
        #expect(registry.modules.isEmpty && registry.module(ownedBy: a) == nil)
        // The id is free again, for anyone.
        _ = try registry.register(module: "music", info: [:], caller: b, now: t0)
    }

    @Test func aVanishedModuleKeepsItsActivitiesForTheGracePeriod() throws {
        var registry = try registered()
        _ = try registry.startActivity("song", spec: Fixtures.spec(), caller: a, now: t0)
        #expect(registry.connectionLeft(a, now: BrokerTime(seconds: 1)) == [.untrackPeer(a)])
        #expect(registry.nextExpiry == BrokerTime(seconds: 11))
        #expect(registry.expire(now: BrokerTime(seconds: 10.9)).isEmpty)
        #expect(registry.displayOrder.count == 1)
        // The old connection can no longer act; nobody else can either, short of registering.
        expectError(.notRegistered, mentioning: a) { () throws(RegistryError) in
            _ = try registry.endActivity("song", options: [:], caller: a, now: t0)
        }
        expectError(.accessDenied, mentioning: "\"music\"") { () throws(RegistryError) in
            _ = try registry.endActivity("song", options: ["module": .string("music")], caller: b, now: t0)
        }
        let actions = registry.expire(now: BrokerTime(seconds: 11))
        #expect(actions.sceneChanges == [SceneChange(cause: .moduleVanished, module: "music", activity: "song", dismissal: .default)])
        #expect(actions.persists && registry.modules.isEmpty && registry.nextExpiry == nil)
    }

    @Test func aNewConnectionTakesTheModuleBackWithinGrace() throws {
        var registry = try registered()
        _ = try registry.startActivity("song", spec: Fixtures.spec(sequence: 3), caller: a, now: t0)
        _ = registry.connectionLeft(a, now: t0)
        let actions = try registry.register(module: "music", info: [:], caller: b, now: BrokerTime(seconds: 5))
        #expect(actions.contains(.trackPeer(b)) && actions.sceneChanges.isEmpty)
        #expect(actions.diagnostics(to: b).map(\.code) == [.moduleRestored])
        #expect(registry.module(ownedBy: b) == "music" && registry.nextExpiry == nil)
        #expect(registry.expire(now: BrokerTime(seconds: 60)).isEmpty)
        // A restarted module replays its start: the kept activity is replaced, once.
        let replay = try registry.startActivity("song", spec: Fixtures.spec(label: "replayed"), caller: b, now: t0)
        #expect(replay.sceneChanges.map(\.cause) == [.activityUpdated])
        expectError(.activityExists, mentioning: "\"song\"") { () throws(RegistryError) in
            _ = try registry.startActivity("song", spec: Fixtures.spec(), caller: b, now: t0)
        }
    }

    @Test func leavingWithoutAModuleChangesNothing() throws {
        var registry = try registered()
        #expect(registry.connectionLeft(b, now: t0).isEmpty)
        #expect(registry.module(ownedBy: a) == "music")
    }
}
