import NookModuleAPI

/// One countdown.
struct CountdownTimer: Hashable, Sendable {
    /// The activity id: `t1`, `t2`, ...
    var id: String
    var name: String
    var started: NookInstant
    var ends: NookInstant
}

/// The time left. Sent as `timer_end`: the renderer counts down, the module never ticks.
struct TimerText: NookView {
    var timer: CountdownTimer
    var size: Double = 13

    var body: some NookView {
        Text(timerEndingAt: timer.ends).font(size: size, weight: .semibold).monospacedDigit()
    }
}

/// A row of the home: the timer's name, then its countdown marked `timer.<id>`, so the pill's
/// countdown of that very timer moves into this row when the nook opens onto the home.
struct TimerRow: NookView {
    var timer: CountdownTimer

    var body: some NookView {
        HStack(spacing: 8) {
            Image(systemName: "timer").frame(width: 16, height: 16)
            Text(timer.name)
            Spacer()
            TimerText(timer: timer, size: 15).nookSharedElement("timer.\(timer.id)", style: .scale)
        }
    }
}

enum TimerViews {
    /// The live activity of one timer: its countdown, marked `timer`, right of the notch.
    static func activity(for timer: CountdownTimer) -> NookLiveActivity {
        var activity = NookLiveActivity(
            id: timer.id, accessibilityLabel: "\(timer.name), counting down", staleDate: timer.ends
        ) {
            Image(systemName: "timer")
        } compactTrailing: {
            TimerText(timer: timer).nookSharedElement("timer", style: .scale)
        } minimal: {
            ProgressView(start: timer.started, end: timer.ends).progressViewStyle(.circular)
        }
        activity.setPeek {
            HStack(spacing: 8) {
                Text(timer.name)
                Spacer()
                TimerText(timer: timer, size: 17).nookSharedElement("timer", style: .scale)
            }
        }
        activity.setExpanded {
            VStack(alignment: .leading, spacing: 6) {
                Text(timer.name).font(size: 15, weight: .semibold)
                TimerText(timer: timer, size: 28).nookSharedElement("timer", style: .scale)
                ProgressView(start: timer.started, end: timer.ends)
            }
        }
        return activity
    }

    /// The module's own views: an icon in the pill, every running timer in the home, a
    /// count on the board.
    static func configuration(timers: [CountdownTimer]) -> NookModuleConfiguration {
        var configuration = NookModuleConfiguration(id: "timer", displayName: "Timers", version: "1.0")
        configuration.setCompactLeading {
            Image(systemName: "timer")
        }
        configuration.setHome {
            VStack(alignment: .leading, spacing: 6) {
                Text("Timers").font(size: 17, weight: .bold).role(.header)
                if timers.isEmpty {
                    Text("No timer running")
                }
                ForEach(timers, id: \.id) { timer in
                    TimerRow(timer: timer)
                }
            }
            .tw("p-2 animate-snappy", value: timers.count)
        }
        configuration.setWidget {
            HStack(spacing: 6) {
                Image(systemName: "timer")
                Text(timers.count == 1 ? "1 timer" : "\(timers.count) timers")
            }
        }
        return configuration
    }
}
