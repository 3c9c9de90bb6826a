import Foundation
import NookBus
import NookNotifications
import NookTestSupport
import Testing

/// The history of closed notifications (issue 40, part 1) with real processes: Debian's
/// `notify-send`, the real nook-notifications and nookd on a private bus, and the real
/// `nookctl notifications list|restore|clear`.
@Suite(.serialized) struct NotificationHistoryTests {
    typealias Fixture = NotificationsBridgeTests.Fixture

    static func nookctl(_ bus: PrivateBus, _ arguments: [String]) async throws -> Tools.Result {
        try await Tools.run(try PackageProcess.executable("nookctl").path, ["--address", bus.address] + arguments)
    }

    /// `nookctl notifications list --json`, parsed; nil when it failed.
    static func list(_ bus: PrivateBus) async -> [[String: Any]]? {
        guard let result = try? await nookctl(bus, ["notifications", "list", "--json"]), result.status == 0 else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) as? [[String: Any]]
    }

    static func summaries(_ bus: PrivateBus) async -> [String]? {
        await list(bus)?.compactMap { $0["summary"] as? String }
    }

    static func mode(_ path: String) -> Int? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return nil }
        return (attributes[.posixPermissions] as? NSNumber)?.intValue
    }

    @Test func anExpiredNotificationIsInTheHistoryAndRestoreBringsItBack() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            // The restored one stays (expire_timeout -1: the default, an hour here) while the test looks.
            let nook = try await Fixture.start(bus, temp, bridgeArguments: ["--default-timeout", "3600"])
            let posted = try await nook.notifySend(["-p", "-t", "300", "-a", "Builder", "Build done", "All <b>42</b> tests passed"])
            #expect(posted.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "1", "\(posted.stderr)")
            #expect(await eventually { nook.signals.closed.contains(Closed(id: 1, reason: 1)) }, "\(nook.signals.closed)\n\(nook.bridge.log)")
            let held = await eventually { await Self.summaries(bus) == ["Build done"] }
            let seen = await Self.list(bus)
            #expect(held, "\(String(describing: seen))")
            let entry = try #require(await Self.list(bus)?.first)
            #expect(entry["app_name"] as? String == "Builder")
            #expect(entry["body"] as? String == "All 42 tests passed")
            #expect(entry["reason"] as? Int == 1)
            #expect(entry["urgency"] as? Int == 1)
            #expect((entry["closed_at"] as? Int ?? 0) > 1_700_000_000_000_000)
            let text = try await Self.nookctl(bus, ["notifications", "list"])
            #expect(text.stdout.contains("expired  Builder: Build done — All 42 tests passed"), "\(text.stdout)")

            // Kept in a 0600 file in a 0700 directory.
            let file = Fixture.bridgeState(temp).appendingPathComponent(NotificationBridge.historyFileName).path
            #expect(await eventually { (try? String(contentsOfFile: file, encoding: .utf8))?.contains("Build done") == true })
            #expect(Self.mode(file) == 0o600)
            #expect(Self.mode(Fixture.bridgeState(temp).path) == 0o700)

            // restore: on screen again as a new notification, out of the history until it closes.
            let restored = try await Self.nookctl(bus, ["notifications", "restore"])
            #expect(restored.status == 0, "\(restored.stderr)")
            #expect(restored.stdout == "2\n")
            #expect(await eventually { (try? await nook.observer.activities()) == ["notifications/n2"] }, "\(nook.bridge.log)")
            #expect(await eventually { nook.texts(2).contains("Build done") }, "\(nook.texts(2))")
            #expect(await Self.summaries(bus) == [])
            let empty = try await Self.nookctl(bus, ["notifications", "restore"])
            #expect(empty.status == 1 && empty.stderr.contains("history is empty"), "\(empty.stderr)")

            // Dismissed by a person: back in the history, reason 2; then clear forgets it.
            let ended = try await Self.nookctl(bus, ["end", "notifications/n2"])
            #expect(ended.status == 0, "\(ended.stderr)")
            let dismissed = await eventually { await Self.list(bus)?.first?["reason"] as? Int == 2 }
            let afterDismissal = await Self.list(bus)
            #expect(dismissed, "\(String(describing: afterDismissal))")
            let cleared = try await Self.nookctl(bus, ["notifications", "clear"])
            #expect(cleared.stdout == "cleared 1\n", "\(cleared.stdout) \(cleared.stderr)")
            #expect(await Self.summaries(bus) == [])
            #expect(await eventually { (try? String(contentsOfFile: file, encoding: .utf8))?.contains("Build done") == false })
            await nook.stop()
        }
    }

    @Test func theHistorySurvivesKill9OfTheBridgeAndOfNookd() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nook = try await Fixture.start(bus, temp, bridgeArguments: ["--default-timeout", "3600"])
            for n in 1...3 {
                let posted = try await nook.notifySend(["-t", "200", "-a", "Mail", "Message \(n)", "from a restart test"])
                #expect(posted.status == 0, "\(posted.stderr)")
            }
            // CloseNotification by its app goes in too (reason 3).
            _ = try await nook.python("""
                id = notifications.Notify("Chat", 0, "", "Closed by its app", "", [], {}, 0)
                notifications.CloseNotification(id)
                """)
            let expected = ["Closed by its app", "Message 3", "Message 2", "Message 1"]
            let held = await eventually { await Set(Self.summaries(bus) ?? []) == Set(expected) }
            let seen = await Self.summaries(bus)
            #expect(held, "\(String(describing: seen))")
            // The write is coalesced (a tenth of a second): wait until the file has all four.
            let file = Fixture.bridgeState(temp).appendingPathComponent(NotificationBridge.historyFileName).path
            #expect(await eventually {
                guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return false }
                return expected.allSatisfy(text.contains)
            })
            let before = await Self.list(bus)?.map { $0["summary"] as? String } ?? []

            // kill -9 of both: no shutdown, no flush.
            _ = await nook.bridge.stop(SIGKILL)
            _ = await nook.nookd.stop(SIGKILL)
            let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            let bridge = try await Fixture.startBridge(bus, temp, ["--default-timeout", "3600"])
            #expect(await Self.list(bus)?.map { $0["summary"] as? String } ?? [] == before)
            #expect(await Self.list(bus)?.first(where: { $0["summary"] as? String == "Closed by its app" })?["reason"] as? Int == 3)
            // And it restores on the new nookd.
            let restored = try await Self.nookctl(bus, ["notifications", "restore"])
            #expect(restored.status == 0, "\(restored.stderr) \(bridge.log)")
            let id = restored.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(await eventually { (try? await nook.observer.activities())?.contains("notifications/n\(id)") == true }, "\(bridge.log)")
            #expect(await bridge.stop(SIGTERM) == 0, "\(bridge.log)")
            await nook.scenes.close()
            await nook.observer.close()
            await nook.signals.close()
            await nookd.stop()
        }
    }

    @Test func aCorruptHistoryFileIsMovedAsideAndLogged() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let directory = Fixture.bridgeState(temp)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let file = directory.appendingPathComponent(NotificationBridge.historyFileName)
        // Well-formed JSON with a value the bridge never writes (urgency 7).
        let bad = #"{"format":"nook-notifications-history","version":1,"entries":[{"id":1,"appName":"a","appIcon":"","summary":"s","body":"","urgency":7,"reason":1,"closedAt":0}]}"#
        try Data(bad.utf8).write(to: file)
        try await PrivateBus.with { bus in
            let nook = try await Fixture.start(bus, temp)
            #expect(nook.bridge.log.contains("urgency: 7 is not 0, 1 or 2"), "\(nook.bridge.log)")
            let aside = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix(NotificationBridge.historyFileName + ".corrupt-") }
            #expect(aside.count == 1, "\(aside)")
            #expect(await Self.summaries(bus) == [])
            // It serves, and keeps the next one.
            _ = try await nook.notifySend(["-t", "200", "After", "the corrupt file"])
            #expect(await eventually { await Self.summaries(bus) == ["After"] })
            await nook.stop()
        }
    }

    @Test func aHistoryFileThatIsALinkIsNotFollowed() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let directory = Fixture.bridgeState(temp)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let target = temp.url.appendingPathComponent("elsewhere.json")
        try Data(#"{"format":"nook-notifications-history","version":1,"entries":[]}"#.utf8).write(to: target)
        try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent(NotificationBridge.historyFileName).path, withDestinationPath: target.path)
        try await PrivateBus.with { bus in
            let nook = try await Fixture.start(bus, temp)
            #expect(nook.bridge.log.contains("is a symbolic link"), "\(nook.bridge.log)")
            _ = try await nook.notifySend(["-t", "200", "Not through", "the link"])
            #expect(await eventually { await Self.summaries(bus) == ["Not through"] })
            let file = directory.appendingPathComponent(NotificationBridge.historyFileName).path
            #expect(await eventually { (try? String(contentsOfFile: file, encoding: .utf8))?.contains("Not through") == true })
            // The link was moved aside, and the file it named never written.
            #expect(try String(contentsOf: target, encoding: .utf8).contains("Not through") == false)
            #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: file)) == nil)
            await nook.stop()
        }
    }
}
