import Foundation
import NookBus
import NookCore
import Testing
@testable import NookCtlKit

/// `nookctl activity start|update|end|list` on the command line: what each parses to, what it
/// calls, and the usage errors (exit status 2, before any bus is touched).
@Suite struct ActivityArgumentTests {
    func command(_ arguments: [String]) throws -> ActivityCommand {
        guard case .activity(let command) = try ArgumentParser.parse(arguments).command else {
            throw ActivityProblem("not an activity command")
        }
        return command
    }

    func usageError(_ arguments: [String]) -> String? {
        do {
            _ = try ArgumentParser.parse(arguments)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func startParsesEveryFlag() throws {
        let parsed = try command(["activity", "start", "build/job", "--title", "Building", "--subtitle", "linking", "--symbol", "hammer.fill",
                                  "--progress", "40%", "--timer", "1h30m", "--expires", "2h", "--relevance", "-5"])
        var expected = ActivityRequest(module: "build", activity: "job")
        expected.content.title = .set("Building")
        expected.content.subtitle = .set("linking")
        expected.content.symbol = .set("hammer.fill")
        expected.content.progress = .set(0.4)
        expected.content.timer = .set(5400)
        expected.expires = 7200
        expected.relevance = -5
        #expect(parsed == .start(expected))
        #expect(parsed.calls.map(\.member) == ["Register", "StartActivity"])
        #expect(parsed.calls.allSatisfy { $0.interface == "org.nook.Nook1.Modules" && $0.signature == "sa{sv}" })
        #expect(parsed.calls[0].arguments == [.string("build"), WireCodec.vardict(["display_name": .string("build")])])
    }

    @Test func updateTakesOnlyWhatIsGivenAndEmptyClears() throws {
        let parsed = try command(["activity", "update", "build/job", "--progress", "0.6", "--subtitle", ""])
        var expected = ActivityRequest(module: "build", activity: "job")
        expected.content.progress = .set(0.6)
        expected.content.subtitle = .clear
        #expect(parsed == .update(expected))
        #expect(parsed.calls.map(\.member) == ["Register", "UpdateActivity"])
    }

    @Test func endAndListCalls() throws {
        let end = try command(["activity", "end", "build/job", "--immediate"])
        #expect(end == .end(module: "build", activity: "job", dismissal: "immediate"))
        #expect(end.sent.last == SentCall("org.nook.Nook1.Modules", "EndActivity",
                                              [.string("job"), WireCodec.vardict(["dismissal": .string("immediate")])], signature: "sa{sv}"))
        #expect(try command(["activity", "list", "--json"]) == .list(json: true))
        #expect(try command(["activity", "list"]).sent == [SentCall(.getState)])
    }

    /// `--dismissible off` publishes an activity a person cannot end by hand (the spec key
    /// `dismissible` false); `--dismissible on` on update makes it dismissible again; without
    /// the flag the key is not sent (the broker's default, true, or what was set, stays).
    @Test func dismissibleFlagSetsTheSpecKey() throws {
        guard case .start(let start) = try command(["activity", "start", "b/j", "--title", "T", "--dismissible", "off"]) else {
            Issue.record("not a start")
            return
        }
        #expect(start.dismissible == false)
        let spec = try ActivitySpec.build(start, isStart: true, previous: nil, json: nil, imageURI: nil, now: 1_000_000)
        #expect(spec.values["dismissible"] == .bool(false))

        guard case .update(let update) = try command(["activity", "update", "b/j", "--dismissible", "on"]) else {
            Issue.record("not an update")
            return
        }
        #expect(update.dismissible == true)
        let changes = try ActivitySpec.build(update, isStart: false, previous: nil, json: nil, imageURI: nil, now: 1_000_000)
        #expect(changes.values == ["dismissible": .bool(true)] && changes.record == .keep)

        guard case .start(let plain) = try command(["activity", "start", "b/j", "--title", "T"]) else { return }
        #expect(plain.dismissible == nil)
        let plainSpec = try ActivitySpec.build(plain, isStart: true, previous: nil, json: nil, imageURI: nil, now: 1_000_000)
        #expect(plainSpec.values["dismissible"] == nil)

        #expect(usageError(["activity", "start", "b/j", "--title", "T", "--dismissible", "no"])?.contains("on or off") == true)
    }

