import Foundation
import NookBus

/// `nookd`'s life: start the broker, report readiness, serve until SIGTERM or SIGINT, write
/// the state file, exit. `main.swift` only parses arguments and calls `run`.
public enum BrokerDaemon {
    /// - Returns: the process exit status (0 after a clean stop, 1 when the broker could not
    ///   start, e.g. because another nookd owns the name).
    public static func run(_ configuration: BrokerConfiguration) async -> Int32 {
        let log = configuration.log
        // Block the signals' default action first, so a signal during start-up still stops us cleanly.
        signal(SIGTERM, SIG_IGN)
        signal(SIGINT, SIG_IGN)
        signal(SIGPIPE, SIG_IGN)
        let stop = AsyncStream<Int32>.makeStream()
        let sources = [SIGTERM, SIGINT].map { number -> any DispatchSourceSignal in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { stop.continuation.yield(number) }
            source.resume()
            return source
        }
        defer { sources.forEach { $0.cancel() } }

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
        var signals = stop.stream.makeAsyncIterator()
        let number = await signals.next() ?? SIGTERM
        log(.info, "received signal \(number); writing state and stopping")
        ServiceNotify.notify("STOPPING=1")
        watchdog?.cancel()
        await broker.shutdown()
        return 0
    }
}
