import NookCore

/// Why `NookModule.run` returned.
public enum NookModuleExit: Hashable, Sendable {
    /// The body returned.
    case finished
    /// SIGTERM or SIGINT arrived: the body was cancelled and the activities ended at once.
    case signal(Int32)
    /// The broker could not be reached, or the body threw (a non-SDK error is carried by its description).
    case failed(NookModuleError)
}

extension NookModule {
    /// A module's whole life in one call: connects, runs `body`, and ends cleanly however it
    /// stops. When `body` returns, the activities still live end as they would by themselves
    /// (`.default`); on SIGTERM or SIGINT `body` is cancelled and they end at once
    /// (`.immediate`); either way the module unregisters and its connection closes. A person's
    /// dismissal of one activity is that activity's business (`NookActivity.activityStateUpdates`).
    ///
    /// ```swift
    /// let exit = await NookModule.run(configuration) { module in
    ///     let build = try await NookActivity.request(attributes: ..., content: ..., id: "build", on: module)
    ///     for await step in job.steps { try await build.update(step) }
    ///     try await build.end(dismissalPolicy: .immediate)
    /// }
    /// ```
    /// - Parameters:
    ///   - address: the bus; by default `--address ADDR` from the command line, else the session bus.
    ///   - handlesSignals: whether SIGTERM and SIGINT end the module (their handlers are the
    ///     process's from then on); false leaves the process's signals alone.
    public static func run(
        _ configuration: NookModuleConfiguration, address: NookModuleAddress = NookModuleAddress(commandLine: CommandLine.arguments),
        handlesSignals: Bool = true, _ body: @escaping @Sendable (NookModule) async throws -> Void
    ) async -> NookModuleExit {
        // Before connecting: a signal during the connection is not lost.
        let signals = handlesSignals ? TerminationSignals.install() : AsyncStream { $0.finish() }
        let module: NookModule
        do { module = try await connect(configuration, address: address) } catch {
            return .failed(Self.moduleError(error))
        }
        // Whichever comes first; a body that is slow to notice its cancellation does not hold
        // up the end after a signal.
        let (reasons, reason) = AsyncStream<NookModuleExit>.makeStream()
        let work = Task {
            do {
                try await body(module)
                reason.yield(.finished)
            } catch {
                reason.yield(.failed(Self.moduleError(error)))
            }
        }
        let listener = Task {
            for await number in signals {
                reason.yield(.signal(number))
                return
            }
        }
        var exit = NookModuleExit.finished
        for await first in reasons {
            exit = first
            break
        }
        listener.cancel()
        if case .signal = exit { work.cancel() }
        let dismissal: NookDismissal = if case .signal = exit { .immediate } else { .default }
        try? await module.endAll(dismissal: dismissal)
        try? await module.unregister()
        await module.close()
        return exit
    }

    private static func moduleError(_ error: any Error) -> NookModuleError {
        error as? NookModuleError ?? NookModuleError(name: "org.freedesktop.DBus.Error.Failed", message: "\(error)")
    }
}