    /// Each refused command line, by name, with the words its message must carry.
    @Test func usageErrorsSayWhatIsWrong() {
        let cases: [(String, [String], String)] = [
            ("expires past the cap", ["start", "b/j", "--title", "T", "--expires", "48h"], "at most 24h"),
            ("timer past the cap", ["start", "b/j", "--title", "T", "--timer", "25h"], "at most 24h"),
            ("expires not a duration", ["start", "b/j", "--title", "T", "--expires", "soon"], "such as 90s, 30m, 2h or 1h30m"),
            ("no title", ["start", "b/j", "--progress", "0.1"], "missing option --title"),
            ("empty title", ["start", "b/j", "--title", ""], "non-empty"),
            ("progress above 1", ["start", "b/j", "--title", "T", "--progress", "1.5"], "from 0 to 1"),
            ("progress NaN", ["start", "b/j", "--title", "T", "--progress", "nan"], "from 0 to 1"),
            ("relevance out of range", ["start", "b/j", "--title", "T", "--relevance", "1e300"], "relevance"),
            ("symbol and image", ["start", "b/j", "--title", "T", "--symbol", "x", "--image", "a.png"], "--symbol or --image"),
            ("json with built flags", ["start", "b/j", "--view-json", "v.json", "--progress", "0.1"], "leave out --progress"),
            ("update with nothing", ["update", "b/j"], "nothing to update"),
            ("no activity", ["start", "build", "--title", "T"], "MODULE/ACTIVITY"),
        ]
        for (name, arguments, words) in cases {
            let message = usageError(["activity"] + arguments)
            #expect(message?.contains(words) == true, "\(name): \(message ?? "accepted")")
        }
    }

    /// The usage error reaches the shell as exit status 2, naming the cap, without a bus.
    @Test func expiresBeyondTheCapExitsWithUsage() async {
        let captured = CapturedOutput()
        let status = await NookCtl.run(arguments: ["--address", "unix:path=/nonexistent", "activity", "start", "build/job",
                                                   "--title", "Building", "--expires", "48h"], output: captured.sink)
        #expect(status == NookCtlKit.ExitStatus.usage)
        #expect(captured.err.hasPrefix("nookctl: option '--expires' must be at most 24h"), "\(captured.err)")
        #expect(captured.err.contains("usage: nookctl activity start"))
    }

    @Test func durationsAsPeopleTypeThem() {
        let cases: [(String, Double?)] = [
            ("90", 90), ("90s", 90), ("5m", 300), ("1h", 3600), ("1h30m", 5400), ("2m30s", 150), ("1.5h", 5400),
            ("0", nil), ("", nil), ("5x", nil), ("1h30", nil), ("m", nil), ("-5m", nil), ("1e99h", nil),
        ]
        for (text, expected) in cases {
            let read: Double = DurationArgument.seconds(text) ?? -1
            #expect(read == (expected ?? -1), "\(text)")
        }
        #expect(DurationArgument.text(3600) == "1h" && DurationArgument.text(5400) == "1h30m" && DurationArgument.text(61) == "1m1s")
    }

    @Test func helpListsTheActivityVerbs() {
        let overview = HelpText.overview
        for verb in ["activity start", "activity update", "activity end", "activity list", "activity finish"] { #expect(overview.contains(verb)) }
        #expect(HelpText.help(for: "activity").contains("--view-json FILE"))
    }

    /// The completions are generated from the verb table, so they offer the new group too.
    @Test func shellsCompleteTheActivityGroup() async throws {
        #expect(try await CompletionAndManPageTests.bashCompletes(["nookctl", "activity", ""]) == ["end", "finish", "list", "start", "update"])
        #expect(try await CompletionAndManPageTests.fishCompletes("nookctl activity ") == ["end", "finish", "list", "start", "update"])
    }

    /// `activity finish`: its flags, its default peek (8 s, as documented), and a peek past an hour refused.
    @Test func finishParsesItsFlagsAndRefusesAPeekPastAnHour() throws {
        var expected = ActivityFinish(module: "tea", activity: "pot")
        #expect(try command(["activity", "finish", "tea/pot"]) == .finish(expected))
        #expect(expected.peekSeconds == 8 && expected.playsSound && !expected.wait)
        expected.wait = true
        expected.playsSound = false
        expected.expires = 120
        expected.peekSeconds = 30
        #expect(try command(["activity", "finish", "tea/pot", "--wait", "--no-sound", "--expires", "2m", "--peek", "30s"]) == .finish(expected))
        #expect(usageError(["activity", "finish", "tea/pot", "--peek", "2h"])?.contains("--peek") == true)
        // `start --no-sound` reaches the background finish.
        guard case .start(let request) = try command(["activity", "start", "tea/pot", "--title", "Tea", "--timer", "4m", "--no-sound"]) else {
            Issue.record("not a start")
            return
        }
        #expect(!request.playsSound)
    }
}
