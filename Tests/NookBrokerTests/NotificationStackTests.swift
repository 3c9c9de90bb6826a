import Foundation
import NookBus
import NookCore
import NookNotifications
import NookTestSupport
import Testing

/// Several notifications at once (issue 40, part 5) with real processes: python-dbus sends a
/// burst, the real nook-notifications and nookd on a private bus, a subscribed renderer
/// connection keeps the scenes, nookd's `StateChanged` shows the peeks, `nookctl` ends them
/// and lists the history.
@Suite(.serialized) struct NotificationStackTests {
    typealias Fixture = NotificationsBridgeTests.Fixture

    /// The texts of `owner`'s nodes in `slot`, in every scene received so far.
    static func texts(_ nook: Fixture, _ owner: String, slot: String) -> [String] {
        nook.scenes.nodes(owner: owner).filter { $0["slot"] == .string(slot) }.compactMap {
            if case .string(let text)? = $0["text"] { text } else { nil }
        }
    }

    /// The rule: notifications arriving together stack. Five in a burst are five activities;
    /// the newest is the primary one (the pill) and shows the count, 5, beside its summary; the
    /// nook peeks at the newest, once; its expanded view lists the other four, grouped by app;
    /// and when a person ends them, all five are in the history.
    @Test func fiveInABurstStackWithACountInThePillAndAllReachHistory() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nook = try await Fixture.start(bus, temp, bridgeArguments: ["--peek-seconds", "60"])
            let peeks = try await NotificationDNDTests.Peeks(bus)
            let posted = try await nook.python("""
                for n in range(1, 6):
                    print(notifications.Notify("Chat" if n < 5 else "Mail", 0, "", "Message %d" % n, "burst", [], {}, 0))
                """)
            #expect(posted.stdout == "1\n2\n3\n4\n5\n", "\(posted.stdout) \(posted.stderr)")
            #expect(await eventually { (try? await nook.observer.activities())?.count == 5 }, "\(nook.bridge.log)")
            // The newest is first in the broker's order (relevance), so its views are the pill's.
            let newestFirst = await eventually { (try? await nook.observer.activities())?.first == "notifications/n5" }
            let order = try await nook.observer.activities()
            #expect(newestFirst, "\(order)")
            // The count beside the top one's summary in the pill, as the broker published it.
            #expect(await eventually { Self.texts(nook, "notifications/n5", slot: "compact_trailing").contains("5") },
                    "\(Self.texts(nook, "notifications/n5", slot: "compact_trailing"))")
            #expect(Self.texts(nook, "notifications/n5", slot: "compact_trailing").contains("Message 5"))
            // The nook peeks at the newest; however the burst fell into batches, the last peek is
            // at n5, and no notification older than the first peeked one peeks after it.
            #expect(await eventually { peeks.activities.last == "n5" }, "\(peeks.activities)")
            // How many batches the burst falls into depends on how fast the client sends (two
            // on an idle machine, more under load), so the count is not pinned; the order is.
            let peeked = peeks.activities.compactMap { Int($0.dropFirst()) }
            #expect(peeked == peeked.sorted() && Set(peeked).count == peeked.count, "a newer one peeks after an older one only: \(peeks.activities)")
            // The peek carries the count too.
            #expect(await eventually { Self.texts(nook, "notifications/n5", slot: "peek").contains("5") },
                    "\(Self.texts(nook, "notifications/n5", slot: "peek"))")

            // One gesture away (the top one opened, as a hover or click on the pill does): the
            // other four, newest first, grouped by app: Chat's newest with its count of 4.
            let expanded: @Sendable () -> [String] = { Self.texts(nook, "notifications/n5", slot: "expanded") }
            #expect(await HostileNotificationsTests.open(nook, 5) { expanded().contains("4 more") }, "\(expanded())")
            #expect(expanded().contains("Message 4") && expanded().contains("×4"), "\(expanded())")
            #expect(!expanded().contains("Message 3"), "grouped by app: only Chat's newest is listed: \(expanded())")

            // The top one ends: the next newest takes the pill and the stack's count, now 4.
            let ended = try await NotificationDNDTests.nookctl(bus, ["end", "notifications/n5"])
            #expect(ended.status == 0, "\(ended.stderr)")
            #expect(await eventually { Self.texts(nook, "notifications/n4", slot: "compact_trailing").contains("4") },
                    "\(Self.texts(nook, "notifications/n4", slot: "compact_trailing"))")
            for id in 1...4 { _ = try await NotificationDNDTests.nookctl(bus, ["end", "notifications/n\(id)"]) }

            // All five reached the history, newest first, none lost to the stacking.
            #expect(await eventually { await NotificationHistoryTests.list(bus)?.count == 5 }, "\(nook.bridge.log)")
            let history = await NotificationHistoryTests.list(bus) ?? []
            #expect(history.compactMap { $0["summary"] as? String }.sorted() == (1...5).map { "Message \($0)" }, "\(history)")
            #expect(history.allSatisfy { $0["reason"] as? Int == 2 }, "\(history)")
            await peeks.close()
            await nook.stop()
        }
    }

    /// The rule: a flood from one app is rate-limited. Twenty from one app, 50 ms apart (each
    /// in a batch of its own, which would peek), peek at most a burst of
    /// `PeekAllowance.burst` and one a second after it, yet every one of them
    /// is an activity (the count says 20) and, once ended, in the history.
    @Test func aFloodFromOneAppPeeksAFewTimesAndLosesNone() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nook = try await Fixture.start(bus, temp, bridgeArguments: ["--peek-seconds", "60"])
            let peeks = try await NotificationDNDTests.Peeks(bus)
            let posted = try await nook.python("""
                import time
                began = time.monotonic()
                for n in range(1, 21):
                    notifications.Notify("Flood", 0, "", "Flood %d" % n, "", [], {}, 0)
                    time.sleep(0.05)  # apart, so the flood spans batches: each could peek
                print(time.monotonic() - began)
                """)
            let seconds = try #require(Double(posted.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), "\(posted.stdout) \(posted.stderr)")
            #expect(await eventually { (try? await nook.observer.activities())?.count == 20 }, "\(nook.bridge.log)")
            #expect(await eventually { Self.texts(nook, "notifications/n20", slot: "compact_trailing").contains("20") },
                    "\(Self.texts(nook, "notifications/n20", slot: "compact_trailing"))")
            // Peeks: at most the burst, plus one for every second the flood lasted.
            let bound = Int(NotificationStack.PeekAllowance.burst) + Int(seconds.rounded(.up))
            #expect(await eventually { !peeks.activities.isEmpty })
            #expect(peeks.activities.count <= bound, "\(peeks.activities.count) peeks for a flood of \(seconds) s: \(peeks.activities)")
            print("a flood of 20 in \(seconds) s: \(peeks.activities.count) peeks (at most \(bound))")
            // The history has them all once a person clears the nook (Control.EndActivity each).
            for id in 1...20 {
                _ = try await nook.observer.call("EndActivity", [.string("notifications"), .string("n\(id)"), WireCodec.vardict([:])],
                                                 interface: "org.nook.Nook1.Control")
            }
            #expect(await eventually { await NotificationHistoryTests.list(bus)?.count == 20 }, "\(nook.bridge.log)")
            await peeks.close()
            await nook.stop()
        }
    }
}
