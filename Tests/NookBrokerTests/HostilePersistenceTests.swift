import Foundation
import Testing
import NookBus
import NookCore
import NookTestSupport

/// Issue 15, "nothing saved can crash it again", against the real nookd on a private bus:
/// hand-written poisoned state files, the crash-loop guard, set-aside names, failing disks.
@Suite struct HostilePersistenceTests {
    typealias State = HandWrittenState
    typealias Spec = BrokerIntegrationTests

    /// Restored modules wait this long for their process: a slow, loaded machine never sees
    /// them expire while a test looks at them.
    static let grace = "300s"

    static func start(_ bus: PrivateBus, _ directory: URL) async throws -> NookdProcess {
        try await NookdProcess(bus: bus, stateDirectory: directory, grace: grace)
    }

    /// Waits until the bus has dropped the dead nookd's name, so a new one can take it.
    static func nameFreed(_ client: BrokerClient) async {
        _ = await eventually { (try? await client.connection.nameOwner(of: "org.nook.Nook1")) == nil }
    }

    /// Kills `nookd` with SIGKILL and starts a new one on the same state directory.
    static func killAndRestart(_ nookd: NookdProcess, bus: PrivateBus, client: BrokerClient) async throws -> NookdProcess {
        await nookd.stop(SIGKILL)
        await nameFreed(client)
        return try await start(bus, nookd.stateDirectory)
    }

    /// Ends `nookd` as a crash would: frozen with SIGSTOP first (so its survival window cannot
    /// run out between the look and the kill), then killed with SIGKILL.
    /// - Returns: whether it died inside its window (its marker still there): an early death.
    static func crash(_ nookd: NookdProcess, client: BrokerClient) async -> Bool {
        nookd.signal(SIGSTOP)
        _ = await eventually { processState(nookd.pid) == "T" }
        let early = FileManager.default.fileExists(atPath: nookd.stateDirectory.appendingPathComponent("nookd.starting").path)
        await nookd.stop(SIGKILL)
        await nameFreed(client)
        return early
    }

    /// The state letter of `/proc/<pid>/stat` (`R`, `S`, `T` stopped, `Z`), "" when gone.
    static func processState(_ pid: Int32) -> String {
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        guard let close = stat.lastIndex(of: ")") else { return "" }
        return String(stat[close...].dropFirst().trimmingCharacters(in: .whitespaces).prefix(1))
    }

    static func string(_ state: Vardict, _ key: String) -> String? {
        if case .string(let text)? = state[key] { text } else { nil }
    }

    // MARK: Poisoned state files

