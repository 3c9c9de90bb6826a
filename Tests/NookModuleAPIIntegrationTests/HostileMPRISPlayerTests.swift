import Foundation
import NookBus
import NookCore
import NookModuleAPI
import NookTestSupport
import Testing

/// nook-mpris against a hostile MPRIS player (issue 38, finding 4): any app may own an
/// `org.mpris.MediaPlayer2.*` name, and this one, python3-dbus on the test's private bus,
/// serves every number at its extremes (`mpris:length` as the double 1e300, `Int64.max`,
/// `Int64.min`, NaN, a `t` past `Int64`; `Position` likewise; NaN `Rate`, infinite `Volume`,
/// extreme track numbers) and a FIFO as its `mpris:artUrl`. The bridge stays up through all of
/// it, logs each refused value naming the player and the key, and publishes the song with
/// what is left: a progress only where the length is in range, and then a sane one.
@Suite(.serialized) struct HostileMPRISPlayerTests {
    /// The player: `Use(i)` switches to case `i` and announces it with `PropertiesChanged`.
    /// Case `i`'s title is `Case i`, so the test can tell which one the bridge published.
    static let player = #"""
        import sys
        import dbus, dbus.service, dbus.mainloop.glib
        from gi.repository import GLib

        dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
        bus = dbus.bus.BusConnection(sys.argv[1])
        fifo = sys.argv[2]
        I64_MAX, I64_MIN, U64_MAX = 2**63 - 1, -2**63, 2**64 - 1
        NAN, INF = float("nan"), float("inf")
        SONG = dbus.Int64(180 * 1000000)
        # Each case: the metadata added to the title, the Position, and other properties.
        CASES = [
            ({"mpris:length": dbus.Double(1e300)}, dbus.Int64(0), {}),
            ({"mpris:length": dbus.Int64(I64_MAX)}, dbus.Int64(0), {}),
            ({"mpris:length": dbus.Int64(I64_MIN)}, dbus.Int64(0), {}),
            ({"mpris:length": dbus.Double(NAN)}, dbus.Double(NAN), {}),
            ({"mpris:length": dbus.UInt64(U64_MAX)}, dbus.Int64(0), {}),
            ({"mpris:length": SONG}, dbus.Int64(I64_MAX), {}),
            ({"mpris:length": SONG}, dbus.Int64(I64_MIN), {}),
            ({"mpris:length": SONG}, dbus.Double(-INF), {}),
            ({"mpris:length": dbus.Double(-1e300), "mpris:artUrl": "file://" + fifo,
              "xesam:trackNumber": dbus.Int32(-2**31), "xesam:discNumber": dbus.Int32(2**31 - 1)},
             dbus.Double(1e300), {"Rate": dbus.Double(NAN), "Volume": dbus.Double(INF),
                                  "MinimumRate": dbus.Double(-INF), "MaximumRate": dbus.Double(1e308)}),
            ({"mpris:length": SONG}, dbus.Int64(60 * 1000000), {"Rate": dbus.Double(1.0), "Volume": dbus.Double(0.5)}),
        ]

        class Player(dbus.service.Object):
            def __init__(self):
                dbus.service.Object.__init__(self, bus, "/org/mpris/MediaPlayer2")
                self.case = 0

            def properties(self):
                metadata, position, others = CASES[self.case]
                fields = {"mpris:trackid": dbus.ObjectPath("/org/nook/test/track/%d" % self.case),
                          "xesam:title": "Case %d" % self.case, "xesam:artist": dbus.Array(["Hostile"], signature="s")}
                fields.update(metadata)
                props = {"PlaybackStatus": "Playing", "Metadata": dbus.Dictionary(fields, signature="sv"), "Position": position,
                         "CanControl": True}
                props.update(others)
                return dbus.Dictionary(props, signature="sv")

            @dbus.service.method("org.freedesktop.DBus.Properties", in_signature="ss", out_signature="v")
            def Get(self, interface, name):
                return self.properties()[name]

            @dbus.service.method("org.freedesktop.DBus.Properties", in_signature="s", out_signature="a{sv}")
            def GetAll(self, interface):
                if interface == "org.mpris.MediaPlayer2.Player":
                    return self.properties()
                return dbus.Dictionary({"Identity": "Hostile"}, signature="sv")

            @dbus.service.signal("org.freedesktop.DBus.Properties", signature="sa{sv}as")
            def PropertiesChanged(self, interface, changed, invalidated):
                pass

            @dbus.service.method("org.nook.test.Hostile", in_signature="i")
            def Use(self, case):
                self.case = case
                self.PropertiesChanged("org.mpris.MediaPlayer2.Player", self.properties(), dbus.Array([], signature="s"))

