import Dispatch
import Foundation
import NookModuleAPI

// Seed 001's hero card as a module: one live activity whose expanded view is the card.
//
//   HeroCard [--address ADDR]
//
// SIGUSR1 toggles `expanded` (the cover grows or shrinks on the card's own curve), SIGUSR2
// toggles the group's focus (explicit group state). Each change is sent as an update of the
// activity and logged once the broker has it. SIGTERM / SIGINT end the card and exit.

let termination = TerminationSignals.install()

/// Writes a line to stdout at once (tests read it while the module runs).
func say(_ line: String) { FileHandle.standardOutput.write(Data("HeroCard: \(line)\n".utf8)) }

/// SIGUSR1 and SIGUSR2 as a stream, through dispatch sources (the default action would end
/// the process, so it is ignored first).
func controlSignals() -> (AsyncStream<Int32>, [any DispatchSourceSignal]) {
    let (stream, continuation) = AsyncStream<Int32>.makeStream()
    let queue = DispatchQueue(label: "hero-card.signals")
    let sources = [SIGUSR1, SIGUSR2].map { number in
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
        source.setEventHandler { continuation.yield(number) }
        source.resume()
        return source
    }
    return (stream, sources)
}

// The sources live as long as the program: they are top-level constants.
let (controls, sources) = controlSignals()

let module: NookModule
do {
    module = try await NookModule.connect(
        NookModuleConfiguration(id: "hero", displayName: "Hero card", version: "1.0"),
        address: NookModuleAddress(commandLine: CommandLine.arguments))
    try await module.start(heroActivity(expanded: false, focused: false))
} catch {
    FileHandle.standardError.write(Data("HeroCard: cannot start: \(error)\n".utf8))
    exit(69)  // EX_UNAVAILABLE
}
let diagnostics = module.diagnostics()
Task {
    for await diagnostic in diagnostics { say("broker \(diagnostic.severity.rawValue) \(diagnostic.code): \(diagnostic.message)") }
}
say("ready")

let stopped: Int32 = await withTaskGroup(of: Int32?.self) { group in
    group.addTask {
        for await number in termination { return number }
        return nil
    }
    group.addTask {
        // The card's state, owned by this one task: changes are sent in the order they came.
        var expanded = false
        var focused = false
        for await number in controls {
            if number == SIGUSR1 { expanded.toggle() } else { focused.toggle() }
            do {
                try await module.update(heroActivity(expanded: expanded, focused: focused))
                say(number == SIGUSR1 ? "expanded \(expanded)" : "focused \(focused)")
            } catch {
                say("update failed: \(error)")
            }
        }
        return nil
    }
    let first = await group.next() ?? nil
    group.cancelAll()
    return first ?? SIGTERM
}

_ = try? await module.end(activityID: "card")
await module.close()
say("signal \(stopped), card ended")
exit(0)
