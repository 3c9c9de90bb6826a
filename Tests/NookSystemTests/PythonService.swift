import NookTestSupport

/// A D-Bus service written in python3-dbus (Debian's, on libdbus: no code shared with us) on
/// `address`, owning `name`: `body` defines its objects; it is running once this returns.
func pythonService(_ address: String, owning name: String, _ body: String) throws -> HelperProcess {
    let helper = try HelperProcess("/usr/bin/python3", ["-u", "-c", """
        import dbus, dbus.service
        from dbus.mainloop.glib import DBusGMainLoop
        from gi.repository import GLib
        DBusGMainLoop(set_as_default=True)
        bus = dbus.bus.BusConnection("\(address)")
        name = dbus.service.BusName("\(name)", bus)
        \(body)
        print("ready", flush=True)
        GLib.MainLoop().run()
        """])
    guard helper.readLine() == "ready" else { throw TestSupportError("the python service \(name) did not start") }
    return helper
}

/// How many times `line` stands as a whole line in `log` (nookd's `scene:` lines).
func occurrences(of line: String, in log: String) -> Int { log.components(separatedBy: line + "\n").count - 1 }
