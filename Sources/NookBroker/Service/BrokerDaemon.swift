import Foundation
import NookBus

/// `nookd`'s life: start the broker, report readiness, serve until SIGTERM or SIGINT, write
/// the state file, exit. `main.swift` only parses arguments and calls `run`.
public enum BrokerDaemon {
    /// - Returns: the process exit status (0 after a clean stop, 1 when the broker could not
    ///   start, e.g. because another nookd owns the name).
    /// Not a signal number: the stop reason when the bus connection is gone.
    static let busLost: Int32 = -1

    public static func run(_ configuration: BrokerConfiguration) async -> Int32 {
        let log = configuration.log
        // Handlers first, so a signal during start-up still stops us cleanly.
        signal(SIGPIPE, SIG_IGN)
        let signals = TerminationSignals.install()
        let stop = AsyncStream<Int32>.makeStream()
        let relay = Task.detached {
            for await number in signals { stop.continuation.yield(number) }
        }
        defer { relay.cancel() }

        let broker: Broker
        do {
            broker = try await Broker.start(configuration)
        } catch {
            log(.error, "\(error)")
            return 1
        }
        ServiceNotify.notify("READY=1\nSTATUS=serving \(NookContract.busName)")
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
                exit(1)
            }
        }
        defer { impatience.cancel() }
        watchdog?.cancel()
        await broker.shutdown()
        return number == Self.busLost ? 1 : 0
    }
}
