import NookModuleAPI

/// The running timers and the module that publishes them.
actor TimerBoard {
    let module: NookModule
    private(set) var timers: [CountdownTimer]
    /// Timers that ran out and say "Done" until they end.
    private(set) var done: Set<String> = []

    init(module: NookModule, timers: [CountdownTimer]) {
        self.module = module
        self.timers = timers
    }

    /// Starts one activity per timer.
    func startAll() async throws {
        for timer in timers { try await module.start(TimerViews.activity(for: timer)) }
    }

    /// A timer ran out: its views say "Done" (for `doneFor`, after which the broker ends it
    /// should the module be gone), the nook peeks at it and the sound plays (unless
    /// `playsSound` is false).
    /// - Returns: false when the timer is no longer live (a person ended it first).
    func ring(_ timer: CountdownTimer, doneFor: Duration, playsSound: Bool) async throws -> Bool {
        guard timers.contains(timer), await module.activities.contains(where: { $0.id == timer.id }) else { return false }
        done.insert(timer.id)
        // The broker's own end comes a little after the module's, so the module ends it.
        try await module.update(TimerViews.activity(for: timer, done: true, doneUntil: .now() + doneFor + .seconds(2)))
        try await module.publish(TimerViews.configuration(timers: timers, done: done))
        try await module.alert(activityID: timer.id, NookAlert(sound: "complete", soundDescription: "\(timer.name) done"), playsSound: playsSound)
        return true
    }

    /// A timer's minute of "Done" is over, or a person ended it: end its activity and take it
    /// off the home.
    func finish(_ timer: CountdownTimer) async throws {
        guard timers.contains(timer) else { return }
        timers.removeAll { $0 == timer }
        done.remove(timer.id)
        if await module.activities.contains(where: { $0.id == timer.id }) {
            try await module.end(activityID: timer.id, dismissal: .default)
        }
        try await module.publish(TimerViews.configuration(timers: timers, done: done))
    }

    /// Shutting down: end what still runs, then leave the broker.
    func stop() async {
        try? await module.endAll(dismissal: .immediate)
        timers.removeAll()
        try? await module.unregister()
    }
}
