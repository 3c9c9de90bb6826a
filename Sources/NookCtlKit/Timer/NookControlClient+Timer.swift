import FoundationEssentials
import NookBus
import NookCore

extension NookControlClient {
    /// The id an unnamed timer gets: the first of `timer`, `timer-2`, ... no running timer has
    /// (`timer` when nookd cannot be asked: the start then says why).
    public func freeTimerID() async -> String {
        TimerStart.freeID(notIn: Set((try? await runningTimers()) ?? []))
    }

    /// The ids of module `timer`'s live activities, in display order.
    func runningTimers() async throws -> [String] {
        let state = try await call(.getState).first ?? WireCodec.vardict([:])
        return try WireFields(reply: state).records("items").compactMap { item in
            try item.string("module", default: "") == TimerCommand.module ? try item.string("activity", default: "") : nil
        }
    }

    /// Runs `timer start|list|cancel`, printing to `output`.
    public func execute(_ command: TimerCommand, output: OutputSink, records: ActivityRecordStore = .standard()) async throws -> ExitStatus {
        do {
            switch command {
            case .start(let start):
                let id = start.id ?? "timer"
                if try await runningTimers().contains(id) {
                    throw ActivityProblem("timer/\(id) is running already: cancel it (nookctl timer cancel \(id)) or give another --label or --id")
                }
                let status = try await publish(start.request(id: id), isStart: true, output: output, records: records, announces: false)
                guard status == .ok else { return status }
                let end = Self.unixMicroseconds().saturatingAdd(Microseconds.of(start.seconds))
                output.out("started timer/\(id), done in \(DurationArgument.text(start.seconds)) (at \(LocalTime.text(unixMicroseconds: end, withZone: false)))\n")
            case .list(let json):
                let now = Self.unixMicroseconds()
                let rows = try await runningTimers().map { id in TimerRow(id: id, content: records.load(module: TimerCommand.module, activity: id), now: now) }
                output.out(json ? PlanJSON.json(.array(element: "a{sv}", rows.map(\.wire))) + "\n" : TimerRow.text(rows))
            case .cancel(let wanted):
                let running = try await runningTimers()
                let id: String
                if let wanted {
                    guard running.contains(wanted) else { throw ActivityProblem("no timer timer/\(wanted) is running" + Self.runningList(running)) }
                    id = wanted
                } else {
                    guard running.count == 1, let only = running.first else {
                        throw ActivityProblem(running.isEmpty ? "no timer is running" : "several timers run: name one" + Self.runningList(running))
                    }
                    id = only
                }
                try await register(TimerCommand.module)
                records.remove(module: TimerCommand.module, activity: id)
                _ = try await call(.endModuleActivity(id, ["dismissal": .string("immediate")]))
                output.out("cancelled timer/\(id)\n")
            }
        } catch let problem as ActivityProblem {
            output.err("nookctl: \(problem.message)\n")
            return .failure
        }
        return .ok
    }

    static func runningList(_ running: [String]) -> String {
        running.isEmpty ? "" : " (running: " + running.joined(separator: ", ") + ")"
    }
}

/// One line of `timer list`: what nookctl remembers of the timer (its label and end), else
/// its id alone (a timer another nookctl's state started).
struct TimerRow {
    let id: String
    let label: String
    let end: Int64?
    let secondsLeft: Double?
    let done: Bool

    init(id: String, content: ActivityContent?, now: Int64) {
        self.id = id
        label = content?.title ?? ""
        end = content?.timerEnd
        secondsLeft = end.map { max(0, Double($0.saturatingSubtract(now)) / 1e6) }
        done = content?.isDone == true || secondsLeft == 0
    }

    var wire: DBusValue {
        var fields: [String: DBusValue] = ["id": .string(id), "label": .string(label), "done": .bool(done)]
        if let end { fields["end"] = .int64(end) }
        if let secondsLeft { fields["seconds_left"] = .double(secondsLeft.rounded()) }
        return .vardict(fields)
    }

    static func text(_ rows: [TimerRow]) -> String {
        let names = rows.map { "timer/" + $0.id }
        let width = names.map(\.count).max() ?? 0
        let labelWidth = rows.map(\.label.count).max() ?? 0
        return zip(names, rows).map { name, row in
            let left = row.done ? "done" : row.secondsLeft.map { DurationArgument.text($0) + " left" } ?? ""
            return HelpText.pad(name, width) + "  " + HelpText.pad(row.label, labelWidth) + "  " + left + "\n"
        }.joined()
    }
}
