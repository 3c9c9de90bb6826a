import Foundation
import NookCommandLine
import NookModuleAPI

// Countdown timers for the nook.
//
//   TimerModule [--timers N] [--names A,B,...] [--duration SECONDS] [--done-seconds S] [--no-sound] [--address ADDR]
//
// Each timer is a live activity with its own name and colour: the name left of the notch, its
// countdown (`timer_end`, counted by the renderer) right of it, marked `timer`, and a ring with
// its initial (or number) in a capsule. With several timers the broker answers each one's mark
// as `timer.<id>` too, and the home lists every timer marked that way. When a timer runs out
// it says "Done", the nook peeks at it and the sound theme's `complete` plays (through
// canberra-gtk-play when installed; `--no-sound` for none); a minute later (`--done-seconds`)
// it ends, unless a person ended it first. The module exits when no timer is left, or on
// SIGTERM / SIGINT (ending what still runs).

let signals = TerminationSignals.install()

let commandLine = CommandLineInterface(
    program: "TimerModule",
    usage: ["[--timers N] [--names A,B,...] [--duration SECONDS] [--done-seconds S] [--no-sound] [--address ADDR]", "--help | --version"],
    about: "Countdown timers for the nook: one live activity per timer, which says Done, peeks and plays a sound when it runs out.",
    options: [
        .value("--timers", "N", help: "how many timers, 1...32 (default 1, or as many as --names gives)"),
        .value("--names", "A,B,...", help: "the timers' names, comma-separated, each 1...40 characters (default Timer, or Timer 1, Timer 2, ...)"),
        .value("--duration", "SECONDS", help: "each timer's length, 0.001...86400 (default 60)"),
        .value("--done-seconds", "S", help: "how long a finished timer says Done before it ends, 0.1...3600 (default 60)"),
        .flag("--no-sound", help: "play no sound when a timer runs out"),
        .value("--address", "ADDR", help: "a D-Bus address to use instead of the session bus"),
    ])
let parsed = commandLine.parseOrExit()
let givenNames = parsed.text("--names").map { $0.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) } }
if let givenNames, givenNames.contains(where: { $0.isEmpty || $0.count > 40 }) || givenNames.count > 32 {
    commandLine.fail("--names: 1...32 names, each 1...40 characters")
}
let count = parsed.integer("--timers", in: 1...32) ?? givenNames?.count ?? 1
/// How long a finished timer says "Done" unless `--done-seconds` says: a minute.
let defaultDoneSeconds = 60.0
let seconds = parsed.number("--duration", in: 0.001...86_400) ?? 60
let doneFor = Duration.milliseconds(Int64((parsed.number("--done-seconds", in: 0.1...3600) ?? defaultDoneSeconds) * 1000))
let playsSound = !parsed.flag("--no-sound")

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("TimerModule: \(message)\n".utf8))
    exit(1)
}

/// Writes a line to stdout at once (tests and logs read it while the module runs).
func say(_ line: String) { FileHandle.standardOutput.write(Data("TimerModule: \(line)\n".utf8)) }

let now = NookInstant.now()
let names = (0..<count).map { index in
    givenNames.flatMap { index < $0.count ? $0[index] : nil } ?? (count == 1 ? "Timer" : "Timer \(index + 1)")
}
let shorts = TimerPalette.shortLabels(names)
let timers = (0..<count).map { index in
    CountdownTimer(
        id: "t\(index + 1)", name: names[index], short: shorts[index], color: TimerPalette.color(index), started: now,
        ends: now + .milliseconds(Int64(seconds * 1000)))
}

let module: NookModule
do {
    module = try await NookModule.connect(
        TimerViews.configuration(timers: timers), address: parsed.text("--address").map(NookModuleAddress.bus) ?? .session)
} catch {
    fail("cannot register: \(error)")
}

// Log what the broker says about our views (e.g. `id-suffixed` with two timers).
let diagnostics = module.diagnostics()
Task {
    for await diagnostic in diagnostics {
        say("broker \(diagnostic.severity.rawValue) \(diagnostic.code): \(diagnostic.message)")
    }
}

let board = TimerBoard(module: module, timers: timers)
do { try await board.startAll() } catch { fail("cannot start the timers: \(error)") }
say("\(count) timer(s) of \(seconds) s running")

enum Outcome: Sendable { case allDone, signal(Int32) }

/// Waits until `timer`'s minute of "Done" is over or a person ended it, whichever is first.
@Sendable func doneMinute(of timer: CountdownTimer) async {
    await withTaskGroup(of: Void.self) { race in
        race.addTask { try? await Task.sleep(for: doneFor) }
        race.addTask {
            for await event in module.events() {
                if case .activityDismissed(let id, _) = event, id == timer.id { return }
            }
        }
        // A dismissal before this task subscribed: the SDK has already dropped the activity.
        race.addTask {
            while !Task.isCancelled, await module.activities.contains(where: { $0.id == timer.id }) {
                try? await Task.sleep(for: .milliseconds(250))
            }
        }
        await race.next()
        race.cancelAll()
    }
}

let outcome: Outcome = await withTaskGroup(of: Outcome?.self) { group in
    group.addTask {
        for await number in signals { return .signal(number) }
        return nil
    }
    group.addTask {
        await withTaskGroup(of: Void.self) { running in
            for timer in timers {
                running.addTask {
                    // The module's own clock: wait until this timer runs out, then ring.
                    let left = timer.ends - NookInstant.now()
                    if left > .zero { try? await Task.sleep(for: left) }
                    guard !Task.isCancelled else { return }
                    do {
                        if try await board.ring(timer, doneFor: doneFor, playsSound: playsSound) {
                            say("\(timer.id) (\(timer.name)) done\(playsSound ? "" : ", without a sound")")
                            await doneMinute(of: timer)
                        }
                    } catch {
                        say("ringing \(timer.id) failed: \(error)")
                    }
                    guard !Task.isCancelled else { return }
                    do { try await board.finish(timer) } catch {
                        say("ending \(timer.id) failed: \(error)")
                    }
                }
            }
        }
        return Task.isCancelled ? nil : .allDone
    }
    var first: Outcome?
    while first == nil, let next = await group.next() { first = next }
    group.cancelAll()
    return first ?? .allDone
}

await board.stop()
switch outcome {
case .allDone: say("all timers done")
case .signal(let number): say("signal \(number), timers ended")
}
exit(0)
