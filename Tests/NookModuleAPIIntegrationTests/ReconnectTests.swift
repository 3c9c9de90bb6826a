import Foundation
import NookBus
import NookCore
import NookModuleAPI
import NookTestSupport
import Synchronization
import Testing

/// The module keeps publishing across a broker that is killed and started again.
@Suite(.serialized) struct ReconnectTests {
    @Test func survivesKilledAndRestartedNookd() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try await PrivateBus.with { bus in
            let first = try await NookdProcess(bus: bus, home: scratch.url)
            let observer = try await Observer.connect(bus)
            let module = try await NookModule.connect(ModuleTransportTests.kitchen(), address: .bus(bus.address))
            let events = Recorder(module.events())
            let diagnostics = Recorder(module.diagnostics())
            var pasta = ModuleTransportTests.timer("pasta", text: "9:00", relevance: 2)
            try await module.start(pasta)
            try await module.start(ModuleTransportTests.timer("rice", mark: "rice-timer", relevance: 1))
            // Wait until the broker has saved both, so the restarted one restores them.
            #expect(await eventually { Set(first.storedActivities(of: "kitchen").keys) == ["pasta", "rice"] })

            await first.process.stop(SIGKILL)
            #expect(await eventually { events.all.contains(.brokerLost) }, "\(events.all)")
            #expect(await module.isConnected == false)

            // While the broker is away: an update, an end, a new activity, new content.
            pasta.setCompactTrailing { Text("4:42").nookSharedElement("timer", style: .scale) }
            #expect(try await module.update(pasta) == .queued)
            pasta.setMinimal { Text("4:41") }
            #expect(try await module.update(pasta) == .queued)  // only the latest state is sent
            #expect(try await module.end(activityID: "rice") == .queued)
            #expect(try await module.start(ModuleTransportTests.timer("tea", mark: "tea-timer")) == .queued)
            #expect(try await module.configure { $0.setHome { Text("home while away") } } == .queued)

            // Same state directory: the broker restores pasta and rice, the module takes them back.
            let nookd = try await NookdProcess(bus: bus, home: scratch.url)
            #expect(await eventually { events.all.filter { $0 == .connected }.count == 1 }, "\(events.all)")
            #expect(await module.isConnected)
            #expect(await observer.activities() == ["kitchen/pasta", "kitchen/tea"])
            #expect(await eventually {
                let stored = nookd.storedActivities(of: "kitchen")
                return stored["pasta"]?.contains("4:42") == true && stored["pasta"]?.contains("4:41") == true
                    && stored["rice"] == nil && stored["tea"] != nil
            }, "\(nookd.storedActivities(of: "kitchen"))")
            #expect(await eventually { diagnostics.all.contains { $0.code.rawValue == "module-restored" } }, "\(diagnostics.all)")
            #expect(!events.all.contains { if case .deliveryFailed = $0 { true } else { false } }, "\(events.all)")

            // And the link is ordinary again.
            pasta.setCompactTrailing { Text("3:00").nookSharedElement("timer", style: .scale) }
            #expect(try await module.update(pasta) == .delivered)
            #expect(await eventually { nookd.storedActivities(of: "kitchen")["pasta"]?.contains("3:00") == true })

            events.stop()
            diagnostics.stop()
            await module.close()
            await observer.close()
            #expect(await nookd.process.stop() == 0, "\(nookd.log)")
        }
    }

    /// The bus daemon itself dies: nookd saves and exits 1, the module keeps its calls,
    /// reconnects to the restarted daemon at the same socket path (a new guid) and republishes
    /// to the nookd started on it.
    @Test func reconnectsWhenTheBusDaemonRestarts() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try await PrivateBus.with { bus in
            let first = try await NookdProcess(bus: bus, home: scratch.url)
            let module = try await NookModule.connect(ModuleTransportTests.kitchen(), address: .bus(bus.address))
            let events = Recorder(module.events())
            #expect(try await module.start(ModuleTransportTests.timer("pasta", text: "9:00")) == .delivered)
            #expect(await eventually { first.storedActivities(of: "kitchen")["pasta"]?.contains("9:00") == true })

            bus.killDaemon()
            #expect(await first.process.waitForExit(timeout: .seconds(60)), "\(first.log)")
            #expect(first.process.exitStatus == 1, "\(first.log)")
            #expect(await eventually { events.all.contains(.disconnected) }, "\(events.all)")
            #expect(await module.isConnected == false)

            // While the bus is down: the update is kept.
            #expect(try await module.update(ModuleTransportTests.timer("pasta", text: "4:42")) == .queued)

            // The same socket path, a new daemon (new guid), nookd again with the same state.
            try bus.restart()
            let nookd = try await NookdProcess(bus: bus, home: scratch.url)
            #expect(await eventually(timeout: .seconds(60)) { events.all.contains(.connected) }, "\(events.all)")
            if let lost = events.all.firstIndex(of: .disconnected), let back = events.all.lastIndex(of: .connected) {
                #expect(lost < back, "\(events.all)")
            }
            #expect(await module.isConnected)
            let observer = try await Observer.connect(bus)
            #expect(await eventually { await observer.activities() == ["kitchen/pasta"] })
            #expect(await eventually { nookd.storedActivities(of: "kitchen")["pasta"]?.contains("4:42") == true },
                "\(nookd.storedActivities(of: "kitchen"))")
            #expect(!events.all.contains { if case .deliveryFailed = $0 { true } else { false } }, "\(events.all)")

            // And the link is ordinary again.
            #expect(try await module.update(ModuleTransportTests.timer("pasta", text: "3:00")) == .delivered)
            #expect(await eventually { nookd.storedActivities(of: "kitchen")["pasta"]?.contains("3:00") == true })

            events.stop()
            await module.close()
            await observer.close()
            #expect(await nookd.process.stop() == 0, "\(nookd.log)")
        }
    }

    @Test func connectsBeforeTheBrokerStartsAndPublishesWhenItAppears() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try await PrivateBus.with { bus in
            // No broker yet: connecting still works, and calls are kept.
            let module = try await NookModule.connect(ModuleTransportTests.kitchen(), address: .bus(bus.address))
            let events = Recorder(module.events())
            #expect(await module.isConnected == false)
            #expect(try await module.start(ModuleTransportTests.timer("pasta")) == .queued)
            #expect(try await module.start(ModuleTransportTests.timer("rice", mark: "rice-timer")) == .queued)
            #expect(try await module.end(activityID: "rice") == .queued)

            let nookd = try await NookdProcess(bus: bus, home: scratch.url)
            #expect(await eventually { events.all.contains(.connected) }, "\(events.all)")
            let observer = try await Observer.connect(bus)
            #expect(await observer.activities() == ["kitchen/pasta"])
            #expect(try await observer.state()["module"] == .string("kitchen"))

            events.stop()
            await module.close()
            await observer.close()
            #expect(await nookd.process.stop() == 0, "\(nookd.log)")
        }
    }

    @Test func republishesEverythingToABrokerThatLostItsState() async throws {
        let first = try Scratch(), second = try Scratch()
        defer { first.remove(); second.remove() }
        try await PrivateBus.with { bus in
            let lost = try await NookdProcess(bus: bus, home: first.url)
            let module = try await NookModule.connect(ModuleTransportTests.kitchen(), address: .bus(bus.address))
            let events = Recorder(module.events())
            try await module.start(ModuleTransportTests.timer("pasta", text: "7:00"))
            await lost.process.stop(SIGKILL)
            #expect(await eventually { events.all.contains(.brokerLost) })

            // A new broker with an empty state directory: the module starts everything again.
            let nookd = try await NookdProcess(bus: bus, home: second.url)
            #expect(await eventually { events.all.contains(.connected) }, "\(events.all)")
            let observer = try await Observer.connect(bus)
            #expect(await observer.activities() == ["kitchen/pasta"])
            #expect(try await observer.state()["module"] == .string("kitchen"))
            #expect(await eventually { nookd.storedActivities(of: "kitchen")["pasta"]?.contains("7:00") == true })

            events.stop()
            await module.close()
            await observer.close()
            #expect(await nookd.process.stop() == 0, "\(nookd.log)")
        }
    }

    @Test func aQueuedStartTheNewBrokerRefusesIsReportedAndDropped() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try await PrivateBus.with { bus in
            let first = try await NookdProcess(bus: bus, home: scratch.url)
            let module = try await NookModule.connect(ModuleTransportTests.kitchen(), address: .bus(bus.address))
            let events = Recorder(module.events())
            // The broker's limit is 32 activities per module: the 33rd is refused, by name.
            for index in 1...32 {
                try await ModuleTransportTests.timer("t\(index)", mark: "timer-\(index)").start(on: module)
            }
            let refused = await #expect(throws: NookModuleError.self) {
                try await module.start(ModuleTransportTests.timer("t33", mark: "timer-33"))
            }
            #expect(refused?.code == .limitsExceeded && refused?.message.contains("t33") == true, "\(String(describing: refused))")
            #expect(await module.activities.count == 32)

            // Away: end one, start two. On return the last start does not fit and is reported.
            await first.process.stop(SIGKILL)
            #expect(await eventually { events.all.contains(.brokerLost) })
            #expect(try await module.end(activityID: "t1") == .queued)
            #expect(try await module.start(ModuleTransportTests.timer("t33", mark: "timer-33")) == .queued)
            #expect(try await module.start(ModuleTransportTests.timer("t34", mark: "timer-34")) == .queued)
            let nookd = try await NookdProcess(bus: bus, home: scratch.url)
            #expect(await eventually { events.all.contains(.connected) }, "\(events.all)")
            let failures = events.all.compactMap { event -> NookModuleError? in
                if case .deliveryFailed(let error) = event { return error }
                return nil
            }
            #expect(failures.map(\.code) == [.limitsExceeded] && failures.first?.message.contains("t34") == true, "\(failures)")
            #expect(await module.activities.map(\.id).contains("t34") == false)
            let observer = try await Observer.connect(bus)
            let live = await observer.activities()
            #expect(live.count == 32 && live.contains("kitchen/t33") && !live.contains("kitchen/t1"), "\(live)")

            events.stop()
            await module.close()
            await observer.close()
            #expect(await nookd.process.stop() == 0, "\(nookd.log)")
        }
    }

    @Test func updatesRacingAKilledBrokerEndInTheLatestState() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try await PrivateBus.with { bus in
            let first = try await NookdProcess(bus: bus, home: scratch.url)
            let module = try await NookModule.connect(ModuleTransportTests.kitchen(), address: .bus(bus.address))
            let events = Recorder(module.events())
            try await module.start(ModuleTransportTests.timer("pasta", text: "u0"))
            let delivered = Counter()
            // Updates keep coming while the broker is killed underneath them and comes back.
            let updates = Task {
                for index in 1...1000 {
                    let result = try await module.update(ModuleTransportTests.timer("pasta", text: "u\(index)"))
                    if result == .delivered { delivered.increment() }
                }
            }
            #expect(await eventually { delivered.value >= 30 })
            await first.process.stop(SIGKILL)
            #expect(await eventually { events.all.contains(.brokerLost) })
            let nookd = try await NookdProcess(bus: bus, home: scratch.url)
            try await updates.value
            #expect(await eventually { events.all.contains(.connected) }, "\(events.all)")
            #expect(await eventually { nookd.storedActivities(of: "kitchen")["pasta"]?.contains("u1000") == true },
                "\(nookd.storedActivities(of: "kitchen"))")
            #expect(!events.all.contains { if case .deliveryFailed = $0 { true } else { false } }, "\(events.all)")

            events.stop()
            await module.close()
            #expect(await nookd.process.stop() == 0, "\(nookd.log)")
        }
    }

    @Test func endsWhatARestoredBrokerKeptThatTheModuleHadEnded() async throws {
        let first = try Scratch(), second = try Scratch()
        defer { first.remove(); second.remove() }
        try await PrivateBus.with { bus in
            let old = try await NookdProcess(bus: bus, home: first.url)
            let module = try await NookModule.connect(ModuleTransportTests.kitchen(), address: .bus(bus.address))
            let events = Recorder(module.events())
            try await module.start(ModuleTransportTests.timer("pasta"))
            try await module.start(ModuleTransportTests.timer("rice", mark: "rice-timer"))
            #expect(await eventually { Set(old.storedActivities(of: "kitchen").keys) == ["pasta", "rice"] })
            // A state file from before the end: as if the broker died before saving it.
            let stale = second.url.appendingPathComponent("state")
            try FileManager.default.createDirectory(at: stale, withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                at: old.stateDirectory.appendingPathComponent("state.json"), to: stale.appendingPathComponent("state.json"))
            #expect(try await module.end(activityID: "rice") == .delivered)
            await old.process.stop(SIGKILL)
            #expect(await eventually { events.all.contains(.brokerLost) })

            let nookd = try await NookdProcess(bus: bus, home: second.url)
            #expect(await eventually { events.all.contains(.connected) }, "\(events.all)")
            let observer = try await Observer.connect(bus)
            #expect(await eventually { await observer.activities() == ["kitchen/pasta"] })

            events.stop()
            await module.close()
            await observer.close()
            #expect(await nookd.process.stop() == 0, "\(nookd.log)")
        }
    }
}

/// A count shared between a test and a task it started.
final class Counter: Sendable {
    private let count = Locked(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
