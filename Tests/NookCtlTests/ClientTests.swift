import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import NookBus
import Testing
@testable import NookCtlKit

/// Every verb end to end through `NookCtl.run`, over a private bus, against `FakeBroker`:
/// exit status, what is printed, and what reached the broker.
@Suite(.serialized) struct ClientTests {
    struct Run {
        let status: NookCtlKit.ExitStatus
        let out: String
        let err: String
        let calls: [String]
    }

    /// Starts a bus and a fake broker, runs `arguments` with `--address`, and stops both.
    func run(_ arguments: [String], broker: Bool = true) async throws -> Run {
        let bus = try TestBus()
        defer { bus.stop() }
        let fake = broker ? try await FakeBroker(address: bus.address, plans: PlanFixture.tour.map(PlanFixture.wire)) : nil
        let captured = CapturedOutput()
        let status = await NookCtl.run(arguments: ["--address", bus.address] + arguments, output: captured.sink)
        let calls = fake?.calls ?? []
        await fake?.close()
        return Run(status: status, out: captured.out, err: captured.err, calls: calls)
    }

    @Test func status() async throws {
        let result = try await run(["status"])
        #expect(result.status == NookCtlKit.ExitStatus.ok)
        #expect(result.out == StateText.status(WireRecord(FakeBroker.state)))
        #expect(result.out.contains("  2. timer/tea"))
        #expect(result.calls == ["Control.GetState()"])
    }

    @Test func activitiesAndModules() async throws {
        #expect(try await run(["activities"]).out == "music/song\ntimer/tea\n")
        #expect(try await run(["modules"]).out == "music\ntimer\n")
    }

    @Test func showAndHidePrintNothing() async throws {
        let show = try await run(["show"])
        #expect(show.status == NookCtlKit.ExitStatus.ok && show.out.isEmpty && show.calls == ["Control.Show()"])
        #expect(try await run(["hide"]).calls == ["Control.Hide()"])
    }

    @Test func verbsThatCausePlansPrintTheSerial() async throws {
        let open = try await run(["open", "--home", "music", "--via", "hover"])
        #expect(open.status == NookCtlKit.ExitStatus.ok)
        #expect(open.out == "42\n")
        #expect(open.calls == [#"Control.Open({"module":"music","onto":"home","via":"hover"})"#])
        #expect(try await run(["close"]).calls == ["Control.Close({})"])
        #expect(try await run(["peek", "music/song"]).calls == [#"Control.Peek("music", "song")"#])
        #expect(try await run(["unpeek"]).calls == ["Control.EndPeek()"])
        #expect(try await run(["companion", "music"]).calls == [#"Control.OpenCompanion("music")"#])
        #expect(try await run(["companion", "--close"]).calls == ["Control.CloseCompanion()"])
        let display = try await run(["display", "--width", "1920", "--height", "1080", "--notch", "0x0"])
        #expect(display.out == "42\n")
        #expect(display.calls == [#"Control.DisplayChanged({"height":1080,"notch_height":0,"notch_width":0,"width":1920})"#])
    }

    @Test func aDBusErrorPrintsItsNameAndMessageAndExits1() async throws {
        let result = try await run(["peek", "music/nope"])
        #expect(result.status == NookCtlKit.ExitStatus.failure)
        #expect(result.out.isEmpty)
        #expect(result.err == "nookctl: org.nook.Nook1.Error.UnknownActivity: no activity 'nope' in module 'music'\n")
    }

    @Test func noBrokerOnTheBusIsADBusError() async throws {
        let result = try await run(["status"], broker: false)
        #expect(result.status == NookCtlKit.ExitStatus.failure)
        #expect(result.err.hasPrefix("nookctl: org.freedesktop.DBus.Error.ServiceUnknown: "))
    }

    @Test func usageErrorsExit2WithTheVerbsHelpAndTouchNoBus() async {
        let captured = CapturedOutput()
        let status = await NookCtl.run(arguments: ["--address", "unix:path=/nonexistent", "open", "--via", "click"], output: captured.sink)
        #expect(status == NookCtlKit.ExitStatus.usage)
        #expect(captured.err.hasPrefix("nookctl: option '--via' must be claim or hover, found 'click'\nusage: nookctl open "))
        #expect(captured.err.contains("calls: Control.Open(a{sv}) -> t"))
        #expect(captured.out.isEmpty)

        let bare = CapturedOutput()
        #expect(await NookCtl.run(arguments: [], output: bare.sink) == NookCtlKit.ExitStatus.usage)
        #expect(bare.err == "nookctl: missing verb\nusage: nookctl [--address ADDR] VERB [ARGUMENTS...] (nookctl --help lists the verbs)\n")
    }

    @Test func helpExits0OnStandardOutput() async {
        let captured = CapturedOutput()
        #expect(await NookCtl.run(arguments: ["record", "--help"], output: captured.sink) == NookCtlKit.ExitStatus.ok)
        #expect(captured.out.hasPrefix("usage: nookctl record --svg FILE"))
        #expect(captured.err.isEmpty)
    }

