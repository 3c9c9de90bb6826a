import Foundation
import NookBus
import NookTestSupport
import Testing
@testable import NookCtlKit

/// Every verb end to end through `NookCtl.run` against the real nookd on a private bus, with
/// the real example modules publishing: exit status, what is printed, and what `GetState`
/// says afterwards.
@Suite(.serialized) struct ClientTests {
    typealias Status = NookCtlKit.ExitStatus

    /// The plan keys of CONTRACT.md's plan table.
    static let planKeys: Set<String> = [
        "serial", "interrupts", "cause", "from", "to", "from_content", "to_content", "conversion", "fresh_window",
        "reduce_motion", "chrome", "elements", "layout", "slots", "diagnostics", "scene",
    ]
    /// The keys of one `elements` entry in CONTRACT.md (`velocity` only when interrupted).
    static let elementKeys: Set<String> = [
        "from_path", "to_path", "key", "namespace", "module", "activity", "id", "from_slot", "to_slot", "from_rect", "to_rect",
        "style", "cross_fade", "hide_source", "clip", "properties", "anchor", "curve", "velocity",
    ]

    @Test func statusActivitiesAndModulesListWhatTheModulesPublished() async throws {
        try await LiveNook.with(timers: 2, music: true) { nook in
            let status = await nook.ctl(["status"])
            #expect(status.status == Status.ok, "\(status.err)")
            #expect(status.err.isEmpty)
            let state = try await nook.state()
            #expect(try status.out == StateText.status(state))
            #expect(status.out.contains("activities     3\n"))
            let activities = await nook.ctl(["activities"])
            #expect(activities.status == Status.ok)
            #expect(Set(activities.out.split(separator: "\n")) == ["music/song", "timer/t1", "timer/t2"])
            let modules = await nook.ctl(["modules"])
            #expect(modules.status == Status.ok)
            #expect(Set(modules.out.split(separator: "\n")) == ["music", "timer"])
        }
    }

    @Test func showAndHidePrintNothingAndChangeThePresentation() async throws {
        try await LiveNook.with(music: true) { nook in
            let show = await nook.ctl(["show"])
            #expect(show.status == Status.ok && show.out.isEmpty && show.err.isEmpty, "\(show)")
            let now = try await nook.state()
            #expect(try now.string("presentation") == "pill")
            #expect(await nook.ctl(["hide"]).status == Status.ok)
            let later = try await nook.state()
            #expect(try later.string("presentation") == "hidden")
        }
    }

