import Foundation
import NookBus
import NookCore
import NookTestSupport
import Testing
@testable import NookCtlKit

/// Issue 19's "Done when", as a shell script would live it: nookctl as a real process against
/// the real nookd on a private bus, a subscribed renderer connection watching, and nookd
/// killed with -9 and restarted in between.
@Suite(.serialized) struct ActivityScenarioTests {
    /// A private bus, a nookd with a 200 ms module grace, and nookctl runs with their own
    /// `XDG_STATE_HOME` (where nookctl remembers content), each process ended by its pid.
    final class Shell: StoppableFixture, @unchecked Sendable {
        // @unchecked: `nookd` is replaced only by `killAndRestartNookd`, from the test's one task.
        let stack: NookStack
        let bus: PrivateBus
        private(set) var nookd: NookdProcess
        var scratch: URL { stack.scratch }
        static let grace = "200ms"

        static func start() async throws -> Shell {
            try await NookStack.build(named: "nookctl-activity") { stack in
                let bus = try stack.bus()
                return Shell(stack: stack, bus: bus, nookd: try await stack.nookd(on: bus, grace: grace))
            }
        }

        private init(stack: NookStack, bus: PrivateBus, nookd: NookdProcess) {
            self.stack = stack
            self.bus = bus
            self.nookd = nookd
        }

        var stateFile: URL { scratch.appendingPathComponent("state/state.json") }

