import Foundation
import NookBus
import NookCore
import NookTestSupport
import Testing
@testable import NookCtlKit

/// What a status bar's follower asks of the bus, seen by the bus itself: `dbus-monitor` on the
/// private bus records every method call to nookd while the real `nookctl` executable follows.
@Suite(.serialized) struct StatusFollowBusTests {
    /// A status bar is not a renderer (issue 19): following must never subscribe to plans.
    @Test func followingForWaybarNeverCallsRenderSubscribe() async throws {
        try await LiveNook.with { nook in
            let monitor = try PackageProcess(try Tools.path(of: "dbus-monitor"), [
                "--address", nook.bus.address,
                "type='method_call',destination='\(NookNames.busName)'",
            ], logDirectory: nook.scratch)
            defer { Task { await monitor.stop() } }
            // The monitor is in place once it has seen a call of ours.
            #expect(await eventually(timeout: .seconds(30)) {
                _ = try? await nook.state()
                return monitor.log.contains("member=GetState")
            }, "dbus-monitor never saw a call: \(monitor.log)")

            let before = monitor.log.count
            let follower = try nook.process(["status", "--follow", "--format", "waybar"])
            defer { Task { await follower.stop() } }
            #expect(await eventually(timeout: .seconds(30)) { follower.log.contains(#""text""#) }, "no first line: \(follower.log)")

            let module = try await BusConnection.connect(to: .address(nook.bus.address))
            func call(_ member: String, _ arguments: [DBusValue]) async throws {
                _ = try await module.call(destination: NookNames.busName, path: ObjectPath.nook, interface: NookNames.modulesInterface,
                                          member: member, arguments: arguments, timeout: .seconds(20))
            }
            func text(_ value: String) -> DBusValue { .structure([.string("text"), .vardict(["text": .string(value)]), .array(element: "v", [])]) }
            try await call("Register", [.string("build"), .vardict([:])])
            try await call("StartActivity", [.string("ci"), .vardict([
                "accessibility_label": .string("Build: linking"), "compact_leading": text("B"), "compact_trailing": text("1"), "minimal": text("B"),
            ])])
            #expect(await eventually(timeout: .seconds(30)) { follower.log.contains("Build: linking") }, "\(follower.log)")
            await module.close()
            await follower.stop()

            // Every line the follower printed is one JSON object of Waybar's four keys.
            for line in follower.log.split(separator: "\n") {
                let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String]
                #expect(object.map { Set($0.keys) } == ["text", "tooltip", "class", "alt"], "\(line)")
            }
            // Its own GetState (our probes stopped before it started) shows the monitor saw it.
            let calls = String(monitor.log.dropFirst(before)).split(separator: "\n").filter { $0.hasPrefix("method call") }
            #expect(calls.contains { $0.contains("interface=\(NookNames.controlInterface)") && $0.contains("member=GetState") },
                    "the follower's calls were not seen: \(monitor.log)")
            #expect(!calls.contains { $0.contains("interface=\(NookNames.renderInterface)") }, "\(calls.filter { $0.contains("Render") })")
        }
    }
}