    /// open, close, peek, unpeek, companion, display: each prints the serial of the plan it
    /// caused, which `GetState` then reports, and moves the presentation where it says.
    @Test func verbsThatCausePlansPrintTheirSerialAndChangeTheState() async throws {
        try await LiveNook.with(timers: 1, music: true) { nook in
            _ = await nook.ctl(["show"])
            var last: UInt64 = try await nook.state().uint("serial")
            let steps: [(arguments: [String], presentation: String, module: String)] = [
                (["open", "--home", "music", "--via", "hover"], "expanded", "music"),
                (["close"], "pill", ""),
                (["peek", "music/song"], "peek", "music"),
                (["unpeek"], "pill", ""),
                (["open", "--activity", "timer/t1"], "expanded", "timer"),
                (["close"], "pill", ""),
                (["open", "--board"], "expanded", ""),
                (["close"], "pill", ""),
                (["companion", "music"], "companion", "music"),
                (["companion", "--close"], "pill", ""),
                (["display", "--width", "1920", "--height", "1080", "--notch", "0x0"], "pill", ""),
            ]
            for step in steps {
                let run = await nook.ctl(step.arguments)
                #expect(run.status == Status.ok, "\(step.arguments): \(run.err)")
                let serial = try #require(UInt64(run.out.trimmingCharacters(in: .newlines)), "\(step.arguments) printed '\(run.out)'")
                #expect(run.out == "\(serial)\n")
                #expect(serial > last, "\(step.arguments): serial \(serial) after \(last)")
                last = serial
                let state = try await nook.state()
                #expect(try state.uint("serial") == serial, "\(step.arguments)")
                #expect(try state.string("presentation") == step.presentation, "\(step.arguments)")
                if !step.module.isEmpty { #expect(try state.string("module") == step.module, "\(step.arguments)") }
            }
        }
    }

    @Test func endRemovesTheActivity() async throws {
        try await LiveNook.with(timers: 2) { nook in
            let end = await nook.ctl(["end", "timer/t1", "--immediate"])
            #expect(end.status == Status.ok, "\(end.err)")
            #expect(end.out == "ended timer/t1\n")
            let now = try await nook.activities()
            #expect(now == ["timer/t2"])
            let again = await nook.ctl(["end", "timer/t1"])
            #expect(again.status == Status.failure)
            #expect(again.err.hasPrefix("nookctl: org.nook.Nook1.Error.UnknownActivity: "), "\(again.err)")
        }
    }

    /// A table of failures: each exits 1 and prints the D-Bus error's name and message.
    @Test func aDBusErrorPrintsItsNameAndMessageAndExits1() async throws {
        try await LiveNook.with(music: true) { nook in
            let cases: [(arguments: [String], error: String, mentions: String)] = [
                (["peek", "music/nope"], "org.nook.Nook1.Error.UnknownActivity", "nope"),
                (["open", "--home", "weather"], "org.nook.Nook1.Error.UnknownModule", "weather"),
                (["companion", "weather"], "org.nook.Nook1.Error.UnknownModule", "weather"),
                (["theme", "set", "motion.hideDip", "{no.such.token}"], "org.nook.Nook1.Error.InvalidTheme", "no.such.token"),
            ]
            for (arguments, error, mentions) in cases {
                let run = await nook.ctl(arguments)
                #expect(run.status == Status.failure, "\(arguments)")
                #expect(run.out.isEmpty, "\(arguments)")
                #expect(run.err.hasPrefix("nookctl: \(error): "), "\(arguments): \(run.err)")
                #expect(run.err.contains(mentions) && run.err.hasSuffix("\n") && run.err.split(separator: "\n").count == 1,
                        "\(arguments): \(run.err)")
            }
        }
    }

