import Foundation
import NookBus
import NookNotifications
import NookVersion

// nook-notifications: every desktop notification as a live activity in the nook.
//
// Owns org.freedesktop.Notifications (specification 1.2) and publishes each notification as
// an activity of the `notifications` module. The logic is NookNotifications; see
// docs/notifications.md.

let usage = """
    usage: nook-notifications [--replace] [--default-timeout S] [--peek-seconds S]
                              [--max-live N] [--address ADDR]
           nook-notifications --help | --version

    A freedesktop notification server (org.freedesktop.Notifications, spec 1.2) that shows
    each notification in the nook: the app icon and summary in the pill, a peek on arrival,
    the actions as buttons in the expanded view.

      --replace            take the name from a running notification daemon (dunst, mako...);
                           without it, a running one is reported and the exit status is 3
      --default-timeout S  how long a notification stays when the sender leaves it to the
                           server (expire_timeout -1), 1...3600 seconds (default 10)
      --peek-seconds S     how long the nook peeks at a new notification, 1...60 (default 5)
      --max-live N         the most notifications shown at once, 1...256 (default 32); more
                           end the oldest (NotificationClosed reason 1)
      --address ADDR       a D-Bus address to use instead of the session bus
      --help               show this text
      --version            print the version

    """

func say(_ line: String) { FileHandle.standardOutput.write(Data("nook-notifications: \(line)\n".utf8)) }

func usageError(_ message: String) -> Never {
    FileHandle.standardError.write(Data("nook-notifications: \(message)\n\(usage)".utf8))
    exit(2)
}

let runtime = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? NSTemporaryDirectory()
var settings = BridgeSettings(imageDirectory: runtime + "/nook-notifications-\(getpid())")
var address: String?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    func value() -> String {
        guard let value = arguments.popFirst(), !value.isEmpty, !value.hasPrefix("--") else { usageError("\(argument) needs a value") }
        return value
    }
    func number(in range: ClosedRange<Double>) -> Double {
        let text = value()
        guard let number = Double(text), range.contains(number) else {
            usageError("\(argument) needs a number in \(Int(range.lowerBound))...\(Int(range.upperBound)), got '\(text)'")
        }
        return number
    }
    switch argument {
    case "--help", "-h":
        print(usage, terminator: "")
        exit(0)
    case "--version":
        print(NookVersion.line(program: "nook-notifications"))
        exit(0)
    case "--replace": settings.replace = true
    case "--default-timeout": settings.defaultTimeout = .milliseconds(Int64(number(in: 1...3600) * 1000))
    case "--peek-seconds": settings.peekDuration = .milliseconds(Int64(number(in: 1...60) * 1000))
    case "--max-live": settings.capacity = Int(number(in: 1...256))
    case "--address": address = value()
    default: usageError("unknown argument '\(argument)'")
    }
}

let signals = TerminationSignals.install()
let bridge: NotificationBridge
do {
    bridge = try await NotificationBridge.start(address: address, settings: settings, version: NookVersion.number, log: say)
} catch let error as BridgeStartError {
    FileHandle.standardError.write(Data("nook-notifications: \(error.description)\n".utf8))
    exit(error.nameTaken ? 3 : 1)
} catch {
    FileHandle.standardError.write(Data("nook-notifications: cannot start: \(error)\n".utf8))
    exit(1)
}
say("serving \(NotificationsInterface.name)")

// Whichever comes first: a signal, or another daemon taking the name.
let (leave, leaving) = AsyncStream<String>.makeStream()
Task {
    await bridge.nameLost()
    leaving.yield("another daemon took \(NotificationsInterface.name)")
}
Task {
    for await number in signals {
        leaving.yield("signal \(number)")
        return
    }
}
for await reason in leave {
    say("\(reason), leaving")
    break
}
await bridge.shutDown()
exit(0)
