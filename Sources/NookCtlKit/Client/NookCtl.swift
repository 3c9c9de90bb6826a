import NookBus

extension Command {
    var isNotifications: Bool { if case .notifications = self { true } else { false } }
}

/// nookctl's entry point: parse, connect, run, and turn the outcome into an exit status.
public enum NookCtl {
    /// What the bus answers when nobody owns `org.nook.Nook1` (and it cannot start one).
    static let brokerAbsentErrors: Set<String> = [
        "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner",
    ]

    /// Runs one command line (without the program name).
    ///
    /// Usage errors print `nookctl: <message>` and the verb's usage line and help, and give 2;
    /// a D-Bus error prints `nookctl: <name>: <message>` and gives 1.
    /// - Parameter stopOnSignals: for `watch` and `record`, make the first SIGINT or SIGTERM
    ///   stop the command cleanly (`record` writes its file; exit status 0). The executable
    ///   sets it; tests running commands in-process leave it off.
    /// - Parameter finishesInBackground: after `activity start`/`update` with `--timer`, start
    ///   `nookctl activity finish M/A --wait` in the background (`FinishWaiter`), so the
    ///   countdown says "Done" by itself at zero. The executable sets it; in-process tests,
    ///   which are not nookctl, leave it off.
    public static func run(arguments: [String], output: OutputSink = .standard, stopOnSignals: Bool = false,
                           finishesInBackground: Bool = false) async -> ExitStatus {
        let invocation: Invocation
        do {
            invocation = try ArgumentParser.parse(arguments)
        } catch {
            // The message, then the verb's usage line and help (or the overview's usage line).
            let help = error.verb.map { HelpText.help(for: $0) } ?? HelpText.usage(for: nil)
            output.err("nookctl: \(error.message)\n" + help)
            return .usage
        }
        if case .help(let verb) = invocation.command {
            output.out(HelpText.help(for: verb))
            return .ok
        }
        let connection: BusConnection
        do {
            connection = try await BusConnection.connect(to: invocation.address.map(BusAddress.address) ?? .session, description: "nookctl")
        } catch {
            output.err("nookctl: cannot connect to the bus: \(error)\n")
            return .failure
        }
        var command = invocation.command
        if case .timer(.start(var start)) = command, start.id == nil {
            // Chosen before it runs, so the background finish below knows it.
            start.id = await NookControlClient(connection: connection).freeTimerID()
            command = .timer(.start(start))
        }
        let running = Task { () -> ExitStatus in
            do {
                return try await NookControlClient(connection: connection).execute(command, output: output)
            } catch let error as DBusError where command.isNotifications && error.name.hasPrefix("org.freedesktop.DBus.Error.") && error.name != "org.freedesktop.DBus.Error.InvalidArgs" {
                // No server, or another one (dunst, mako) without Nook's interface.
                output.err("nookctl: nook-notifications is not serving org.freedesktop.Notifications (\(error.name)); start it\n")
            } catch let error as DBusError where Self.brokerAbsentErrors.contains(error.name) {
                output.err("nookctl: nookd is not running (start it with `systemctl --user start nookd`, or run `nookd`)\n")
            } catch let error as DBusError {
                output.err("nookctl: \(error.name): \(error.message)\n")
            } catch {
                output.err("nookctl: \(error)\n")
            }
            return .failure
        }
        switch command {
        case .watch, .record, .statusAs(_, follow: true): if stopOnSignals { TerminationSignals.cancel(running) }
        default: break
        }
        // Cancelling the caller (a test running `status --follow` in-process) ends the command.
        let status = await withTaskCancellationHandler { await running.value } onCancel: { running.cancel() }
        await connection.close()
        if status == .ok, finishesInBackground, case .timer(.start(let start)) = command, let id = start.id {
            FinishWaiter.spawn(module: TimerCommand.module, activity: id, address: invocation.address, playsSound: start.playsSound, output: output)
        }
        guard status == .ok, case .activity(let activity) = command else { return status }
        switch activity {
        case .start(let request), .update(let request):
            if finishesInBackground, case .set = request.content.timer {
                FinishWaiter.spawn(module: request.module, activity: request.activity, address: invocation.address, playsSound: request.playsSound, output: output)
            }
        case .finish(let finish):
            // The module's connection is gone (its activities stay, detached); after the peek,
            // end it from a connection of no module.
            try? await Task.sleep(for: .milliseconds(Int64(finish.peekSeconds * 1000)))
            if let later = try? await BusConnection.connect(to: invocation.address.map(BusAddress.address) ?? .session, description: "nookctl") {
                try? await NookControlClient(connection: later).endPeek(ifStillOn: finish.module, finish.activity)
                await later.close()
            }
        default:
            break
        }
        return status
    }
}