        /// kill -9, once the broker has written `contains` (and no longer `lacks`) to its state
        /// file (it writes within a second of a change), then a new nookd on the same state
        /// directory. It waits until nookd has served past the crash-loop guard's window (its
        /// `nookd.starting` marker is gone): a kill -9 then is a user's, not a crash loop.
        func killAndRestartNookd(onceSaved contains: String, lacks: String) async throws {
            let file = stateFile
            #expect(await eventually {
                guard let text = try? String(contentsOf: file, encoding: .utf8) else { return false }
                return text.contains(contains) && !text.contains(lacks)
            }, "state.json never held \(contains) without \(lacks)")
            let marker = scratch.appendingPathComponent("state/nookd.starting")
            #expect(await eventually(timeout: .seconds(60), poll: .milliseconds(100)) { !FileManager.default.fileExists(atPath: marker.path) })
            await nookd.stop(SIGKILL)
            let watcher = try await BusConnection.connect(to: .address(bus.address))
            _ = await eventually { (try? await watcher.nameOwner(of: NookNames.busName)) == nil }
            await watcher.close()
            nookd = try await stack.nookd(on: bus, grace: Self.grace)
        }

        /// Runs the nookctl executable to its end: exit status and everything it printed.
        func nookctl(_ arguments: [String]) async throws -> (status: Int32?, output: String) {
            let process = try PackageProcess("nookctl", ["--address", bus.address] + arguments, logDirectory: scratch,
                                             environment: ["XDG_STATE_HOME": scratch.appendingPathComponent("xdg-state").path])
            guard await process.waitForExit(timeout: .seconds(60)) else {
                await process.stop(SIGKILL)
                return (nil, process.log + "\n(did not exit)")
            }
            return (process.exitStatus, process.log)
        }

        func state() async throws -> WireFields {
            let connection = try await BusConnection.connect(to: .address(bus.address), description: "scenario-state")
            defer { Task { await connection.close() } }
            return try WireFields(reply: try await NookControlClient(connection: connection, timeout: .seconds(20)).call(.getState).first ?? .bool(false))
        }

        func activities() async -> [String] {
            guard let state = try? await state() else { return [] }
            return ((try? StateText.activities(state)) ?? []).map { "\($0.module)/\($0.activity)" }
        }

        func stop() async { await stack.stop() }
    }

    /// A renderer: its own connection, subscribed, collecting every plan until nookd leaves.
    final class Renderer: Sendable {
        let connection: BusConnection
        let plans = PlanCollector()
        let task: Task<Void, Never>

        init(_ bus: PrivateBus) async throws {
            let connection = try await BusConnection.connect(to: .address(bus.address), description: "scenario-renderer")
            self.connection = connection
            let plans = self.plans
            task = Task { _ = try? await NookControlClient(connection: connection).subscribe(display: .defaultRenderer, limit: nil) { plans.append($0) } }
            #expect(await eventually { plans.plans.count >= 1 }, "no subscription plan")
        }

        /// The `value` of build/job's progress ring right of the notch in a plan's scene.
        static func ringValue(_ plan: DBusValue, owner: String = "build/job") -> Double? {
            let ring = (try? ReceivedPlan(reply: plan))?.scene.nodes.first { $0.owner == owner && $0.slot == "compact_trailing" && $0.kind == "progress" }
            return ring?.props["value"]?.lenientDouble
        }

        var last: DBusValue? { plans.plans.last?.plan }

        func close() async {
            task.cancel()
            _ = await task.value
            await connection.close()
        }
    }

    /// A recorded plan as NookCore reads it; nil for one it refuses.
    static func plan(_ recorded: RecordedPlan) -> ReceivedPlan? { try? ReceivedPlan(reply: recorded.plan) }

    @Test func aShellScriptPublishesUpdatesAndEndsAnActivityWithNookctlAlone() async throws {
        try await Shell.start().use { shell in
            let first = try await Renderer(shell.bus)

            // 1. Start: exit 0.
            let start = try await shell.nookctl(["activity", "start", "build/job", "--title", "Building", "--progress", "0.1", "--expires", "10m"])
            #expect(start.status == 0, "\(start.output)")
            #expect(start.output.contains("started build/job, dismissed in 10m"), "\(start.output)")
            #expect(await eventually { first.last.flatMap { Renderer.ringValue($0) } == 0.1 }, "the renderer never showed 10 %")

            // 2. Past the grace period, with nookctl long gone: a module holding a connection-lifetime
            // activity leaves after nookctl did; once its activity has ended, build's grace is over too.
            let witness = try await BusConnection.connect(to: .address(shell.bus.address))
            func call(_ member: String, _ arguments: [DBusValue]) async throws {
                _ = try await witness.call(destination: NookNames.busName, path: ObjectPath.nook, interface: NookNames.modulesInterface,
                                           member: member, arguments: arguments, timeout: .seconds(20))
            }
            let text = DBusValue.structure([.string("text"), WireCodec.vardict(["text": .string("w")]), .array(element: "v", [])])
            try await call("Register", [.string("witness"), WireCodec.vardict([:])])
            try await call("StartActivity", [.string("w"), .vardict(["accessibility_label": .string("w"), "compact_leading": .variant(text),
                                                                       "compact_trailing": .variant(text), "minimal": .variant(text)])])
            #expect(await eventually { await shell.activities().contains("witness/w") })
            await witness.close()
            #expect(await eventually { await !shell.activities().contains("witness/w") }, "the witness outlived its grace")
            #expect(await shell.activities() == ["build/job"])
            let module = try #require(try await shell.state().records("modules").first { (try? $0.string("module")) == "build" })
            #expect(try module.bool("connected") == false)
            #expect(first.last.flatMap { Renderer.ringValue($0) } == 0.1, "the renderer no longer shows it")
            #expect(!first.plans.plans.contains { Self.plan($0)?.cause == .activityEnded && Self.plan($0)?.fromContent.contains("build") == true })

            // 5. kill -9 and a restart lose nothing.
            try await shell.killAndRestartNookd(onceSaved: "Building, 10%", lacks: "witness")
            await first.close()
            let second = try await Renderer(shell.bus)
            let restored = await shell.activities()
            #expect(restored == ["build/job"], "\(restored) \(shell.nookd.log)")
            #expect(second.plans.plans.first.flatMap { Renderer.ringValue($0.plan) } == 0.1, "the restarted nookd's scene lacks it")

            // 3. Update: only the progress changes; the title nookctl remembered stays.
            let before = second.plans.plans.count
            let update = try await shell.nookctl(["activity", "update", "build/job", "--progress", "0.6"])
            #expect(update.status == 0, "\(update.output)")
            let changed = await eventually { second.plans.plans.dropFirst(before).contains { Renderer.ringValue($0.plan) == 0.6 } }
            #expect(changed, "no plan showed 60 %")
            let plan = try #require(second.plans.plans.dropFirst(before).first { Renderer.ringValue($0.plan) == 0.6 })
            // UpdateActivity's cause in the contract is `activity_updated` (`content_changed` is SetContent's).
            #expect(Self.plan(plan)?.cause == .activityUpdated, "\(String(describing: Self.plan(plan)?.cause))")
            let label = try #require(try await shell.state().records("items").first).string("accessibility_label")
            #expect(label == "Building, 60%")

            try await shell.killAndRestartNookd(onceSaved: "Building, 60%", lacks: "Building, 10%")
            await second.close()
            let third = try await Renderer(shell.bus)
            #expect(third.plans.plans.first.flatMap { Renderer.ringValue($0.plan) } == 0.6, "the update was lost to the restart")

            // 4. End removes it.
            let end = try await shell.nookctl(["activity", "end", "build/job"])
            #expect(end.status == 0, "\(end.output) \(shell.nookd.log)")
            #expect(await shell.activities().isEmpty)
            #expect(await eventually { third.plans.plans.contains { Self.plan($0)?.cause == .activityEnded } })
            await third.close()
        }
    }

    /// Issue 38, finding 13: `--view-json -` reads at most its documented limit from standard
    /// input (`/dev/zero` used to be read without end, then trap), and what nookctl remembers
    /// of an activity is the user's alone (0600 files in a 0700 directory). Finding 8: a FIFO
    /// as `--image` is refused by `stat` before anything is sent.
    @Test func standardInputIsBoundedAImageFIFOIsRefusedAndRecordsArePrivate() async throws {
        try await Shell.start().use { shell in
            // Under a 4 GiB address-space limit, so nookctl as it was fails by trapping within
            // seconds instead of eating the machine's memory.
            func fromStandardInput(_ input: String, _ arguments: [String]) async throws -> (status: Int32?, output: String) {
                let nookctl = try PackageProcess.executable("nookctl").path
                let process = try PackageProcess(
                    "/bin/sh", ["-c", "ulimit -v 4194304; exec \"$0\" \"$@\" < \(input)", nookctl, "--address", shell.bus.address] + arguments,
                    logDirectory: shell.scratch, environment: ["XDG_STATE_HOME": shell.scratch.appendingPathComponent("xdg-state").path])
                guard await process.waitForExit(timeout: .seconds(60)) else {
                    await process.stop(SIGKILL)
                    return (nil, process.log + "\n(did not exit)")
                }
                return (process.exitStatus, process.log)
            }
            let zeros = try await fromStandardInput("/dev/zero", ["activity", "start", "build/zero", "--view-json", "-"])
            #expect(zeros.status == 1, "\(zeros.output)")
            #expect(zeros.output.contains("nookctl: --view-json (standard input): more than 4 MiB (the limit); nothing was sent"), "\(zeros.output)")
            // Bytes that are no JSON at all, under the limit: refused as such, no trap.
            let noise = shell.scratch.appendingPathComponent("noise.bin")
            var generator = SystemRandomNumberGenerator()
            try Data((0..<(1 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: noise)
            let garbage = try await fromStandardInput(noise.path, ["activity", "start", "build/noise", "--view-json", "-"])
            #expect(garbage.status == 1 && garbage.output.contains("--view-json (standard input): $: not valid JSON"), "\(garbage.output)")
            // A file past the limit is refused the same way.
            let big = shell.scratch.appendingPathComponent("big.json")
            try Data(repeating: UInt8(ascii: " "), count: 5 << 20).write(to: big)
            let tooBig = try await shell.nookctl(["activity", "start", "build/big", "--view-json", big.path])
            #expect(tooBig.status == 1 && tooBig.output.contains("--view-json \(big.path): more than 4 MiB (the limit)"), "\(tooBig.output)")

            let fifo = shell.scratch.appendingPathComponent("icon.png").path
            #expect(mkfifo(fifo, 0o600) == 0)
            let piped = try await shell.nookctl(["activity", "start", "build/pipe", "--title", "Piped", "--image", fifo])
            #expect(piped.status == 1 && piped.output.contains("nookctl: --image: \(fifo) is a FIFO, not a regular file"), "\(piped.output)")
            #expect(await shell.activities().isEmpty, "a refused activity was published")

            // A record left 0644 in a 0755 directory by an older nookctl: the next save makes
            // both the user's alone.
            let records = shell.scratch.appendingPathComponent("xdg-state/nookctl/activities")
            try FileManager.default.createDirectory(at: records, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
            let started = try await shell.nookctl(["activity", "start", "build/job", "--title", "Secret title"])
            #expect(started.status == 0, "\(started.output)")
            let record = records.appendingPathComponent("build~job.json")
            func mode(_ url: URL) -> Int? { (try? FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue }
            #expect(mode(record) == 0o600, "\(String(mode(record) ?? -1, radix: 8))")
            #expect(mode(records) == 0o700, "\(String(mode(records) ?? -1, radix: 8))")
            #expect(try String(contentsOf: record, encoding: .utf8).contains("Secret title"))
            let updated = try await shell.nookctl(["activity", "update", "build/job", "--progress", "0.5"])
            #expect(updated.status == 0, "\(updated.output)")
            #expect(mode(record) == 0o600)
            #expect(try FileManager.default.contentsOfDirectory(atPath: records.path) == ["build~job.json"], "a temporary file was left")
        }
    }

    @Test func badInputIsRefusedClearly() async throws {
        try await Shell.start().use { shell in
            let tooLong = try await shell.nookctl(["activity", "start", "build/job", "--title", "Building", "--expires", "48h"])
            #expect(tooLong.status == 2 && tooLong.output.contains("at most 24h"), "\(tooLong.output)")

            let file = shell.scratch.appendingPathComponent("view.json")
            try #"{"accessibility_label": "x", "compact_leading": {"kind": "text"}, "compact_trailing": {"kind": "text"}, "minimal": {"kind": "text"}, "expanded": {"kind": "vstack", "children": [{"kind": "text"}, {"kind": "text"}, {"kind": "text", "props": {"font_size": "x"}}]}}"#
                .write(to: file, atomically: true, encoding: .utf8)
            let malformed = try await shell.nookctl(["activity", "start", "build/job", "--view-json", file.path])
            #expect(malformed.status == 1, "\(malformed.output)")
            #expect(malformed.output.contains(#"$.expanded.children[2].props.font_size: expected a number, found "x""#), "\(malformed.output)")
            #expect(await shell.activities().isEmpty, "a refused view published nothing")

            // The same document, fixed, starts it (and the label comes from the JSON).
            try #"{"accessibility_label": "From JSON", "compact_leading": {"kind": "text", "props": {"text": "J"}}, "compact_trailing": {"kind": "text", "props": {"text": "1"}}, "minimal": {"kind": "text", "props": {"text": "J"}}}"#
                .write(to: file, atomically: true, encoding: .utf8)
            let good = try await shell.nookctl(["activity", "start", "build/json", "--view-json", file.path])
            #expect(good.status == 0, "\(good.output)")
            #expect(try await shell.state().records("items").first?.string("accessibility_label") == "From JSON")

            // A module another live connection holds stays ModuleTaken, said plainly.
            let owner = try await BusConnection.connect(to: .address(shell.bus.address))
            _ = try await owner.call(destination: NookNames.busName, path: ObjectPath.nook, interface: NookNames.modulesInterface,
                                     member: "Register", arguments: [.string("taken"), WireCodec.vardict([:])], timeout: .seconds(20))
            let taken = try await shell.nookctl(["activity", "start", "taken/x", "--title", "T"])
            #expect(taken.status == 1, "\(taken.output)")
            #expect(taken.output.contains("module 'taken' belongs to a running program (org.nook.Nook1.Error.ModuleTaken)"), "\(taken.output)")
            await owner.close()

            // `list` shows what is live, as text and as JSON.
            let list = try await shell.nookctl(["activity", "list", "--json"])
            let items = try #require(try JSONSerialization.jsonObject(with: Data(list.output.utf8)) as? [[String: Any]], "\(list.output)")
            #expect(items.map { "\($0["module"] ?? "")/\($0["activity"] ?? "")" } == ["build/json"])
        }
    }

    /// `activity start --dismissible off` through the real nookctl and nookd: the renderer's
    /// plan lists the activity `undismissible` (no close control, no dismiss gesture);
    /// `update --dismissible on` takes it off the list; `activity end` still ends it.
    @Test func dismissibleOffPublishesAnActivityAPersonCannotDismiss() async throws {
        try await Shell.start().use { shell in
            let renderer = try await Renderer(shell.bus)
            @Sendable func undismissible(_ plan: DBusValue?) -> [String]? { plan.flatMap { try? ReceivedPlan(reply: $0) }?.undismissible }
            let start = try await shell.nookctl(["activity", "start", "build/job", "--title", "Building", "--dismissible", "off"])
            #expect(start.status == 0, "\(start.output)")
            #expect(await eventually { undismissible(renderer.last) == ["build/job"] }, "the plan never listed build/job undismissible")

            let update = try await shell.nookctl(["activity", "update", "build/job", "--dismissible", "on"])
            #expect(update.status == 0, "\(update.output)")
            #expect(await eventually { undismissible(renderer.last) == [] }, "build/job stayed undismissible: \(shell.nookd.log)")

            let bad = try await shell.nookctl(["activity", "update", "build/job", "--dismissible", "maybe"])
            #expect(bad.status == 2 && bad.output.contains("on or off"), "\(bad.output)")

            let end = try await shell.nookctl(["activity", "end", "build/job"])
            #expect(end.status == 0, "\(end.output)")
            #expect(await shell.activities().isEmpty)
            await renderer.close()
        }
    }
}
