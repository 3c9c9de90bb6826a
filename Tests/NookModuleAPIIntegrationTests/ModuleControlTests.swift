import Foundation
import NookBus
import NookCore
import NookModuleAPI
import NookTestSupport
import Synchronization
import Testing

/// A module's controls end to end: a real nookd, an SDK module in this process, and a test
/// connection as renderer and script. Presses run the closures the module's current views hold.
@Suite(.serialized) struct ModuleControlTests {
    final class Presses: Sendable {
        private let names = Locked<[String]>([])
        func press(_ name: String) { names.withLock { $0.append(name) } }
        var all: [String] { names.withLock { $0 } }
    }

    static func song(_ presses: Presses, playing: Bool) -> NookLiveActivity {
        var song = NookLiveActivity(id: "song", accessibilityLabel: "Now playing") {
            Image(systemName: "music.note")
        } compactTrailing: {
            Text("Quiet Song")
        } minimal: {
            Image(systemName: "music.note")
        }
        song.setExpanded {
            HStack {
                Text("Quiet Song")
                if playing {
                    Button("Pause", systemImage: "pause.fill") { presses.press("pause") }.actionID("pause")
                } else {
                    Button("Play", systemImage: "play.fill") { presses.press("play") }.actionID("play")
                }
            }
        }
        return song
    }

    /// The (serial, slot, owner, path) of the node with `action` in `plan`'s scene.
    static func target(_ action: String, in plan: [String: PropValue]) -> DBusValue? {
        guard case .dictionary(let scene)? = plan["scene"], case .array(let nodes)? = scene["nodes"], let serial = plan["serial"] else { return nil }
        for case .dictionary(let node) in nodes where node["action"] == .string(action) {
            guard let slot = node["slot"], let owner = node["owner"], let path = node["path"] else { continue }
            return WireCodec.vardict(["serial": serial, "slot": slot, "owner": owner, "path": path])
        }
        return nil
    }

    @Test func pressesRunTheCurrentClosuresAndAReplacedIdGetsADiagnosticNotACrash() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, home: scratch.url)
            let presses = Presses()
            let module = try await NookModule.connect(NookModuleConfiguration(id: "music"), address: .bus(bus.address))
            let diagnostics = Recorder(module.diagnostics())
            let events = Recorder(module.actionEvents())
            try await module.start(Self.song(presses, playing: true))
            let observer = try await Observer.connect(bus)
            let plans = try await observer.recordPlans()
            try await observer.open(module: "music", activity: "song")
            #expect(await eventually { plans.all.contains { Self.target("pause", in: $0) != nil } }, "\(nookd.log)")
            let drawn = try #require(plans.all.lazy.compactMap { Self.target("pause", in: $0) }.first)

            func call(_ interface: String, _ member: String, _ arguments: [DBusValue]) async throws {
                _ = try await observer.connection.call(
                    destination: "org.nook.Nook1", path: "/org/nook/Nook1", interface: interface, member: member, arguments: arguments,
                    timeout: .seconds(20))
            }
            // A click on what the renderer drew, then a script's press: both run the closure.
            try await call("org.nook.Nook1.Render", "Activate", [drawn])
            try await call("org.nook.Nook1.Control", "Invoke", [.string("music"), .string("song"), .string("pause"), WireCodec.vardict([:])])
            #expect(await eventually { presses.all == ["pause", "pause"] }, "\(presses.all)")
            #expect(events.all.map(\.source) == [.renderer, .control])

            // The view changes: pause gives way to play. The renderer's old scene still names
            // pause; the broker forwards it, and the module, which no longer has it, says so.
            let before = plans.all.count
            try await module.update(Self.song(presses, playing: false))
            #expect(await eventually { plans.all.dropFirst(before).contains { Self.target("play", in: $0) != nil } })
            let current = try #require(plans.all.lazy.compactMap { Self.target("play", in: $0) }.first)
            try await call("org.nook.Nook1.Render", "Activate", [drawn])
            #expect(await eventually { diagnostics.all.contains { $0.code == .unknownAction } }, "\(diagnostics.all)")
            let stale = try #require(diagnostics.all.first { $0.code == .unknownAction })
            #expect(stale.message.contains("\"pause\"") && stale.id == "song")
            try await call("org.nook.Nook1.Render", "Activate", [current])
            #expect(await eventually { presses.all == ["pause", "pause", "play"] }, "\(presses.all)")

            diagnostics.stop()
            events.stop()
            await observer.close()
            await module.close()
            #expect(await nookd.process.stop() == 0, "\(nookd.log)")
        }
    }
}
