import Foundation
import NookBus
@_spi(Testing) import NookModuleAPI
import NookTestSupport
import Testing

/// `NookModule` against the real nookd on a private bus.
@Suite(.serialized) struct ModuleTransportTests {
    static func timer(_ id: String, text: String = "1:00", mark: String = "timer", relevance: Double? = nil) -> NookLiveActivity {
        NookLiveActivity(id: id, accessibilityLabel: "Timer \(id)", relevance: relevance) {
            Image(systemName: "timer")
        } compactTrailing: {
            Text(text).nookSharedElement(mark, style: .scale)
        } minimal: {
            Image(systemName: "timer")
        }
    }

    static func kitchen() -> NookModuleConfiguration {
        var configuration = NookModuleConfiguration(id: "kitchen", displayName: "Kitchen", version: "1.0")
        configuration.setCompactLeading { Text("K") }
        return configuration
    }

    @Test func registersStartsUpdatesAndEnds() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, home: scratch.url)
            let observer = try await Observer.connect(bus)
            let module = try await NookModule.connect(Self.kitchen(), address: .bus(bus.address))
            #expect(await module.isConnected)
            #expect(try await observer.state()["module"] == .string("kitchen"))

            var pasta = Self.timer("pasta")
            #expect(try await module.start(pasta) == .delivered)
            #expect(await observer.activities() == ["kitchen/pasta"])
            pasta.setCompactTrailing { Text("0:59").nookSharedElement("timer", style: .scale) }
            pasta.relevance = 3
            #expect(try await module.update(pasta) == .delivered)
            #expect(await eventually { nookd.storedActivities(of: "kitchen")["pasta"]?.contains("0:59") == true })
            // Updating with nothing changed sends nothing and still succeeds.
            #expect(try await module.update(pasta) == .delivered)
            #expect(await module.activities.map(\.id) == ["pasta"])

            #expect(try await module.end(pasta, dismissal: .immediate) == .delivered)
            #expect(await observer.activities().isEmpty)
            #expect(await module.activities.isEmpty)

            // Module content: a home, then the compact content taken away.
            var configuration = Self.kitchen()
            configuration.setHome { Text("Kitchen home") }
            configuration.clear(.compactLeading)
            #expect(try await module.publish(configuration) == .delivered)
            #expect(try await observer.state()["presentation"] == .string("hidden"))

            await module.close()
            await observer.close()
            #expect(await nookd.process.stop() == 0, "\(nookd.log)")
        }
    }

    @Test func errorsCarryTheContractNameAndMessage() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, home: scratch.url)
            let module = try await NookModule.connect(Self.kitchen(), address: .bus(bus.address))

            // From the broker: a second connection for a module id that is held.
            let taken = await #expect(throws: NookModuleError.self) {
                _ = try await NookModule.connect(Self.kitchen(), address: .bus(bus.address))
            }
            #expect(taken?.code == .moduleTaken && taken?.name == "org.nook.Nook1.Error.ModuleTaken")
            #expect(taken?.message.contains("kitchen") == true, "\(String(describing: taken))")

            // From the SDK's own checks, named as the broker names them.
            let badMark = await #expect(throws: NookModuleError.self) {
                try await module.start(Self.timer("pasta", mark: "no spaces"))
            }
            #expect(badMark?.code == .invalidId && badMark?.message.contains("compact_trailing") == true, "\(String(describing: badMark))")
            let unknown = await #expect(throws: NookModuleError.self) { try await module.update(Self.timer("rice")) }
            #expect(unknown?.code == .unknownActivity && unknown?.message.contains("rice") == true)
            try await module.start(Self.timer("pasta"))
            let twice = await #expect(throws: NookModuleError.self) { try await module.start(Self.timer("pasta")) }
            #expect(twice?.code == .activityExists)
            // A refused call leaves nothing behind: the id is still free to start properly.
            #expect(await module.activities.map(\.id) == ["pasta"])

            await module.close()
            #expect(await nookd.process.stop() == 0, "\(nookd.log)")
        }
    }

    @Test func diagnosticsStreamReceivesIdSuffixed() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, home: scratch.url)
            let module = try await NookModule.connect(Self.kitchen(), address: .bus(bus.address))
            let diagnostics = Recorder(module.diagnostics())
            try await module.start(Self.timer("pasta"))
            try await module.start(Self.timer("rice"))
            // Two activities mark `timer`: the broker says they now answer to their suffixed ids.
            #expect(await eventually { diagnostics.all.contains { $0.code == .idSuffixed } }, "\(diagnostics.all)")
            let suffixed = try #require(diagnostics.all.first { $0.code == .idSuffixed })
            #expect(suffixed.module == "kitchen" && suffixed.id == "timer" && suffixed.severity == .info)
            diagnostics.stop()
            await module.close()
            #expect(await nookd.process.stop() == 0, "\(nookd.log)")
        }
    }

    @Test func diagnosticsStreamReceivesStaleUpdate() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, home: scratch.url)
            let module = try await NookModule.connect(Self.kitchen(), address: .bus(bus.address))
            let diagnostics = Recorder(module.diagnostics())
            var pasta = Self.timer("pasta")
            try await module.start(pasta)  // sequence 1
            pasta.relevance = 4
            try await module.update(pasta)  // sequence 2
            // The SDK never goes backwards; a raw call on its connection does.
            _ = try await module.sendUnchecked(
                NookContract.Modules.updateActivity, [.string("pasta"), WireCodec.vardict(["relevance": .double(1), "sequence": .uint(1)])])
            #expect(await eventually { diagnostics.all.contains { $0.code.rawValue == "stale-update" } }, "\(diagnostics.all)")
            let stale = try #require(diagnostics.all.first { $0.code.rawValue == "stale-update" })
            #expect(stale.severity == .warning && stale.id == "pasta" && stale.module == "kitchen" && stale.path == "sequence")
            diagnostics.stop()
            await module.close()
            #expect(await nookd.process.stop() == 0, "\(nookd.log)")
        }
    }

    @Test func callsAfterCloseThrowDisconnectedAndCallsAfterALostBusAreKept() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let bus = try PrivateBus()
        defer { bus.stop() }
        let nookd = try await NookdProcess(bus: bus, home: scratch.url)
        let closed = try await NookModule.connect(Self.kitchen(), address: .bus(bus.address))
        await closed.close()
        let afterClose = await #expect(throws: NookModuleError.self) { try await closed.start(Self.timer("pasta")) }
        #expect(afterClose?.code == .disconnected)

        let module = try await NookModule.connect(NookModuleConfiguration(id: "pantry"), address: .bus(bus.address))
        let events = Recorder(module.events())
        try await module.start(Self.timer("pasta"))
        bus.stop()  // the bus daemon dies under the module (and the broker)
        #expect(await eventually { events.all.contains(.disconnected) }, "\(events.all)")
        // The module keeps trying to reconnect; meanwhile calls are kept, not refused.
        #expect(try await module.update(Self.timer("pasta", text: "2:00")) == .queued)
        #expect(try await module.start(Self.timer("rice", mark: "rice-timer")) == .queued)
        events.stop()
        await module.close()
        let afterLoss = await #expect(throws: NookModuleError.self) { try await module.end(activityID: "pasta") }
        #expect(afterLoss?.code == .disconnected)
        await nookd.process.stop(SIGKILL)
    }
}
