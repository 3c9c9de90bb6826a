import Dispatch
import Foundation
import NookCommandLine
import NookHeroCard
import NookModuleAPI

// Seed 001's hero card as a module: one live activity whose expanded view is the card.
//
//   HeroCard [--address ADDR]
//
// The card's Toggle button (action `toggle`: a click in the nook, `nookctl press hero/card
// toggle`) flips `expanded`: the cover grows or shrinks on the card's own curve. SIGUSR2
// toggles the group's focus (explicit group state, which only the module knows). Each change
// is sent as an update of the activity and logged once the broker has it. SIGTERM / SIGINT
// end the card and exit.

let commandLine = CommandLineInterface(
    program: "HeroCard",
    usage: ["[--address ADDR]", "--help | --version"],
    about: "Seed 001's hero card as a module: one live activity whose expanded view is the card.",
    options: [.value("--address", "ADDR", help: "a D-Bus address to use instead of the session bus")])
let parsed = commandLine.parseOrExit()

let termination = TerminationSignals.install()

/// Writes a line to stdout at once (tests read it while the module runs).
func say(_ line: String) { FileHandle.standardOutput.write(Data("HeroCard: \(line)\n".utf8)) }

/// The card's state and the module it is published through. An actor: the button's closure
/// runs on the module's action task and the focus signal on another, and each change is
/// applied and sent whole before the next.
actor Card {
    private var expanded = false
    private var focused = false
    private var module: NookModule?

    /// The activity as it is now; its button calls back into this actor.
    var activity: NookLiveActivity {
        heroActivity(expanded: expanded, focused: focused) { [weak self] in await self?.toggle() }
    }

    func start(on module: NookModule) async throws {
        self.module = module
        try await module.start(activity)
    }

    func toggle() async {
        expanded.toggle()
        await publish("expanded \(expanded)")
    }

    func toggleFocus() async {
        focused.toggle()
        await publish("focused \(focused)")
    }

    private func publish(_ line: String) async {
        guard let module else { return }
        do {
            try await module.update(activity)
            say(line)
        } catch {
            say("update failed: \(error)")
        }
    }
}

/// SIGUSR2 as a stream, through a dispatch source (the default action would end the process,
/// so it is ignored first).
func focusSignals() -> (AsyncStream<Void>, any DispatchSourceSignal) {
    let (stream, continuation) = AsyncStream<Void>.makeStream()
    signal(SIGUSR2, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: SIGUSR2, queue: DispatchQueue(label: "hero-card.signals"))
    source.setEventHandler { continuation.yield() }
    source.resume()
    return (stream, source)
}

// The source lives as long as the program: top-level constants.
let (focusChanges, focusSource) = focusSignals()
let card = Card()

let module: NookModule
do {
    module = try await NookModule.connect(
        NookModuleConfiguration(id: "hero", displayName: "Hero card", version: "1.0"),
        address: parsed.text("--address").map(NookModuleAddress.bus) ?? .session)
    try await card.start(on: module)
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
        for await _ in focusChanges { await card.toggleFocus() }
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