    @Test func endAsksControlToEndTheActivity() async throws {
        let result = try await run(["end", "timer/tea"])
        #expect(result.status == NookCtlKit.ExitStatus.ok)
        #expect(result.calls.first?.hasPrefix("Control.EndActivity(") == true, "\(result.calls)")
        #expect(result.out == "ended timer/tea\n")
    }

    @Test func previewExplainsOrPrintsJSON() async throws {
        let explained = try await run(["preview", "open", "--activity", "music/song"])
        #expect(explained.out == PlanExplanation.text(PlanFixture.wire(PlanFixture.tour[1])))
        #expect(explained.calls == [#"Control.PreviewPlan("open", {"activity":"song","module":"music","onto":"activity"})"#])
        let json = try await run(["preview", "close", "--json"])
        #expect(json.out == PlanJSON.json(PlanFixture.wire(PlanFixture.tour[1])) + "\n")
    }

    @Test func reduceMotionThemeAndAnimation() async throws {
        #expect(try await run(["set", "reduce-motion", "on"]).calls == ["Properties.Set(ReduceMotion, true)"])
        let show = try await run(["theme", "show"])
        #expect(show.out == "motion.hideDip = \"150ms\"\n")
        #expect(try await run(["theme", "set", "motion.hideDip", "90ms"]).calls == [#"Control.SetTokens({"motion.hideDip":"90ms"})"#])
        #expect(try await run(["animation", "set", "peek", "linear:0.2"]).calls
                == [#"Control.SetSharedElementAnimation("peek", {"duration":0.2,"type":"linear"})"#])
    }

    @Test func themeLoadSendsTheFilesTokensAndAMissingFileFails() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("nookctl-theme-\(UUID().uuidString).json")
        try #"{"motion": {"hideDip": {"$type": "duration", "$value": "90ms"}}}"#.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let loaded = try await run(["theme", "load", file.path])
        #expect(loaded.status == NookCtlKit.ExitStatus.ok)
        #expect(loaded.out == "sent 1 tokens\n")
        #expect(loaded.calls == [#"Control.SetTokens({"motion.hideDip":"90ms"})"#])
        let missing = try await run(["theme", "load", "/nonexistent/theme.json"])
        #expect(missing.status == NookCtlKit.ExitStatus.failure && missing.calls.isEmpty)
        #expect(missing.err.hasPrefix("nookctl: cannot read /nonexistent/theme.json"))
    }

    @Test func watchPrintsOneLinePerPlan() async throws {
        let result = try await run(["watch", "--count", "3"])
        #expect(result.status == NookCtlKit.ExitStatus.ok)
        #expect(result.out == PlanFixture.tour.prefix(3).map { PlanSummary.line(PlanFixture.wire($0)) + "\n" }.joined())
        #expect(result.calls.first?.hasPrefix("Render.Subscribe({") == true)
        #expect(result.calls.last == "Render.Unsubscribe()")
    }

    @Test func watchJSONIsOneObjectPerLine() async throws {
        let result = try await run(["watch", "--json", "--count", "2"])
        let lines = result.out.split(separator: "\n")
        #expect(lines.count == 2)
        for line in lines { #expect(try JSONSerialization.jsonObject(with: Data(line.utf8)) is [String: Any]) }
    }

    @Test func recordWritesOneSVGOfEveryPlan() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("nookctl-\(UUID().uuidString).svg")
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try await run(["record", "--svg", file.path, "--count", "5"])
        #expect(result.status == NookCtlKit.ExitStatus.ok)
        #expect(result.out == "wrote \(file.path): 5 plans\n")
        let svg = try String(contentsOf: file, encoding: .utf8)
        #expect(XMLParser(data: Data(svg.utf8)).parse())
        #expect(svg.contains("data-plans=\"5\""))
        #expect(svg.contains("id=\"element-2-0\""))
    }

    @Test func watchEndsWithStatus1WhenTheBrokerLeaves() async throws {
        let bus = try TestBus()
        defer { bus.stop() }
        let fake = try await FakeBroker(address: bus.address, plans: Array(PlanFixture.tour.map(PlanFixture.wire).prefix(2)))
        let captured = CapturedOutput()
        let watching = Task { await NookCtl.run(arguments: ["--address", bus.address, "watch"], output: captured.sink) }
        while captured.out.split(separator: "\n").count < 2 { try await Task.sleep(for: .milliseconds(10)) }
        await fake.close()
        let status = await watching.value
        #expect(status == NookCtlKit.ExitStatus.failure)
        #expect(captured.err == "nookctl: org.nook.Nook1 left the bus\n")
        #expect(captured.out.split(separator: "\n").count == 2)
    }

    @Test func recordStopsAfterItsSeconds() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("nookctl-\(UUID().uuidString).svg")
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try await run(["record", "--svg", file.path, "--seconds", "0.5"])
        #expect(result.status == NookCtlKit.ExitStatus.ok)
        #expect(result.out == "wrote \(file.path): 5 plans\n")
    }
}
