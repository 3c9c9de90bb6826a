import FoundationEssentials
import Glibc
import NookFiles
import NookBus
import NookNotifications
import NookCommandLine
import NookVersion

// nook-notifications: every desktop notification as a live activity in the nook.
//
// Owns org.freedesktop.Notifications (specification 1.2) and publishes each notification as
// an activity of the `notifications` module. The logic is NookNotifications; see
// docs/notifications.md.

/// nook-notifications' entry point: the `nook-notifications` executable and the multi-call `nook-programs` both call it.
public enum Program {
    public static func main() async -> Never {
        let commandLine = CommandLineInterface(
            program: "nook-notifications",
            usage: ["[--replace] [--default-timeout S] [--peek-seconds S] [--max-live N] [--history N] [--state-dir DIR] [--rules FILE] [--no-sound] [--address ADDR]", "--help | --version"],
            about: """
                A freedesktop notification server (org.freedesktop.Notifications, spec 1.2) that shows
                each notification in the nook: the app icon and summary in the pill, a peek on arrival,
                the actions as buttons in the expanded view.
                """,
            options: [
                .flag("--replace", help: "take the name from a running notification daemon (dunst, mako...); without it, a running one is reported and the exit status is 3"),
                .value("--default-timeout", "S", help: "how long a notification stays when the sender leaves it to the server (expire_timeout -1), 1...3600 seconds (default 10)"),
                .value("--peek-seconds", "S", help: "how long the nook peeks at a new notification, 1...60 (default 5)"),
                .value("--max-live", "N", help: "the most notifications shown at once, 1...256 (default 32); more end the oldest (NotificationClosed reason 1)"),
                .value("--history", "N", help: "how many closed notifications the history keeps, 0...500 (default 50; 0 keeps none)"),
                .value("--state-dir", "DIR", help: "where the history and do not disturb are kept (default $XDG_STATE_HOME/nook, else ~/.local/state/nook); created 0700"),
                .value("--rules", "FILE", help: "the notification rules, see nook-notifications-rules(5) (default $XDG_CONFIG_HOME/nook/notifications.rules, else ~/.config/nook/notifications.rules); read again when it changes and on nookctl reload"),
                .flag("--no-sound", help: "play no sounds: the sound-file and sound-name hints are ignored, and GetCapabilities leaves out sound"),
                .value("--address", "ADDR", help: "a D-Bus address to use instead of the session bus"),
            ])

        @Sendable func say(_ line: String) { StandardStream.output.write("nook-notifications: \(line)\n") }

        // Parsed before anything touches the bus, so --help and mistakes never need one.
        let parsed = commandLine.parseOrExit()
        let runtime = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? FileManager.default.temporaryDirectory.path
        var settings = BridgeSettings(imageDirectory: runtime + "/nook-notifications-\(getpid())")
        settings.replace = parsed.flag("--replace")
        if let seconds = parsed.number("--default-timeout", in: 1...3600) { settings.defaultTimeout = .milliseconds(Int64(seconds * 1000)) }
        if let seconds = parsed.number("--peek-seconds", in: 1...60) { settings.peekDuration = .milliseconds(Int64(seconds * 1000)) }
        if let count = parsed.integer("--max-live", in: 1...256) { settings.capacity = count }
        if let count = parsed.integer("--history", in: 0...NotificationHistory.maxCapacity) { settings.historyCapacity = count }
        if let directory = parsed.text("--state-dir") { settings.stateDirectory = directory }
        if let rules = parsed.text("--rules") { settings.rulesPath = rules }
        settings.sound = !parsed.flag("--no-sound")
        let address = parsed.text("--address")

        let signals = TerminationSignals.install()
        let bridge: NotificationBridge
        do {
            bridge = try await NotificationBridge.start(address: address, settings: settings, version: NookVersion.number, log: say)
        } catch let error as BridgeStartError {
            StandardStream.error.write("nook-notifications: \(error.description)\n")
            exit(error.nameTaken ? 3 : 1)
        } catch {
            StandardStream.error.write("nook-notifications: cannot start: \(error)\n")
            exit(1)
        }
        say("serving \(NotificationsInterface.name)")

        // Whichever comes first: a signal, another daemon taking the name, or the bus going away.
        // Only the last is a failure (status 1), so `Restart=on-failure` brings the bridge back.
        let (leave, leaving) = AsyncStream<(reason: String, status: Int32)>.makeStream()
        Task {
            switch await bridge.departure() {
            case .nameTaken: leaving.yield(("another daemon took \(NotificationsInterface.name)", 0))
            case .busLost: leaving.yield(("lost the connection to the bus", 1))
            }
        }
        Task {
            for await number in signals {
                leaving.yield(("signal \(number)", 0))
                return
            }
        }
        var status: Int32 = 0
        for await departure in leave {
            say("\(departure.reason), leaving")
            status = departure.status
            break
        }
        if status == 0 { await bridge.shutDown() }
        exit(status)
    }
}