    @Test func noBrokerOnTheBusExits1SayingHowToStartIt() async throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let captured = CapturedOutput()
        let status = await NookCtl.run(arguments: ["--address", bus.address, "status"], output: captured.sink)
        #expect(status == Status.failure)
        #expect(captured.err == "nookctl: nookd is not running (start it with `systemctl --user start nookd`, or run `nookd`)\n",
                "\(captured.err)")
    }

    /// `toggle` opens the pill and closes the open nook, printing each plan's serial.
    @Test func toggleOpensThePillAndClosesTheOpenNook() async throws {
        try await LiveNook.with(music: true) { nook in
            _ = await nook.ctl(["show"])
            #expect(try await nook.state().string("presentation") == "pill")
            for expected in ["expanded", "pill", "expanded"] {
                let run = await nook.ctl(["toggle"])
                #expect(run.status == Status.ok, "\(run.err)")
                let serial = try #require(UInt64(run.out.trimmingCharacters(in: .newlines)), "toggle printed '\(run.out)'")
                let state = try await nook.state()
                #expect(try state.string("presentation") == expected)
                #expect(try state.uint("serial") == serial)
            }
        }
    }

    /// The executable's own exit codes: 0, 1 and 2, as a shell sees them.
    @Test func theExecutableExits0Or1Or2() async throws {
        try await LiveNook.with { nook in
            for (arguments, code) in [(["status"], Int32(0)), (["peek", "music/song"], 1), (["open", "--via", "click"], 2)] {
                let process = try nook.process(arguments)
                #expect(await process.waitForExit(), "\(arguments) did not exit")
                #expect(process.exitStatus == code, "\(arguments): \(process.log)")
            }
        }
    }

    @Test func usageErrorsExit2WithTheVerbsHelpAndTouchNoBus() async {
        let captured = CapturedOutput()
        let status = await NookCtl.run(arguments: ["--address", "unix:path=/nonexistent", "open", "--via", "click"], output: captured.sink)
        #expect(status == Status.usage)
        #expect(captured.err.hasPrefix("nookctl: option '--via' must be claim or hover, found 'click'\nusage: nookctl open "))
        #expect(captured.err.contains("calls: Control.Open(a{sv}) -> t"))
        #expect(captured.out.isEmpty)

        let bare = CapturedOutput()
        #expect(await NookCtl.run(arguments: [], output: bare.sink) == Status.usage)
        #expect(bare.err == "nookctl: missing verb\nusage: nookctl [--address ADDR] VERB [ARGUMENTS...] (nookctl --help lists the verbs)\n")
    }

    @Test func helpExits0OnStandardOutput() async {
        let captured = CapturedOutput()
        #expect(await NookCtl.run(arguments: ["record", "--help"], output: captured.sink) == Status.ok)
        #expect(captured.out.hasPrefix("usage: nookctl record --svg FILE"))
        #expect(captured.err.isEmpty)
    }

    /// `preview` explains the plan the broker would make and changes nothing; `--json` prints
    /// that plan as one object with the contract's keys.
    @Test func previewExplainsOrPrintsJSONAndChangesNothing() async throws {
        try await LiveNook.with(music: true) { nook in
            _ = await nook.ctl(["show"])
            let before = try await nook.state()
            let explained = await nook.ctl(["preview", "open", "--home", "music"])
            #expect(explained.status == Status.ok, "\(explained.err)")
            #expect(explained.out.contains("open"), "\(explained.out)")
            #expect(explained.out.contains("music/cover"), "the cover moves into the home:\n\(explained.out)")
            let json = await nook.ctl(["preview", "open", "--home", "music", "--json"])
            #expect(json.status == Status.ok)
            #expect(json.out.hasSuffix("}\n") && json.out.split(separator: "\n").count == 1)
            let plan = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
            #expect(Set(plan.keys).isSuperset(of: Self.planKeys), "missing \(Self.planKeys.subtracting(plan.keys))")
            #expect(plan["cause"] as? String == "open" && plan["to"] as? String == "expanded")
            #expect(plan["to_content"] as? String == "home:music")
            let elements = try #require(plan["elements"] as? [[String: Any]])
            #expect(elements.contains { $0["key"] as? String == "music/cover" }, "\(elements)")
            for element in elements { #expect(Set(element.keys).isSubset(of: Self.elementKeys), "\(element.keys)") }
            let after = try await nook.state()
            // The presentation is what a preview would have changed; the serial is not compared,
            // since the music module's own updates may make plans meanwhile.
            #expect(try after.string("presentation") == before.string("presentation"))
            #expect(try after.string("presentation") != "expanded")
        }
    }

    /// `watch --json`: one JSON object per line, one line per plan, with the contract's keys,
    /// in serial order; the subscription's fresh-window plan first.
    @Test func watchJSONPrintsOneContractObjectPerPlan() async throws {
        try await LiveNook.with(music: true) { nook in
            let captured = CapturedOutput()
            let address = nook.bus.address
            // No --count: the music module's own updates may have plans of their own between
            // the calls (under load they fall in frames apart); they are skipped below.
            let watching = Task { await NookCtl.run(arguments: ["--address", address, "watch", "--json"], output: captured.sink) }
            /// The call a plan line answers: the first of them among its `cause` and `causes`.
            @Sendable func answered(_ line: Substring) -> String? {
                guard let plan = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return "unparsable" }
                // A frame's plan names its last change `cause` and the others `causes`.
                let all = [plan["cause"] as? String ?? "?"] + (plan["causes"] as? [String] ?? [])
                return ["subscribe", "show", "open", "close"].first { all.contains($0) }
            }
            #expect(await eventually(timeout: .seconds(30)) { captured.lines.contains { answered($0) == "subscribe" } }, "watch printed no first plan")
            // Each call's plan is printed before the next call: calls within one frame would
            // share a plan (the broker coalesces per frame, Control calls too).
            for (cause, arguments) in [("show", ["show"]), ("open", ["open", "--home", "music"]), ("close", ["close"])] {
                #expect(await nook.ctl(arguments).status == Status.ok, "\(arguments)")
                #expect(await eventually(timeout: .seconds(30)) { captured.lines.contains { answered($0) == cause } }, "no plan for \(arguments)")
            }
            watching.cancel()
            #expect(await watching.value == Status.ok, "\(captured.err)")
            let lines = captured.lines
            var serials: [UInt64] = []
            var causes: [String] = []
            for line in lines {
                let plan = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
                #expect(Set(plan.keys).isSuperset(of: Self.planKeys), "missing \(Self.planKeys.subtracting(plan.keys))")
                serials.append((plan["serial"] as? NSNumber)?.uint64Value ?? 0)
                if let cause = answered(line) { causes.append(cause) }
                for element in plan["elements"] as? [[String: Any]] ?? [] {
                    #expect(Set(element.keys).isSubset(of: Self.elementKeys), "\(element.keys)")
                }
            }
            #expect(causes == ["subscribe", "show", "open", "close"], "\(causes)")
            #expect(serials == serials.sorted() && Set(serials).count == serials.count, "\(serials)")
        }
    }

    @Test func watchPrintsOneSummaryLinePerPlan() async throws {
        try await LiveNook.with(music: true) { nook in
            let captured = CapturedOutput()
            let address = nook.bus.address
            let watching = Task { await NookCtl.run(arguments: ["--address", address, "watch", "--count", "3"], output: captured.sink) }
            #expect(await eventually(timeout: .seconds(30)) { captured.lines.count >= 1 })
            // The music module may still be settling: its update can land before, after or in
            // the same frame as `show`, so `show` is looked for among the lines, and `hide`
            // makes a third plan if no update came.
            #expect(await nook.ctl(["show"]).status == Status.ok)
            #expect(await eventually(timeout: .seconds(30)) { captured.lines.dropFirst().contains { Self.names($0, cause: "show") } },
                    "\(captured.out)")
            _ = await nook.ctl(["hide"])
            #expect(await watching.value == Status.ok)
            let lines = captured.lines
            #expect(lines.count == 3, "\(captured.out)")
            #expect(lines.allSatisfy { $0.hasPrefix("#") && $0.contains(" -> ") && $0.contains("; moves ") }, "\(captured.out)")
            #expect(Self.names(lines[0], cause: "subscribe"), "\(captured.out)")
        }
    }

    /// Whether a `watch` line names `cause` as its plan's cause or among the frame's others.
    static func names(_ line: some StringProtocol, cause: String) -> Bool {
        guard let head = line.split(separator: ":", maxSplits: 1).first else { return false }
        return head.split(separator: " ").dropFirst().contains { $0.trimmingCharacters(in: CharacterSet(charactersIn: "(+,)")) == cause }
    }

    @Test func setReduceMotionOnAndOff() async throws {
        try await LiveNook.with { nook in
            #expect(await nook.ctl(["set", "reduce-motion", "on"]).status == Status.ok)
            let now = try await nook.state()
            #expect(try now.bool("reduce_motion") == true)
            #expect(await nook.ctl(["status"]).out.contains("reduce motion  on\n"))
            #expect(await nook.ctl(["set", "reduce-motion", "off"]).status == Status.ok)
            let later = try await nook.state()
            #expect(try later.bool("reduce_motion") == false)
        }
    }

    @Test func themeShowSetAndLoad() async throws {
        try await LiveNook.with { nook in
            let shown = await nook.ctl(["theme", "show"])
            #expect(shown.status == Status.ok)
            #expect(shown.out.contains("motion.hideDip = "), "\(shown.out)")

            let set = await nook.ctl(["theme", "set", "motion.hideDip", "90ms"])
            #expect(set.status == Status.ok && set.out.isEmpty, "\(set.err)")
            let hideDip = await nook.ctl(["theme", "show"]).out.split(separator: "\n").first { $0.hasPrefix("motion.hideDip = ") }
            #expect(hideDip.map { $0.contains("90") || $0.contains("0.09") } == true, "\(hideDip ?? "none")")

            let file = nook.scratch.appendingPathComponent("theme.json")
            try #"{"motion": {"hideDip": {"$type": "duration", "$value": "120ms"}}}"#.write(to: file, atomically: true, encoding: .utf8)
            let loaded = await nook.ctl(["theme", "load", file.path])
            #expect(loaded.status == Status.ok && loaded.out == "sent 1 tokens\n", "\(loaded.err)")
            let after = await nook.ctl(["theme", "show"]).out.split(separator: "\n").first { $0.hasPrefix("motion.hideDip = ") }
            #expect(after.map { $0.contains("120") || $0.contains("0.12") } == true, "\(after ?? "none")")

            // An alias cycle: refused whole, the previous theme stays.
            let bad = nook.scratch.appendingPathComponent("bad.json")
            try #"{"motion": {"hideDip": {"$type": "duration", "$value": "{motion.hideDip}"}}}"#
                .write(to: bad, atomically: true, encoding: .utf8)
            let refused = await nook.ctl(["theme", "load", bad.path])
            #expect(refused.status == Status.failure)
            #expect(refused.err.hasPrefix("nookctl: org.nook.Nook1.Error.InvalidTheme: "), "\(refused.err)")
            #expect(refused.err.contains("motion.hideDip"), "the message names the token: \(refused.err)")
            let kept = await nook.ctl(["theme", "show"]).out.split(separator: "\n").first { $0.hasPrefix("motion.hideDip = ") }
            #expect(kept == after)

            let missing = await nook.ctl(["theme", "load", "/nonexistent/theme.json"])
            #expect(missing.status == Status.failure)
            #expect(missing.err.hasPrefix("nookctl: cannot read /nonexistent/theme.json"))

            // Read up to the broker's limit for a theme, never whole (issue 38, finding 9's
            // nookctl half): /dev/zero used to be read without end.
            do {
                let endless = "/dev/zero"
                let huge = await nook.ctl(["theme", "load", endless])
                #expect(huge.status == Status.failure && huge.err == "nookctl: \(endless): more than 256 KiB (the limit of a theme); nothing was sent\n", "\(huge.err)")
            }
            let unchanged = await nook.ctl(["theme", "show"]).out.split(separator: "\n").first { $0.hasPrefix("motion.hideDip = ") }
            #expect(unchanged == after)
        }
    }

    /// `animation set peek linear:0.2`: the next peek's shared cover rides that curve, and
    /// `theme` puts the token's curve back.
    @Test func animationSetOverridesTheSharedElementCurve() async throws {
        try await LiveNook.with(music: true) { nook in
            _ = await nook.ctl(["show"])
            func coverCurve() async throws -> [String: Any] {
                let json = await nook.ctl(["preview", "peek", "music/song", "--json"]).out
                let plan = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
                let elements = plan["elements"] as? [[String: Any]] ?? []
                let cover = try #require(elements.first { ($0["key"] as? String)?.hasPrefix("music/cover") == true }, "\(elements)")
                return cover["curve"] as? [String: Any] ?? [:]
            }
            let set = await nook.ctl(["animation", "set", "peek", "linear:0.2"])
            #expect(set.status == Status.ok && set.out.isEmpty, "\(set.err)")
            let overridden = try await coverCurve()
            #expect(overridden["type"] as? String == "linear", "\(overridden)")
            #expect((overridden["duration"] as? Double).map { abs($0 - 0.2) < 1e-9 } == true, "\(overridden)")
            #expect(await nook.ctl(["animation", "set", "peek", "theme"]).status == Status.ok)
            #expect(try await coverCurve()["type"] as? String != "linear")
            let bad = await nook.ctl(["animation", "set", "sideways", "chrome"])
            #expect(bad.status == Status.usage)
        }
    }

    @Test func watchEndsWithStatus1WhenTheBrokerLeaves() async throws {
        let nook = try await LiveNook.start()
        let captured = CapturedOutput()
        let address = nook.bus.address
        let watching = Task { await NookCtl.run(arguments: ["--address", address, "watch"], output: captured.sink) }
        #expect(await eventually(timeout: .seconds(30)) { captured.lines.count >= 1 })
        await nook.nookd.stop()
        let status = await watching.value
        await nook.stop()
        #expect(status == Status.failure)
        #expect(captured.err == "nookctl: org.nook.Nook1 left the bus\n")
    }
}