    /// Every kind of entry the live calls refuse, and entries not even in the stored format,
    /// written into state.json by hand: each is set aside with a warning naming it and kept in
    /// state.rejected-*.json; the good entries are restored, and the cleaned file does not
    /// refuse anything on the next start.
    @Test func poisonedEntriesAreSetAsideAndTheRestIsRestored() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let directory = temp.stateDirectory
        let good = State.module("good", activities: [
            State.activity("fine", order: 1),
            State.activity("deep", order: 2, minimal: State.deep(40)),  // ViewLimits.maxDepth is 32
            State.activity("not-a-number", order: 3, minimal: State.text("M", ["width": ["d": "nan"]])),
            State.activity("negative", order: 4, minimal: State.text("M", ["width": ["d": -5]])),
            State.activity("sparkly", order: 5, minimal: State.node("sparkles")),  // no such node kind
            State.activity("bad id", order: 6),
            // Not even the stored format: a string where a number belongs.
            State.activity("wrong-type", order: 9).merging(["relevance": "high"]) { _, new in new },
        ], content: ["compact_leading": State.text("♪"), "home": State.node("sparkles")], compactOrder: 7)
        let file = State.file(
            modules: [
                good, State.module("bad module", activities: [State.activity("fine", order: 8)]),
                ["id": "broken", "display_name": "no activities key", "version": "1", "content": [:]],
            ],
            // Peek needs a peek view; "fine" has none.
            presentation: ["m": ["state": ["s": "peek"], "module": ["s": "good"], "activity": ["s": "fine"], "hidden_by_user": ["b": false]]],
            settings: [
                "reduce_motion": ["b": true],
                "convert": ["m": ["type": ["s": "spring"], "response": ["d": "nan"], "damping_fraction": ["d": 0.8]]],
                "peek": ["m": ["type": ["s": "chrome"]]],
            ],
            tokens: ["motion.hideDip": ["s": "150ms"], "motion.maxDuration": ["s": "banana"], "motion.stagger": ["q": 1]])
        try State.write(file, to: directory)
        let refused = [
            #"activity "deep" of module "good""#, #"activity "not-a-number" of module "good""#,
            #"activity "negative" of module "good""#, #"activity "sparkly" of module "good""#,
            #"activity "bad id" of module "good""#, #"content home of module "good""#, #"module "bad module""#,
            "setting convert", "theme override motion.maxDuration", "presentation",
            #"activity "wrong-type" of module "good""#, #"module "broken""#, "theme override motion.stagger",
        ]
        try await PrivateBus.with { bus in
            let nookd = try await Self.start(bus, directory)
            let client = try await BrokerClient.connect(bus)
            #expect(try await client.activities() == ["good/fine"], "\(nookd.log.suffix(4000))")
            let state = try await client.state()
            #expect(state["presentation"] == .string("pill"))
            #expect(state["reduce_motion"] == .bool(true))
            let log = nookd.log
            for name in refused {
                #expect(log.contains("warning: restoring state: set aside \(name): "), "no warning naming \(name): \(log.suffix(4000))")
            }
            // Kept where a person can find them, as they were stored.
            let kept = State.files(directory, prefix: "state.rejected-")
            #expect(kept.count == 1)
            let rejected = kept.first.flatMap { try? JSONSerialization.jsonObject(with: Data(contentsOf: $0)) as? [String: Any] }
            let entries = rejected?["rejected"] as? [[String: Any]] ?? []
            #expect(entries.count == refused.count, "\(entries)")
            #expect(Set(entries.compactMap { $0["activity"] as? String }) == ["deep", "not-a-number", "negative", "sparkly", "bad id", "wrong-type"])
            #expect(kept.first.map(State.text(of:))?.contains("bottom") == true, "the too-deep view is not kept whole")
            #expect(log.contains("refused entries kept in \(kept.first?.path ?? "?")"))
            // The good parts of each section apply, and the cleaned state is written back.
            let stateFile = directory.appendingPathComponent("state.json")
            #expect(await eventually {
                let text = State.text(of: stateFile)
                return text.contains("motion.hideDip") && text.contains("chrome") && !text.contains("banana") && !text.contains("sparkles")
            }, "\(State.text(of: stateFile))")
            await client.close()
            let restarted = try await Hostile.expectSurvivesRestart(nookd, bus: bus)
            #expect(!restarted.log.contains("restoring state: set aside"), "refused again: \(restarted.log.suffix(3000))")
            #expect(State.files(directory, prefix: "state.rejected-").count == 1)
            await restarted.stop()
        }
    }

    /// A saved module over `maxActivitiesPerModule` (32) keeps the first 32 started; the rest
    /// are set aside with a warning naming each.
    @Test func activitiesBeyondTheLimitAreSetAsideWithAWarningNamingThem() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let activities = (0..<34).map { State.activity(String(format: "a%02d", $0), order: UInt64($0 + 1)) }
        try State.write(State.file(modules: [State.module("many", activities: activities)]), to: temp.stateDirectory)
        try await PrivateBus.with { bus in
            let nookd = try await Self.start(bus, temp.stateDirectory)
            let client = try await BrokerClient.connect(bus)
            let restored = try await client.activities()
            #expect(restored == (0..<32).map { String(format: "many/a%02d", $0) })
            for id in ["a32", "a33"] {
                #expect(nookd.log.contains(#"warning: restoring state: set aside activity "\#(id)" of module "many": "#)
                        && nookd.log.contains("maxActivitiesPerModule"), "\(nookd.log.suffix(3000))")
            }
            await client.close()
            try await Hostile.expectSurvivesRestart(nookd, bus: bus).stop()
        }
    }

    /// A stored order counter at its maximum is renumbered on restore: a new activity after
    /// the restart cannot overflow it (it used to trap on the first new StartActivity).
    @Test func aStoredCounterAtItsMaximumCannotOverflow() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let max = UInt64.max
        try State.write(State.file(
            modules: [State.module("saved", activities: [State.activity("old", order: max)], content: ["compact_leading": State.text("S")], compactOrder: max - 1)],
            counter: max), to: temp.stateDirectory)
        try await PrivateBus.with { bus in
            let nookd = try await Self.start(bus, temp.stateDirectory)
            let client = try await BrokerClient.connect(bus)
            #expect(try await client.activities() == ["saved/old"], "\(nookd.log.suffix(3000))")
            try await client.register("fresh")
            try await client.start("new", Spec.spec())
            try await client.call("SetContent", [.string("compact_leading"), Spec.text("F").wireValue])
            // Same relevance: the one started first (the restored one) stays first.
            #expect(try await client.activities() == ["saved/old", "fresh/new"])
            await client.close()
            try await Hostile.expectSurvivesRestart(nookd, bus: bus).stop()
        }
    }

    // MARK: The crash-loop guard

    /// Two starts in a row that die early (here: SIGKILL right after start, as a crash would)
    /// make the third start set the state aside, say so at error level, and serve empty.
    @Test func twoEarlyDeathsInARowSetTheStateAside() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let directory = temp.stateDirectory
        try State.write(State.file(modules: [State.module("m", activities: [State.activity("kept", order: 1)])]), to: directory)
        try await PrivateBus.with { bus in
            let client = try await BrokerClient.connect(bus)
            defer { Task { await client.close() } }
            var nookd = try await Self.start(bus, directory)
            var inARow = 0
            // A machine so slow that a start outlives its window before the kill breaks the
            // row (as it should); then the row starts again.
            for _ in 0..<6 where inARow < 2 {
                #expect(try await client.activities() == ["m/kept"], "restored too early or not at all: \(nookd.log.suffix(3000))")
                inARow = await Self.crash(nookd, client: client) ? inARow + 1 : 0
                nookd = try await Self.start(bus, directory)
                if inARow == 1 {
                    // One early death is not a loop: warned about, the state still restored.
                    #expect(nookd.log.contains("warning: the previous nookd died within"), "\(nookd.log.suffix(3000))")
                }
            }
            try #require(inARow == 2, "never two early deaths in a row")
            #expect(try await client.activities() == [], "\(nookd.log.suffix(3000))")
            #expect(nookd.log.contains("error: crash loop: the last 2 starts died within"), "\(nookd.log.suffix(3000))")
            let aside = State.files(directory, prefix: "state.crashloop-")
            #expect(aside.count == 1)
            #expect(aside.first.map(State.text(of:))?.contains("\"kept\"") == true, "the set-aside state is not the saved one")
            #expect(nookd.log.contains("which was moved to \(aside.first?.path ?? "?")"))
            try await Hostile.expectSurvivesRestart(nookd, bus: bus).stop()
        }
    }

    /// Clean SIGTERM restarts never count, however quick; nor does a SIGKILL of a nookd that
    /// has served past the window (its marker is gone by then).
    @Test func cleanRestartsAndALongRunningKillDoNotTripTheGuard() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let directory = temp.stateDirectory
        let marker = directory.appendingPathComponent("nookd.starting")
        try State.write(State.file(modules: [State.module("m", activities: [State.activity("kept", order: 1)])]), to: directory)
        try await PrivateBus.with { bus in
            let client = try await BrokerClient.connect(bus)
            defer { Task { await client.close() } }
            for _ in 0..<3 {
                let quick = try await Self.start(bus, directory)
                #expect(await quick.stop() == 0)
                #expect(!FileManager.default.fileExists(atPath: marker.path), "a clean stop left its marker")
            }
            // An early death, one that lives past the window and is killed, an early death:
            // the long-running one breaks the row.
            let first = try await Self.start(bus, directory)
            _ = await Self.crash(first, client: client)
            let long = try await Self.start(bus, directory)
            #expect(await eventually(timeout: .seconds(90), poll: .milliseconds(200)) { !FileManager.default.fileExists(atPath: marker.path) },
                    "the marker outlived the survival window: \(long.log.suffix(2000))")
            #expect(await Self.crash(long, client: client) == false)
            let third = try await Self.start(bus, directory)
            _ = await Self.crash(third, client: client)
            let last = try await Self.start(bus, directory)
            #expect(try await client.activities() == ["m/kept"], "\(last.log.suffix(3000))")
            #expect(State.files(directory, prefix: "state.crashloop-").isEmpty)
            #expect(!last.log.contains("crash loop"))
            try await Hostile.expectSurvivesRestart(last, bus: bus).stop()
        }
    }

    // MARK: Set-aside names

    /// Two unreadable state files set aside by two starts are both kept, each whole.
    @Test func twoCorruptFilesSetAsideAreBothKept() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let directory = temp.stateDirectory
        let broken = ["{ \"format\": \"nook-state\", first", "{ \"format\": \"nook-state\", second"]
        try await PrivateBus.with { bus in
            try State.write(text: broken[0], to: directory)
            let first = try await Self.start(bus, directory)
            #expect(await first.stop() == 0)
            try State.write(text: broken[1], to: directory)
            let second = try await Self.start(bus, directory)
            let aside = State.files(directory, prefix: "state.corrupt-")
            #expect(Set(aside.map(State.text(of:))) == Set(broken), "\(aside)")
            #expect(second.log.contains("moved to \(aside.last?.path ?? "?")"))
            try await Hostile.expectSurvivesRestart(second, bus: bus).stop()
        }
    }

    /// A state.json that is a FIFO would block the read forever: it is set aside unread.
    @Test func aStateFileThatIsNotARegularFileIsSetAsideUnread() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let directory = temp.stateDirectory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        #expect(mkfifo(directory.appendingPathComponent("state.json").path, 0o600) == 0)
        try await PrivateBus.with { bus in
            let nookd = try await Self.start(bus, directory)
            #expect(nookd.log.contains("not a regular file"), "\(nookd.log.suffix(2000))")
            #expect(State.files(directory, prefix: "state.corrupt-").count == 1)
            try await Hostile.expectSurvivesRestart(nookd, bus: bus).stop()
        }
    }

    // MARK: Failing writes

    /// Makes the broker's temporary state file path a directory: open(2) fails with EISDIR,
    /// for root too. Returns the path, to remove it again.
    static func breakWrites(of nookd: NookdProcess) throws -> URL {
        let temp = nookd.stateDirectory.appendingPathComponent(".state.json.tmp-\(nookd.pid)")
        try FileManager.default.createDirectory(at: temp, withIntermediateDirectories: true)
        return temp
    }

    /// A write that fails is retried until it succeeds; meanwhile GetState says `failing` and
    /// why, and the log warns; once the cause is gone the activity is on disk, and survives
    /// a kill -9.
    @Test func aFailedWriteIsRetriedUntilItSucceeds() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let directory = temp.stateDirectory
        try await PrivateBus.with { bus in
            let nookd = try await Self.start(bus, directory)
            let client = try await BrokerClient.connect(bus)
            defer { Task { await client.close() } }
            try await client.register("m")
            try await client.start("before", Spec.spec())
            #expect(await eventually { FaultTests.storedActivities(directory) == ["m/before"] })
            #expect(Self.string(try await client.state(), "persistence") == "ok")

            let blocker = try Self.breakWrites(of: nookd)
            try await client.start("during", Spec.spec())
            #expect(try await eventually { Self.string(try await client.state(), "persistence") == "failing" }, "\(nookd.log.suffix(2000))")
            let error = Self.string(try await client.state(), "persistence_error") ?? ""
            #expect(error.contains(blocker.path), "persistence_error: \(error)")
            #expect(nookd.log.contains("warning: could not write the state file"))
            #expect(FaultTests.storedActivities(directory) == ["m/before"])

            try FileManager.default.removeItem(at: blocker)
            #expect(try await eventually { Self.string(try await client.state(), "persistence") == "ok" }, "\(nookd.log.suffix(2000))")
            #expect(try await client.state()["persistence_error"] == nil)
            #expect(FaultTests.storedActivities(directory) == ["m/before", "m/during"])
            #expect(nookd.log.contains("info: the state file is written again"))

            let restarted = try await Self.killAndRestart(nookd, bus: bus, client: client)
            #expect(Set(try await client.activities()) == ["m/before", "m/during"], "\(restarted.log.suffix(2000))")
            try await Hostile.expectSurvivesRestart(restarted, bus: bus).stop()
        }
    }

    /// SIGTERM while writes fail: the final write fails too, and nookd says so and exits 1
    /// instead of 0. The file keeps the last state that was written.
    @Test func sigtermExitsNonZeroWhenTheFinalWriteFails() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let directory = temp.stateDirectory
        try await PrivateBus.with { bus in
            let nookd = try await Self.start(bus, directory)
            let client = try await BrokerClient.connect(bus)
            defer { Task { await client.close() } }
            try await client.register("m")
            try await client.start("before", Spec.spec())
            #expect(await eventually { FaultTests.storedActivities(directory) == ["m/before"] })
            let blocker = try Self.breakWrites(of: nookd)
            try await client.start("during", Spec.spec())
            #expect(try await eventually { Self.string(try await client.state(), "persistence") == "failing" })
            #expect(await nookd.stop(SIGTERM) == 1, "\(nookd.log.suffix(2000))")
            #expect(nookd.log.contains("error: the final state write failed"))
            try FileManager.default.removeItem(at: blocker)
            let restarted = try await Self.start(bus, directory)
            #expect(try await client.activities() == ["m/before"])
            try await Hostile.expectSurvivesRestart(restarted, bus: bus).stop()
        }
    }
}
