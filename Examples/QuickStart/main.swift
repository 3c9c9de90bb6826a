// A Pomodoro timer for the nook, in one file: docs/quick-start.md walks through it.
//
//   QuickStart [--minutes 25] [--address ADDR]
//
// One live activity: a tomato that travels from the pill into the peek and the expanded view,
// and a countdown the renderer runs by itself (the module never ticks). It ends when the time
// is up, on SIGTERM or Ctrl-C, or when a person dismisses it.
import Foundation
import NookModuleAPI

/// Logs a line at once: stderr is unbuffered, unlike `print` to a file or a pipe.
func log(_ line: String) { FileHandle.standardError.write(Data("pomodoro: \(line)\n".utf8)) }

// SIGTERM and SIGINT as a stream, so the module can end its activity before it exits.
let signals = TerminationSignals.install()

// The command line: `--minutes M` (default 25) and `--address ADDR` (default: the session bus).
let arguments = CommandLine.arguments
let minutes = arguments.firstIndex(of: "--minutes").flatMap { index in
    index + 1 < arguments.count ? Double(arguments[index + 1]) : nil
} ?? 25
guard minutes > 0, minutes <= 24 * 60 else {
    log("--minutes must be between 0 and 1440")
    exit(2)
}

/// The tomato, marked as one element in every view it appears in, so it moves between them.
struct Tomato: NookView {
    var size: Double

    var body: some NookView {
        Text("🍅").font(size: size).nookSharedElement("tomato")
    }
}

let start = NookInstant.now()
let end = start + .milliseconds(Int64(minutes * 60_000))

var pomodoro = NookLiveActivity(id: "pomodoro", accessibilityLabel: "Pomodoro, counting down") {
    Tomato(size: 13)
} compactTrailing: {
    Text(timerEndingAt: end).monospacedDigit()
} minimal: {
    ProgressView(start: start, end: end).progressViewStyle(.circular)
}
pomodoro.setPeek {
    HStack(spacing: 8) {
        Tomato(size: 20)
        Text("Focus")
        Spacer()
        Text(timerEndingAt: end).font(size: 17, weight: .semibold).monospacedDigit()
    }
}
pomodoro.setExpanded {
    VStack(alignment: .leading, spacing: 6) {
        HStack(spacing: 8) {
            Tomato(size: 32)
            Text("Focus").font(size: 17, weight: .bold)
        }
        Text(timerEndingAt: end).font(size: 28, weight: .semibold).monospacedDigit()
        ProgressView(start: start, end: end)
    }
}

var configuration = NookModuleConfiguration(id: "pomodoro", displayName: "Pomodoro", version: "1.0")
configuration.setCompactLeading { Tomato(size: 13) }

let module: NookModule
do {
    module = try await NookModule.connect(configuration, address: NookModuleAddress(commandLine: arguments))
    try await module.start(pomodoro)
} catch {
    log("the broker refused: \(error)")
    exit(1)
}
log("focus for \(minutes) min")

// What the broker says about our views (a missing counterpart, an unknown class, ...).
Task {
    for await diagnostic in module.diagnostics() {
        log("broker \(diagnostic.severity.rawValue) \(diagnostic.code): \(diagnostic.message)")
    }
}

/// Why the module stops.
enum Stop: Sendable { case timeUp, signal(Int32), dismissed }

let stop: Stop = await withTaskGroup(of: Stop?.self) { group in
    group.addTask {
        try? await Task.sleep(for: end - NookInstant.now())
        return Task.isCancelled ? nil : .timeUp
    }
    group.addTask {
        for await number in signals { return .signal(number) }
        return nil
    }
    group.addTask {
        // A person ended it (`nookctl end pomodoro/pomodoro`): it is gone for good.
        for await event in module.events() {
            if case .activityDismissed("pomodoro", by: .user) = event { return .dismissed }
        }
        return nil
    }
    let first = await group.next() ?? nil
    group.cancelAll()
    return first ?? .timeUp
}

switch stop {
case .timeUp:
    log("time is up")
    _ = try? await module.end(pomodoro, dismissal: .default)
case .signal(let number):
    log("signal \(number)")
    _ = try? await module.end(pomodoro, dismissal: .immediate)
case .dismissed:
    log("dismissed")
}
try? await module.unregister()
