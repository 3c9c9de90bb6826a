// A build watcher for the nook, in ActivityKit's shape (docs/module-guide.md, "ActivityKit's
// shape"): a hammer in the pill that moves into the expanded view, the step and a progress
// bar, and a Cancel button.
//
//   BuildWatcher [--steps N] [--step-seconds S] [--address ADDR]
//
// It stops when the steps are done, when Cancel is pressed, when a person dismisses it, or on
// SIGTERM or Ctrl-C: `NookModule.run` ends what is live and unregisters in every case.
import Foundation
import NookModuleAPI

func log(_ line: String) { FileHandle.standardError.write(Data("build: \(line)\n".utf8)) }

func option(_ name: String, default value: Double) -> Double {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count, let number = Double(arguments[index + 1]) else { return value }
    return number
}
let steps = Int(min(max(option("--steps", default: 5), 1), 100))
let stepSeconds = min(max(option("--step-seconds", default: 1), 0.01), 3600)

struct BuildAttributes: NookActivityAttributes {
    struct ContentState: Hashable, Sendable {
        var step: Int
        var of: Int
        var progress: Double { Double(step) / Double(of) }
    }

    var project: String
    var cancel: CancelBuild

    func accessibilityLabel(_ context: Context) -> String { "Building \(project), step \(context.state.step) of \(context.state.of)" }

    func compactLeading(_ context: Context) -> some NookView {
        Image(systemName: "hammer").nookSharedElement("icon")
    }

    func compactTrailing(_ context: Context) -> some NookView {
        ProgressView(value: context.state.progress).progressViewStyle(.circular).frame(width: 16, height: 16)
    }

    func minimal(_ context: Context) -> some NookView {
        ProgressView(value: context.state.progress).progressViewStyle(.circular)
    }

    func expanded(_ context: Context) -> some NookView {
        VStack(alignment: .leading, spacing: 8) {
            HStack(spacing: 8) {
                Image(systemName: "hammer").frame(width: 24, height: 24).nookSharedElement("icon")
                Text(project).font(.headline)
            }
            Text("Step \(context.state.step) of \(context.state.of)").font(.caption)
            ProgressView(value: context.state.progress)
            Button("Cancel", intent: cancel)
        }
    }
}

/// The Cancel button's intent (`nookctl press build/build cancel-build`): it tells the body.
struct CancelBuild: NookIntent {
    let presses: AsyncStream<Void>.Continuation
    func perform() async { presses.yield() }
}

/// How the build stopped.
enum Outcome: Sendable { case done, cancelled, dismissed }

let configuration = NookModuleConfiguration(id: "build", displayName: "Build", version: "1.0")
let exit = await NookModule.run(configuration) { module in
    let (cancels, cancel) = AsyncStream<Void>.makeStream()
    let build = try await NookActivity.request(
        attributes: BuildAttributes(project: "nook", cancel: CancelBuild(presses: cancel)),
        content: .init(state: .init(step: 0, of: steps)), id: "build", on: module)
    log("started, \(steps) steps")
    let states = await build.activityStateUpdates()
    let outcome: Outcome? = await withTaskGroup(of: Outcome?.self) { group in
        group.addTask {
            for step in 1...steps {
                try? await Task.sleep(for: .seconds(stepSeconds))
                if Task.isCancelled { return nil }
                try? await build.update(.init(step: step, of: steps))
            }
            return .done
        }
        group.addTask { for await _ in cancels { return .cancelled }; return nil }
        group.addTask { for await state in states where state == .dismissed { return .dismissed }; return nil }
        let first = await group.next() ?? nil
        group.cancelAll()
        return first
    }
    // Nothing: `run` cancelled the body on a signal, and ends the build itself.
    guard let outcome else { return }
    switch outcome {
    case .done:
        log("done")
        try await build.end(dismissalPolicy: .default)
    case .cancelled:
        log("cancelled")
        try await build.end(dismissalPolicy: .immediate)
    case .dismissed:
        log("dismissed")
    }
}
log("exit: \(exit)")
if case .failed = exit { Foundation.exit(1) }
