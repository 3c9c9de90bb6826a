import Foundation
import NookBus
import NookCore
import NookTestSupport
import Testing
@testable import NookCtlKit

/// `nookctl status --json`, `--follow` and `--format waybar`: what a status bar runs (Waybar's
/// `custom/nook` with `exec: nookctl status --follow --format waybar`, eww's `deflisten`).
@Suite(.serialized) struct StatusFollowTests {
    typealias Status = NookCtlKit.ExitStatus

    @Test func jsonIsGetStateAsOneLine() async throws {
        try await LiveNook.with(timers: 1) { nook in
            let run = await nook.ctl(["status", "--json"])
            #expect(run.status == Status.ok, "\(run.err)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any], "\(run.out)")
            #expect(run.out.hasSuffix("}\n") && run.out.split(separator: "\n").count == 1)
            let items = try #require(object["items"] as? [[String: Any]])
            #expect(items.first?["module"] as? String == "timer" && items.first?["role"] as? String != nil, "\(items)")
            #expect(try object["presentation"] as? String == (try await nook.state()).string("presentation"))
        }
    }

    /// Each line is the JSON Waybar's `return-type: json` takes, and a change prints a new one.
    @Test func followWithTheWaybarFormatPrintsALinePerChange() async throws {
        try await LiveNook.with { nook in
            let module = try await BusConnection.connect(to: .address(nook.bus.address))
            func call(_ member: String, _ arguments: [DBusValue]) async throws {
                _ = try await module.call(destination: "org.nook.Nook1", path: "/org/nook/Nook1", interface: "org.nook.Nook1.Modules",
                                          member: member, arguments: arguments, timeout: .seconds(20))
            }
            func text(_ value: String) -> DBusValue { .structure([.string("text"), .vardict(["text": .string(value)]), .array(element: "v", [])]) }
            let captured = CapturedOutput()
            let address = nook.bus.address
            let following = Task { await NookCtl.run(arguments: ["--address", address, "status", "--follow", "--format", "waybar"], output: captured.sink) }
            #expect(await eventually { captured.lines.count >= 1 }, "no first line: \(captured.err)")
            try await call("Register", [.string("build"), .vardict([:])])
            try await call("StartActivity", [.string("ci"), .vardict([
                "accessibility_label": .string("Build: compiling"), "compact_leading": text("B"), "compact_trailing": text("1"), "minimal": text("B"),
            ])])
            let seen = await eventually { captured.lines.contains { $0.contains("Build: compiling") } }
            #expect(seen, "\(captured.out)")
            following.cancel()
            _ = await following.value
            let line = try #require(captured.lines.last { $0.contains("Build: compiling") })
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String], "\(line)")
            #expect(object["text"] == "Build: compiling" && object["alt"] == "build" && object["tooltip"] == "Build: compiling", "\(object)")
            #expect(object["class"] != nil && Set(object.keys) == ["text", "tooltip", "class", "alt"])
            await module.close()
        }
    }

    @Test func waybarTextIsEmptyWithNothingLive() throws {
        let state = WireFields(fields: ["presentation": .string("hidden"), "items": .array([])])
        #expect(try StateText.waybar(state) == #"{"text": "", "tooltip": "", "class": "hidden", "alt": ""}"#)
    }
}
