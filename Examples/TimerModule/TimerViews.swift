import NookModuleAPI

/// One countdown.
struct CountdownTimer: Hashable, Sendable {
    /// The activity id: `t1`, `t2`, ...
    var id: String
    var name: String
    /// What the capsule shows inside the ring: the name's initial, or the timer's number when
    /// two names share an initial (`TimerPalette.shortLabels`).
    var short: String
    /// The timer's colour (`#RRGGBB`), from `TimerPalette`: its ring, name and countdown.
    var color: String
    var started: NookInstant
    var ends: NookInstant

    /// The class that tints a view and everything in it (text, symbols, the ring) in `color`.
    var tint: String { "text-[\(color)]" }
}

/// Colours that tell timers apart on the black chrome, in the order timers take them.
enum TimerPalette {
    static let colors = ["#FF9F0A", "#64D2FF", "#FF6482", "#30D158", "#BF5AF2", "#FFD60A", "#5E8BFF", "#AC8E68"]

    /// The colour of the timer at `index` (0-based); after eight the colours repeat.
    static func color(_ index: Int) -> String { colors[index % colors.count] }

    /// One short label per name: its initial when every name starts differently, else the
    /// timers' numbers (1, 2, ...), so two labels never read the same.
    static func shortLabels(_ names: [String]) -> [String] {
        let initials = names.map { $0.first.map { String($0).uppercased() } ?? "" }
        if Set(initials).count == names.count, !initials.contains("") { return initials }
        return names.indices.map { String($0 + 1) }
    }
}

/// The time left. Sent as `timer_end`: the renderer counts down, the module never ticks.
struct TimerText: NookView {
    var timer: CountdownTimer
    var size: Double = 13

    var body: some NookView {
        Text(timerEndingAt: timer.ends, from: timer.started).font(size: size, weight: .semibold).monospacedDigit()
    }
}

/// "Done", where the countdown stood once the timer ran out.
struct DoneText: NookView {
    var size: Double = 13

    var body: some NookView {
        Text("Done").font(size: size, weight: .semibold)
    }
}

/// A ring with the timer's short label inside, in its colour: the capsule view.
struct TimerRing: NookView {
    var timer: CountdownTimer
    var done: Bool

    var body: some NookView {
        ZStack {
            if done {
                ProgressView(value: 1).progressViewStyle(.circular)
            } else {
                ProgressView(start: timer.started, end: timer.ends).progressViewStyle(.circular)
            }
            Text(timer.short).font(size: 11, weight: .bold)
        }
        .tw(timer.tint)
    }
}

/// A row of the home: the timer's name, then its countdown (or "Done") marked `timer.<id>`,
/// so the pill's countdown of that very timer moves into this row when the nook opens onto
/// the home.
struct TimerRow: NookView {
    var timer: CountdownTimer
    var done: Bool

    var body: some NookView {
        HStack(spacing: 8) {
            Image(systemName: "timer").frame(width: 16, height: 16)
            Text(timer.name)
            Spacer()
            if done {
                DoneText(size: 15).nookSharedElement("timer.\(timer.id)", style: .scale)
            } else {
                TimerText(timer: timer, size: 15).nookSharedElement("timer.\(timer.id)", style: .scale)
            }
        }
        .tw(timer.tint)
    }
}

enum TimerViews {
    /// A finished timer's relevance: above the default, so for its last minute it takes the
    /// place beside the notch from anything at the default relevance.
    static let doneRelevance = 10.0

    /// The live activity of one timer: its name left of the notch and its countdown, marked
    /// `timer`, right of it, both in the timer's colour; a ring with its short label in a
    /// capsule. Once `done` (the timer ran out) every view says "Done" instead of counting,
    /// and the activity ends itself at `doneUntil` (its `dismissDate`) should the module be
    /// gone by then.
    static func activity(for timer: CountdownTimer, done: Bool = false, doneUntil: NookInstant? = nil) -> NookLiveActivity {
        var activity = NookLiveActivity(
            id: timer.id, accessibilityLabel: "\(timer.name), \(done ? "done" : "counting down")",
            relevance: done ? doneRelevance : 0, staleDate: done ? doneUntil : timer.ends
        ) {
            HStack(spacing: 4) {
                Image(systemName: "timer").frame(width: 14, height: 14)
                // Marked `name` here and in the peek and expanded view, so it moves into them
                // rather than staying behind in the pill while the nook peeks.
                Text(timer.name).font(size: 12, weight: .semibold).nookSharedElement("name", style: .scale)
            }
            .tw(timer.tint)
        } compactTrailing: {
            Group {
                if done {
                    DoneText().nookSharedElement("timer", style: .scale)
                } else {
                    TimerText(timer: timer).nookSharedElement("timer", style: .scale)
                }
            }
            .tw(timer.tint)
        } minimal: {
            TimerRing(timer: timer, done: done)
        }
        if done { activity.dismissDate = doneUntil }
        activity.setPeek {
            HStack(spacing: 8) {
                Image(systemName: "timer").frame(width: 20, height: 20)
                Text(timer.name).nookSharedElement("name", style: .scale)
                Spacer()
                if done {
                    DoneText(size: 17).nookSharedElement("timer", style: .scale)
                } else {
                    TimerText(timer: timer, size: 17).nookSharedElement("timer", style: .scale)
                }
            }
            .tw(timer.tint)
        }
        activity.setExpanded {
            VStack(alignment: .leading, spacing: 6) {
                Text(timer.name).font(size: 15, weight: .semibold).nookSharedElement("name", style: .scale)
                if done {
                    DoneText(size: 28).nookSharedElement("timer", style: .scale)
                    ProgressView(value: 1)
                } else {
                    TimerText(timer: timer, size: 28).nookSharedElement("timer", style: .scale)
                    ProgressView(start: timer.started, end: timer.ends)
                }
            }
            .tw(timer.tint)
        }
        return activity
    }

    /// The module's own views: every timer in the home (running or done), a count on the
    /// board. No compact content: with no timer the module has nothing for the pill.
    static func configuration(timers: [CountdownTimer], done: Set<String> = []) -> NookModuleConfiguration {
        var configuration = NookModuleConfiguration(id: "timer", displayName: "Timers", version: "1.0")
        configuration.setHome {
            VStack(alignment: .leading, spacing: 6) {
                Text("Timers").font(size: 17, weight: .bold).role(.header)
                if timers.isEmpty {
                    Text("No timer running")
                }
                ForEach(timers, id: \.id) { timer in
                    TimerRow(timer: timer, done: done.contains(timer.id))
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
