import Foundation
import NookBus
import NookTestSupport
import Testing

/// A module's change that one renderer is due to show reaches that renderer before the call
/// is answered (`Broker.deliverBeforeTheReplyWhenOneRendererIsDue`); with several renderers
/// due, plans stay on the frame timer's turns.
@Suite struct PlanBeforeReplyTests {
    static let updates = 20

    /// One python3-dbus connection that is both the module and the renderer (1000 Hz), so
    /// nookd's plan and its reply arrive on one connection in the order nookd sent them, and
    /// libdbus hands them over in that order. For each update it prints which came first, then
    /// lets a frame pass and makes a round trip (acknowledging the plans) before the next.
    static func script(_ bus: PrivateBus) -> String {
        """
        import dbus, dbus.mainloop.glib
        from gi.repository import GLib
        dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
        bus = dbus.bus.BusConnection("\(bus.address)")
        nook = bus.get_object("org.nook.Nook1", "/org/nook/Nook1", introspect=False)
        modules = dbus.Interface(nook, "org.nook.Nook1.Modules")
        render = dbus.Interface(nook, "org.nook.Nook1.Render")
        control = dbus.Interface(nook, "org.nook.Nook1.Control")
        def node(kind, props):
            return dbus.Struct((kind, dbus.Dictionary(props, signature="sv"), dbus.Array([], signature="v")), signature="sa{sv}av")
        def spec(n):
            return dbus.Dictionary({"accessibility_label": "Song", "compact_leading": node("text", {"text": "L"}),
                                    "compact_trailing": node("text", {"text": "track %d" % n}), "minimal": node("text", {"text": "M"})}, signature="sv")
        loop = GLib.MainLoop()
        events = []
        update = [0]
        def arrived(what):
            events.append(what)
            if len(events) == 2:
                print(events[0] + " first", flush=True)
                GLib.timeout_add(5, settle)
        def settle():
            control.GetState()
            send()
            return False
        def send():
            update[0] += 1
            if update[0] > \(updates):
                loop.quit()
                return
            del events[:]
            modules.UpdateActivity("song", spec(update[0]), reply_handler=lambda *a: arrived("reply"), error_handler=lambda e: print("error", e, flush=True))
        bus.add_signal_receiver(lambda *a: arrived("plan") if update[0] > 0 else None, signal_name="Plan", dbus_interface="org.nook.Nook1.Render")
        modules.Register("order", dbus.Dictionary({}, signature="sv"))
        render.Subscribe(dbus.Dictionary({"width": 1512.0, "height": 982.0, "notch_width": 200.0, "notch_height": 32.0,
                                          "refresh_rate": 1000.0}, signature="sv"))
        modules.StartActivity("song", spec(0))
        GLib.timeout_add(100, settle)
        loop.run()
        print("done", flush=True)
        """
    }

    @Test func aChangeOneRendererIsDueToShowReachesItBeforeTheReply() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            let errors = temp.url.appendingPathComponent("client.err")
            let client = try LineProcess(python: Self.script(bus), stderrFile: errors)
            defer { client.stop() }
            var firsts: [String] = []
            while firsts.count < Self.updates, let line = await client.line(startingWith: "", timeout: .seconds(60)) {
                firsts.append(line)
            }
            #expect(firsts == Array(repeating: "plan first", count: Self.updates),
                    "\(firsts) \((try? String(contentsOf: errors, encoding: .utf8)) ?? "")")
            client.stop()
            _ = await nookd.stop()
        }
    }
}
