// A Pomodoro timer for the nook, in one file: docs/quick-start.md walks through it.
//
//   QuickStart [--minutes 25] [--address ADDR]
//
// One live activity, in ActivityKit's shape: a tomato that travels from the pill into the peek
// and the expanded view, and a countdown the renderer runs by itself (the module never ticks).
// It ends when the time is up, on SIGTERM or Ctrl-C, or when a person dismisses it.
import Foundation
import NookModuleAPI

/// Logs a line at once: stderr is unbuffered, unlike `print` to a file or a pipe.
func log(_ line: String) { FileHandle.standardError.write(Data("pomodoro: \(line)\n".utf8)) }

// The command line: `--minutes M` (default 25); `NookModule.run` reads `--address ADDR`.
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

/// What the Pomodoro is (its start and end: the renderer counts down from them) and what
/// changes (the phase's name), with its views as functions of both.
struct Pomodoro: NookActivityAttributes {
    struct ContentState: Hashable, Sendable {
        var phase: String
    }

    var start: NookInstant
    var end: NookInstant

    func accessibilityLabel(_ context: Context) -> String { "Pomodoro, \(context.state.phase), counting down" }

    func compactLeading(_ context: Context) -> some NookView { Tomato(size: 13) }

    func compactTrailing(_ context: Context) -> some NookView {
        Text(timerEndingAt: end).monospacedDigit()
    }

    func minimal(_ context: Context) -> some NookView {
        ProgressView(start: start, end: end).progressViewStyle(.circular)
    }

    func peek(_ context: Context) -> some NookView {
        HStack(spacing: 8) {
            Tomato(size: 20)
            Text(context.state.phase)
            Spacer()
            Text(timerEndingAt: end).font(size: 17, weight: .semibold).monospacedDigit()
        }
    }

    func expanded(_ context: Context) -> some NookView {
        VStack(alignment: .leading, spacing: 6) {
            HStack(spacing: 8) {
                Tomato(size: 32)
                Text(context.state.phase).font(size: 17, weight: .bold)
            }
            Text(timerEndingAt: end).font(size: 28, weight: .semibold).monospacedDigit()
            ProgressView(start: start, end: end)
        }
    }
}

var configuration = NookModuleConfiguration(id: "pomodoro", displayName: "Pomodoro", version: "1.0")
configuration.setCompactLeading { Tomato(size: 13) }

// The module's whole life: connect, run this, and on SIGTERM or Ctrl-C cancel it and end
// everything at once.
let ending = await NookModule.run(configuration) { module in
    // What the broker says about our views (a missing counterpart, an unknown class, ...).
    Task {
        for await diagnostic in module.diagnostics() {
            log("broker \(diagnostic.severity.rawValue) \(diagnostic.code): \(diagnostic.message)")
        }
    }
    let start = NookInstant.now()
    let end = start + .milliseconds(Int64(minutes * 60_000))
    let pomodoro = try await NookActivity.request(
        attributes: Pomodoro(start: start, end: end), content: .init(state: .init(phase: "Focus")), id: "pomodoro", on: module)
    log("focus for \(minutes) min")

    // Until the time is up, unless a person ends it first (`nookctl end pomodoro/pomodoro`).
    if try await pomodoro.waitWhileActive(for: end - NookInstant.now()) == .dismissed {
        log("dismissed")
        return
    }
    log("time is up")
    try await pomodoro.end(dismissalPolicy: .default)
}
if case .failed(let error) = ending {
    log("the broker refused: \(error)")
    exit(1)
}
