import Foundation
import NookTestSupport

/// A process a test starts with its stdout and stderr in a file the test polls (a python3-dbus
/// module, mpv), ended by its pid.
final class OutputProcess: @unchecked Sendable {
    // @unchecked: the Process is only signalled and waited on by pid; `outputFile` is immutable.
    private let process: Process
    let outputFile: URL

    init(_ executable: String, _ arguments: [String], in directory: URL, name: String, environment extra: [String: String] = [:]) throws {
        outputFile = directory.appendingPathComponent("\(name).out")
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }
        let output = try FileHandle(forWritingTo: outputFile)
        // The child has its own copy; ours would stay open for the rest of the suite.
        defer { try? output.close() }
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.runSerialized()
    }

    /// `python3 -u` (Debian's, with python3-dbus and gi: no code shared with us) on `script`.
    convenience init(python script: String, in directory: URL, name: String) throws {
        let scriptFile = directory.appendingPathComponent("\(name).py")
        try script.write(to: scriptFile, atomically: true, encoding: .utf8)
        try self.init("/usr/bin/python3", ["-u", scriptFile.path], in: directory, name: name)
    }

    /// Everything it printed so far.
    var output: String { (try? String(contentsOf: outputFile, encoding: .utf8)) ?? "" }
    var lines: [String] { output.split(separator: "\n").map(String.init) }

    func stop() {
        if !ChildExit.hasExited(process.processIdentifier) { kill(process.processIdentifier, SIGKILL) }
        _ = ChildExit.waitBlocking(process.processIdentifier)
    }

    /// A module `py` with one activity `player` whose expanded view holds three controls in a
    /// row, in reading order `previous`, `pause` (labelled "Pause"), `next`. It prints `ready`
    /// once started and `invoked <activity> <action> <source>` for each `ActionInvoked`.
    static func playerModule(busAddress: String, in directory: URL) throws -> OutputProcess {
        try OutputProcess(python: """
            import dbus
            from dbus.mainloop.glib import DBusGMainLoop
            from gi.repository import GLib
            DBusGMainLoop(set_as_default=True)
            bus = dbus.bus.BusConnection("\(busAddress)")
            modules = dbus.Interface(bus.get_object("org.nook.Nook1", "/org/nook/Nook1"), "org.nook.Nook1.Modules")

            def node(kind, props, children=()):
                return dbus.Struct((kind, dbus.Dictionary(props, signature="sv"), dbus.Array(list(children), signature="v")),
                                   signature="sa{sv}av")

            def symbol(name, size):
                return node("image", {"symbol": name, "width": dbus.Double(size), "height": dbus.Double(size)})

            def button(action, label, name):
                return node("hstack", {"action": action, "action_label": label, "classes": "group",
                                       "padding": dbus.Struct((8.0, 8.0, 8.0, 8.0), signature="dddd")}, [symbol(name, 24)])

            expanded = node("vstack", {"spacing": dbus.Double(8)}, [
                node("text", {"text": "Controls", "font_size": dbus.Double(15)}),
                node("hstack", {"spacing": dbus.Double(24)}, [
                    button("previous", "Previous", "backward.fill"),
                    button("pause", "Pause", "pause.fill"),
                    button("next", "Next", "forward.fill"),
                ]),
            ])

            def invoked(activity, action, info):
                print("invoked", activity, action, info.get("source", "?"), flush=True)

            bus.add_signal_receiver(invoked, signal_name="ActionInvoked", dbus_interface="org.nook.Nook1.Modules")
            modules.Register("py", dbus.Dictionary({"display_name": "Py"}, signature="sv"))
            modules.StartActivity("player", dbus.Dictionary({
                "accessibility_label": "Player",
                "compact_leading": symbol("music.note", 20), "compact_trailing": node("text", {"text": "Py"}),
                "minimal": symbol("music.note", 20), "expanded": expanded, "relevance": dbus.Double(100),
            }, signature="sv"))
            print("ready", flush=True)
            GLib.MainLoop().run()
            """, in: directory, name: "player-module")
    }
}