        player = Player()
        name = dbus.service.BusName("org.mpris.MediaPlayer2.hostile", bus)
        print("serving", len(CASES), "cases", flush=True)
        GLib.MainLoop().run()
        """#

    /// What nook-mpris must log of each case (before `; ignored as absent`).
    static func refusals(fifo: String) -> [Int: [String]] {
        let range = "outside 1...604800000000 µs"
        let positions = "outside 0...604800000000 µs"
        return [
            0: ["player hostile: mpris:length 1e+300 is \(range)"],
            1: ["player hostile: mpris:length 9223372036854775807 is \(range)"],
            2: ["player hostile: mpris:length -9223372036854775808 is \(range)"],
            3: ["player hostile: mpris:length NaN is not a finite number", "player hostile: Position NaN is not a finite number"],
            4: ["player hostile: mpris:length 18446744073709551615 is \(range)"],
            5: ["player hostile: Position 9223372036854775807 is \(positions)"],
            6: ["player hostile: Position -9223372036854775808 is \(positions)"],
            7: ["player hostile: Position -inf is not a finite number"],
            8: ["player hostile: mpris:length -1e+300 is \(range)", "player hostile: Position 1e+300 is \(positions)",
                "player hostile: mpris:artUrl \(fifo) is a FIFO, not a regular file; shown without art"],
        ]
    }

    /// The `start` and `end` of the song's progress in nookd's state file (nil when it has none).
    static func storedProgress(_ nookd: NookdProcess) -> (start: Int64, end: Int64)? {
        let file = nookd.stateDirectory.appendingPathComponent("state.json")
        guard let data = try? Data(contentsOf: file), let root = try? JSONSerialization.jsonObject(with: data) else { return nil }
        var found: (Int64, Int64)?
        // A stored prop is a one-key object naming its type: `{"i": 1700000000000000}`.
        func integer(_ value: Any?) -> Int64? { ((value as? [String: Any])?["i"] as? NSNumber)?.int64Value }
        func visit(_ value: Any) {
            if let record = value as? [String: Any] {
                if let start = integer(record["start"]), let end = integer(record["end"]) { found = (start, end) }
                record.values.forEach(visit)
            } else if let list = value as? [Any] {
                list.forEach(visit)
            }
        }
        guard let registry = (root as? [String: Any])?["registry"] as? [String: Any],
              let modules = registry["modules"] as? [[String: Any]], let music = modules.first(where: { $0["id"] as? String == "music" }),
              let activities = music["activities"] as? [[String: Any]], let song = activities.first(where: { $0["id"] as? String == "song" })
        else { return nil }
        visit(song)
        return found
    }

    @Test func extremeNumbersFromAPlayerAreIgnoredAndTheBridgeStaysUp() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let script = scratch.url.appendingPathComponent("hostile_player.py")
        try Self.player.write(to: script, atomically: true, encoding: .utf8)
        let fifo = scratch.url.appendingPathComponent("cover.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, home: scratch.url)
            let observer = try await Observer.connect(bus)
            let player = try ProductProcess("/usr/bin/python3", ["-u", script.path, bus.address, fifo], logDirectory: scratch.url)
            #expect(await eventually(timeout: .seconds(60)) { player.log.contains("serving 10 cases") }, "\(player.log)")

            // Case 0 is there from the start: nook-mpris reads it on starting.
            let music = try ProductProcess("nook-mpris", ["--address", bus.address], logDirectory: scratch.url)
            let refusals = Self.refusals(fifo: fifo)
            for index in 0..<10 {
                if index > 0 {
                    _ = try await observer.connection.call(
                        destination: "org.mpris.MediaPlayer2.hostile", path: "/org/mpris/MediaPlayer2", interface: "org.nook.test.Hostile",
                        member: "Use", arguments: [.int32(Int32(index))], timeout: .seconds(20))
                }
                // Published, and accepted by the broker (which refuses a date out of its range).
                #expect(await eventually(timeout: .seconds(60)) {
                    nookd.storedActivities(of: "music")["song"]?.contains("Now playing: Case \(index) by Hostile") == true
                },
                        "case \(index):\n\(music.log)\n\(player.log)")
                #expect(music.isRunning, "case \(index) ended nook-mpris:\n\(music.log)")
                for line in refusals[index] ?? [] {
                    #expect(music.log.contains(line), "case \(index): no '\(line)' in\n\(music.log)")
                }
            }
            #expect(!music.log.contains("the broker refused"), "\(music.log)")
            // Every refused value said what it did with it; the FIFO never went out as art.
            #expect(music.log.components(separatedBy: "; ignored as absent").count - 1 == 11, "\(music.log)")
            #expect(nookd.storedActivities(of: "music")["song"]?.contains { $0.contains(fifo) } == false)

            // The last case is a sane song, 60 s into 180: its progress runs from 60 s ago to
            // 120 s from now, exactly 180 s apart.
            #expect(await eventually(timeout: .seconds(60)) { Self.storedProgress(nookd).map { $0.end - $0.start } == 180_000_000 },
                    "\(String(describing: Self.storedProgress(nookd)))")
            if let progress = Self.storedProgress(nookd) {
                let now = NookInstant.now().unixMicroseconds
                #expect(abs(progress.start - (now - 60_000_000)) < 30_000_000, "start \(progress.start), now \(now)")
            }

            #expect(await music.stop(SIGTERM) == 0, "\(music.log)")
            await player.stop(SIGKILL)
            await observer.close()
            #expect(await nookd.process.stop() == 0, "\(nookd.log)")
        }
    }
}
