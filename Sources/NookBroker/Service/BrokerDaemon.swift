#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import NookBus
import NookCore

/// `nookd`'s life: start the broker, report readiness, serve until SIGTERM or SIGINT, write
/// the state file, exit. `main.swift` only parses arguments and calls `run`.
public enum BrokerDaemon {
    /// - Returns: the process exit status (0 after a clean stop; 1 when the broker could not
    ///   start, e.g. because another nookd owns the name or the state directory is not one it
    ///   may use, when the bus went away, or when the final state write failed).
    /// Not a signal number: the stop reason when the bus connection is gone.
    static let busLost: Int32 = -1

    public static func run(_ configuration: BrokerConfiguration) async -> Int32 {
        let log = configuration.log
        // Handlers first, so a signal during start-up still stops us cleanly.
        signal(SIGPIPE, SIG_IGN)
        let signals = TerminationSignals.install()
        // SIGHUP reloads the theme (systemd's ExecReload); installed now, so an early one
        // never ends the process the default way.
        let reloads = TerminationSignals.reloads()
        let stop = AsyncStream<Int32>.makeStream()
        let relay = Task.detached {
            for await number in signals { stop.continuation.yield(number) }
        }
        defer { relay.cancel() }

        // A state directory another user could plant links in is refused before anything in
        // it is read or written (StateDirectory); a missing one is created, 0700.
        let directory = configuration.stateDirectory ?? StateStore.defaultDirectory()
        do {
            _ = try StateDirectory.open(directory, create: true)
        } catch {
            log(.error, "\(error); not starting")
            return 1
        }
        let crashLoop = await guardAgainstCrashLoop(configuration)
        // The theme file's watch is armed before the theme is first read: a save in between
        // is reloaded once the broker is up. Saving the file reloads it, as SIGHUP does.
        let themeReloads = ThemeFileReloads(configuration)
        defer { themeReloads?.stop() }
        let broker: Broker
        do {
            broker = try await Broker.start(configuration)
        } catch {
            log(.error, "\(error)")
            crashLoop.disarm()
            return 1
        }
        ServiceNotify.notify("READY=1\nSTATUS=serving \(NookNames.busName)")
        let reloader = Task.detached {
            for await _ in reloads {
                ServiceNotify.notify("RELOADING=1")
                // A bad file is logged by the broker and changes nothing.
                _ = try? await broker.reloadTheme()
                ServiceNotify.notify("READY=1")
            }
        }
        defer { reloader.cancel() }
        themeReloads?.attach(broker)
        let survival = Task.detached {
            try? await Task.sleep(for: CrashLoopGuard.survivalWindow)
            guard !Task.isCancelled else { return }
            crashLoop.disarm()
            log(.debug, "served \(CrashLoopGuard.survivalWindow) after READY=1: this start is not part of a crash loop")
        }
        defer { survival.cancel() }
        let watchdog = ServiceNotify.watchdogInterval.map { interval in
            Task.detached {
                while !Task.isCancelled {
                    try? await Task.sleep(for: interval / 2)
                    // Through the broker's own executor: a wedged bus thread stops the pings.
                    await broker.heartbeat()
                    ServiceNotify.notify("WATCHDOG=1")
                }
            }
        }
        // The bus daemon can die under us: stop, instead of living on as a zombie no client
        // can reach. (The connection also closes when we close it, after a signal; by then
        // the signal has been taken and this yield is never read.)
        let busWatch = Task.detached {
            await broker.connection.waitUntilClosed()
            stop.continuation.yield(Self.busLost)
        }
        defer { busWatch.cancel() }
        var stops = stop.stream.makeAsyncIterator()
        let number = await stops.next() ?? SIGTERM
        if number == Self.busLost {
            log(.error, "lost the connection to the bus; writing state and exiting")
        } else {
            log(.info, "received signal \(number); writing state and stopping")
        }
        ServiceNotify.notify("STOPPING=1")
        // A second signal while stopping means "now": exit without waiting for the state file.
        // (Closing the connection below also reports a lost bus here: that one is ignored.)
        let impatience = Task.detached { [stops] in
            var rest = stops
            while let next = await rest.next() {
                guard next != Self.busLost else { continue }
                log(.error, "second signal while stopping; exiting without waiting")
                crashLoop.disarm()
                exit(1)
            }
        }
        defer { impatience.cancel() }
        watchdog?.cancel()
        let saved = await broker.shutdown()
        crashLoop.disarm()
        if !saved {
            log(.error, "the final state write failed: the last changes are not on disk; exiting with status 1")
            return 1
        }
        return number == Self.busLost ? 1 : 0
    }

    /// Arms the crash-loop guard for this start; when the previous starts died early too
    /// often in a row, sets the state file aside first, so this start begins empty.
    static func guardAgainstCrashLoop(_ configuration: BrokerConfiguration) async -> CrashLoopGuard {
        let log = configuration.log
        let directory = configuration.stateDirectory ?? StateStore.defaultDirectory()
        let crashLoop = CrashLoopGuard(directory: directory)
        let verdict: CrashLoopGuard.Verdict
        do { verdict = try crashLoop.arm() } catch {
            log(.warning, "cannot write the crash-loop marker \(crashLoop.markerURL.path): \(error); this start is not guarded")
            return crashLoop
        }
        switch verdict {
        case .ok(let deaths) where deaths > 0:
            log(.warning, "the previous nookd died within \(CrashLoopGuard.survivalWindow) of starting (\(deaths) in a row); "
                + "at \(CrashLoopGuard.earlyDeathsToTrip) the state file is set aside")
        case .ok:
            break
        case .tripped(let deaths):
            let store = StateStore(directory: directory)
            do {
                let moved = try await store.setAside(kind: "crashloop")
                log(.error, "crash loop: the last \(deaths) starts died within \(CrashLoopGuard.survivalWindow) of starting; "
                    + "starting without the saved state, which was moved to \(moved ?? "(there was none)")")
            } catch {
                log(.error, "crash loop: the last \(deaths) starts died early, and the state file could not be set aside: \(error)")
            }
        case .anotherInstance(let pid):
            log(.warning, "nookd \(pid) is starting on the same state directory; the crash-loop guard leaves it alone")
        }
        return crashLoop
    }
}
