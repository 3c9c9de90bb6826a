import Foundation
import NookBus
import NookCore
import NookModuleAPI
import NookTestSupport
import Synchronization
import Testing

/// A person's dismissal is final for that activity: once `nookctl end` (Control.EndActivity)
/// ends it, the module that keeps updating it never brings it back. Only a start with a new id
/// shows something again, as ActivityKit does for Live Activities.
@Suite(.serialized) struct DismissalTests {
    /// Runs `nookctl end MODULE/ACTIVITY` as its own process.
    static func nookctlEnd(_ bus: PrivateBus, _ ref: String, scratch: URL) async throws {
        let nookctl = try PackageProcess("nookctl", ["--address", bus.address, "end", ref], logDirectory: scratch)
        #expect(await nookctl.waitForExit(), "nookctl end did not exit: \(nookctl.log)")
        #expect(await nookctl.stop() == 0, "nookctl end failed: \(nookctl.log)")
    }

    @Test func aModuleThatKeepsUpdatingNeverBringsBackADismissedActivity() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, home: scratch.url)
            let observer = try await Observer.connect(bus)
            let module = try await NookModule.connect(ModuleTransportTests.kitchen(), address: .bus(bus.address))
            let events = Locked<[NookModuleEvent]>([])
            let watcher = Task { for await event in module.events() { events.withLock { $0.append(event) } } }
            defer { watcher.cancel() }

            #expect(try await module.start(ModuleTransportTests.timer("tomato", text: "25:00")) == .delivered)
            #expect(await observer.activities() == ["kitchen/tomato"])

            try await Self.nookctlEnd(bus, "kitchen/tomato", scratch: scratch.url)
            #expect(await observer.activities().isEmpty)
            let told = await eventually { events.withLock { $0.contains(.activityDismissed("tomato", by: .user)) } }
            #expect(told, "no activityDismissed event: \(events.withLock { $0 })")
            #expect(await module.activities.isEmpty)

            // The module keeps ticking: every update is refused, and nothing reappears.
            for second in 0..<5 {
                let tick = ModuleTransportTests.timer("tomato", text: "24:5\(second)")
                await #expect(throws: NookModuleError.self) { try await module.update(tick) }
                #expect(await observer.activities().isEmpty)
            }
            // Starting the same id again is refused too; a new id is a new activity.
            let again = await #expect(throws: NookModuleError.self) { try await module.start(ModuleTransportTests.timer("tomato")) }
            #expect(again?.code == .activityDismissed)
            #expect(try await module.start(ModuleTransportTests.timer("tomato-2")) == .delivered)
            #expect(await observer.activities() == ["kitchen/tomato-2"])
            // The broker started "tomato" once, never again after the dismissal.
            #expect(nookd.log.components(separatedBy: "scene: activity_started kitchen/tomato\n").count == 2, "\(nookd.log)")

            await module.close()
            await observer.close()
            #expect(await nookd.process.stop() == 0, "\(nookd.log)")
        }
    }

    /// The broker holds the line for any client, not only the SDK: a raw client that answers
    /// `UnknownActivity` by starting the same id again is refused with `ActivityDismissed`
    /// while it stays registered, and may use the id again once it unregistered.
    @Test func theBrokerRefusesToRestartADismissedIdUntilTheModuleUnregisters() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, home: scratch.url)
            let observer = try await Observer.connect(bus)
            let raw = try await BusConnection.connect(to: .address(bus.address))
            @Sendable func call(_ member: String, _ arguments: [DBusValue]) async throws {
                _ = try await raw.call(destination: "org.nook.Nook1", path: "/org/nook/Nook1", interface: "org.nook.Nook1.Modules",
                                       member: member, arguments: arguments, timeout: .seconds(20))
            }
            let spec = ModuleTransportTests.timer("tomato").startSpec(sequence: 1)
            try await call("Register", [.string("raw"), .vardict([:])])
            try await call("StartActivity", [.string("tomato"), WireCodec.vardict(spec)])
            try await Self.nookctlEnd(bus, "raw/tomato", scratch: scratch.url)

            await #expect { try await call("UpdateActivity", [.string("tomato"), .vardict([:])]) } throws: { error in
                (error as? DBusError)?.name == "org.nook.Nook1.Error.UnknownActivity"
            }
            await #expect { try await call("StartActivity", [.string("tomato"), WireCodec.vardict(spec)]) } throws: { error in
                guard let error = error as? DBusError else { return false }
                return error.name == "org.nook.Nook1.Error.ActivityDismissed" && error.message.contains("\"tomato\"")
            }
            #expect(await observer.activities().isEmpty)

            try await call("Unregister", [])
            try await call("Register", [.string("raw"), .vardict([:])])
            try await call("StartActivity", [.string("tomato"), WireCodec.vardict(spec)])
            #expect(await observer.activities() == ["raw/tomato"])

            await raw.close()
            await observer.close()
            #expect(await nookd.process.stop() == 0, "\(nookd.log)")
        }
    }
}
