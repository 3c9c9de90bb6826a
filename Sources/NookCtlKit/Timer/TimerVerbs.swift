import NookBus
import NookCore

/// The `timer` rows of `VerbTable`.
enum TimerVerbs {
    static let rows: [VerbSpec] = [
        VerbSpec("timer start", "DURATION [--label TEXT] [--id ID] [--no-sound]",
                 summary: "Start a countdown (10m, 1h30m, at most 24h) as activity timer/ID: a ring in the pill, the time left when opened; at zero it says Done, peeks and plays the sound theme's `complete`. It outlives nookctl and nookd's restarts.",
                 options: [
                    OptionSpec("--label", "TEXT", "what it is for, shown as its title (default Timer); also names its id (Tea: timer/tea)"),
                    OptionSpec("--id", "ID", "its activity id (default: from --label, else timer, timer-2, ...)"),
                    OptionSpec("--no-sound", "play no sound at zero"),
                 ],
                 positionals: [PositionalSpec("DURATION", "how long: 90s, 10m, 1h30m")],
                 calls: "\(C.Control.getState.brief), \(C.Modules.register.brief), \(C.Modules.startActivity.brief)") { p throws(UsageError) in
            let seconds = try ActivityVerbs.duration(p.positionals[0], option: "DURATION", verb: p.verb)
            if let label = p["--label"], label.isEmpty { throw UsageError("option '--label' needs a non-empty label", verb: p.verb) }
            if let id = p["--id"], let problem = Identifier.problem(id) { throw UsageError("option '--id': \"\(id)\" \(problem)", verb: p.verb) }
            var start = TimerStart(seconds: seconds, label: p["--label"], id: p["--id"])
            start.playsSound = !p.has("--no-sound")
            return .timer(.start(start))
        },
        VerbSpec("timer list", "[--json]",
                 summary: "Print the running timers: timer/ID, its label, and the time left (or done).",
                 options: [OptionSpec("--json", "one JSON array: id, label, end (unix µs), seconds_left, done")],
                 calls: "\(C.Control.getState.brief)") { p throws(UsageError) in .timer(.list(json: p.has("--json"))) },
        VerbSpec("timer cancel", "[ID]",
                 summary: "End a timer at once (the only one running when no ID is given).",
                 positionals: [PositionalSpec("ID", optional: true, "the timer's id, as timer list prints it (timer/ID or ID)")],
                 calls: "\(C.Control.getState.brief), \(C.Modules.register.brief), \(C.Modules.endActivity.brief)") { p throws(UsageError) in
            guard var id = p.positionals.first else { return .timer(.cancel(id: nil)) }
            if id.hasPrefix(TimerCommand.module + "/") { id.removeFirst(TimerCommand.module.count + 1) }
            if let problem = Identifier.problem(id) { throw UsageError("\"\(id)\" \(problem)", verb: p.verb) }
            return .timer(.cancel(id: id))
        },
    ]
}

private typealias C = NookContract
