import Foundation
import NookCommandLine
import NookModuleAPI

// Countdown timers for the nook.
//
//   TimerModule [--timers N] [--duration SECONDS] [--address ADDR]
//
// Each timer is a live activity whose countdown (`timer_end`, counted by the renderer) sits
// right of the notch, marked `timer`. With several timers the broker answers each one's mark
// as `timer.<id>` too, and the home lists every timer marked that way. Each activity ends
// when its timer runs out; the module exits when none is left, or on SIGTERM / SIGINT
// (ending what still runs).

let signals = TerminationSignals.install()

let commandLine = CommandLineInterface(
    program: "TimerModule",
    usage: ["[--timers N] [--duration SECONDS] [--address ADDR]", "--help | --version"],
    about: "Countdown timers for the nook: one live activity per timer, ended when it runs out.",
    options: [
        .value("--timers", "N", help: "how many timers, 1...32 (default 1)"),
        .value("--duration", "SECONDS", help: "each timer's length, 0.001...86400 (default 60)"),
        .value("--address", "ADDR", help: "a D-Bus address to use instead of the session bus"),
    ])
let parsed = commandLine.parseOrExit()
let count = parsed.integer("--timers", in: 1...32) ?? 1
let seconds = parsed.number("--duration", in: 0.001...86_400) ?? 60

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("TimerModule: \(message)\n".utf8))
    exit(1)
}

/// Writes a line to stdout at once (tests and logs read it while the module runs).
func say(_ line: String) { FileHandle.standardOutput.write(Data("TimerModule: \(line)\n".utf8)) }

let now = NookInstant.now()
let timers = (1...count).map { index in
    CountdownTimer(
        id: "t\(index)", name: count == 1 ? "Timer" : "Timer \(index)", started: now,
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

let outcome: Outcome = await withTaskGroup(of: Outcome?.self) { group in
    group.addTask {
        for await number in signals { return .signal(number) }
        return nil
    }
    group.addTask {
        await withTaskGroup(of: Void.self) { running in
            for timer in timers {
                running.addTask {
                    // The module's own clock: wait until this timer runs out, then end it.
                    let left = timer.ends - NookInstant.now()
                    if left > .zero { try? await Task.sleep(for: left) }
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
