import NookModuleAPI

/// The running timers and the module that publishes them.
actor TimerBoard {
    let module: NookModule
    private(set) var timers: [CountdownTimer]

    init(module: NookModule, timers: [CountdownTimer]) {
        self.module = module
        self.timers = timers
    }

    /// Starts one activity per timer.
    func startAll() async throws {
        for timer in timers { try await module.start(TimerViews.activity(for: timer)) }
    }

    /// A timer ran out: end its activity and take it off the home.
    func finish(_ timer: CountdownTimer) async throws {
        guard timers.contains(timer) else { return }
        timers.removeAll { $0 == timer }
        try await module.end(activityID: timer.id, dismissal: .default)
        try await module.publish(TimerViews.configuration(timers: timers))
    }

    /// Shutting down: end what still runs, then leave the broker.
    func stop() async {
        try? await module.endAll(dismissal: .immediate)
        timers.removeAll()
        try? await module.unregister()
    }
}
