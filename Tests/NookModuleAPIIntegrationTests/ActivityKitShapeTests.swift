import Foundation
import NookBus
import NookCore
import NookModuleAPI
import NookTestSupport
import Synchronization
import Testing

/// A build as ActivityKit would write it: fixed attributes, a `ContentState`, the views as
/// functions of both, and a Cancel button bound to an intent (`CancelBuild`).
struct BuildAttributes: NookActivityAttributes {
    struct ContentState: Hashable, Sendable {
        var step: String
        var progress: Double
    }

    var project: String
    var cancel: CancelBuild = CancelBuild {}

    func accessibilityLabel(_ context: Context) -> String { "Building \(project): \(context.state.step)" }

    func compactLeading(_ context: Context) -> some NookView {
        Image(systemName: "hammer").nookSharedElement("icon")
    }

    func compactTrailing(_ context: Context) -> some NookView {
        Text(context.isStale ? "stalled" : context.state.step).font(.caption)
    }

    func minimal(_ context: Context) -> some NookView { Image(systemName: "hammer") }

    func expanded(_ context: Context) -> some NookView {
        VStack(alignment: .leading, spacing: 6) {
            Label(project, systemImage: "hammer").nookSharedElement("icon")
            ProgressView(value: context.state.progress)
            Button("Cancel", intent: cancel)
        }
    }
}

/// ActivityKit's `LiveActivityIntent`, for the nook: pressed as `cancel-build`.
struct CancelBuild: NookIntent {
    let run: @Sendable () -> Void
    func perform() async { run() }
}

@Suite(.serialized) struct ActivityKitShapeTests {
    static func all(_ states: AsyncStream<NookActivityState>) async -> [NookActivityState] {
        var out: [NookActivityState] = []
        for await state in states { out.append(state) }
        return out
    }

    /// The views come from the context: the label and the trailing text name the state, the
    /// expanded view exists, the peek (not written) does not, a stale content says so.
    @Test func theViewsAreFunctionsOfTheAttributesAndTheState() throws {
        let attributes = BuildAttributes(project: "nook")
        let content = NookActivityContent(state: BuildAttributes.ContentState(step: "compile", progress: 0.25), relevanceScore: 2)
        let activity = attributes.liveActivity(id: "build", content: content)
        #expect(activity.id == "build" && activity.accessibilityLabel == "Building nook: compile")
        #expect(activity.relevance == 2)
        #expect(activity.compactTrailing.props.text == "compile")
        #expect(activity.expanded != nil && activity.peek == nil)
        let stale = NookActivityContent(state: content.state, staleDate: NookInstant(unixSeconds: 1))
        #expect(attributes.liveActivity(id: "build", content: stale).compactTrailing.props.text == "stalled")
    }

    /// Request, update with a state, press Cancel from a script (its intent's `perform` runs),
    /// end; then a second build dismissed by a person: its state updates say so
    /// and an update is refused.
    @Test func requestUpdateEndAndADismissalOverTheRealBroker() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, home: scratch.url)
            let observer = try await Observer.connect(bus)
            let module = try await NookModule.connect(NookModuleConfiguration(id: "build", displayName: "Build"), address: .bus(bus.address))
            let cancelled = Atomic<Int>(0)
            let attributes = BuildAttributes(project: "nook", cancel: CancelBuild { cancelled.add(1, ordering: .relaxed) })

            let build = try await NookActivity.request(
                attributes: attributes, content: .init(state: .init(step: "compile", progress: 0)), id: "job", on: module)
            #expect(await observer.activities() == ["build/job"])
            #expect(await eventually { nookd.storedActivities(of: "build")["job"]?.contains("compile") == true })

            try await build.update(.init(step: "link", progress: 0.8))
            #expect(await eventually { nookd.storedActivities(of: "build")["job"]?.contains("link") == true })
            #expect(await build.content.state.step == "link")

            let pressed = try PackageProcess("nookctl", ["--address", bus.address, "press", "build/job", "cancel-build"], logDirectory: scratch.url)
            #expect(await pressed.waitForExit(), "nookctl press did not exit: \(pressed.log)")
            #expect(await pressed.stop() == 0, "\(pressed.log)")
            #expect(await eventually { cancelled.load(ordering: .relaxed) == 1 }, "the Cancel intent did not run")

            let states = await build.activityStateUpdates()
            try await build.end(.init(state: .init(step: "done", progress: 1)), dismissalPolicy: .immediate)
            #expect(await observer.activities().isEmpty)
            #expect(await Self.all(states) == [.active, .ended])
            await #expect(throws: NookModuleError.self) { try await build.update(.init(step: "again", progress: 0)) }

            let second = try await NookActivity.request(
                attributes: attributes, content: .init(state: .init(step: "test", progress: 0.1)), id: "job-2", on: module)
            let secondStates = await second.activityStateUpdates()
            try await DismissalTests.nookctlEnd(bus, "build/job-2", scratch: scratch.url)
            #expect(await Self.all(secondStates) == [.active, .dismissed])
            #expect(await second.activityState == .dismissed)
            let refused = await #expect(throws: NookModuleError.self) { try await second.update(.init(step: "test", progress: 0.2)) }
            #expect(refused?.code == .activityDismissed)

            await module.close()
            await observer.close()
            #expect(await nookd.process.stop() == 0, "\(nookd.log)")
        }
    }

    /// One lifecycle: `NookModule.run` connects, runs the body, and when it returns ends what
    /// is still live and unregisters; the broker is left with nothing of the module. A broker
    /// that cannot be reached is an exit, not a crash.
    @Test func runOwnsTheConnectionAndEndsWhatTheBodyLeft() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, home: scratch.url)
            let observer = try await Observer.connect(bus)
            let seen = Locked<[String]>([])
            let exit = await NookModule.run(NookModuleConfiguration(id: "build", displayName: "Build"), address: .bus(bus.address), handlesSignals: false) { module in
                let build = try await NookActivity.request(
                    attributes: BuildAttributes(project: "nook"), content: .init(state: .init(step: "compile", progress: 0)), id: "job", on: module)
                try await build.update(.init(step: "link", progress: 0.5))
                seen.withLock { $0.append("started") }
            }
            #expect(exit == .finished)
            #expect(seen.withLock { $0 } == ["started"])
            #expect(await eventually { await observer.activities().isEmpty }, "the body's activity outlived run")

            let refused = await NookModule.run(NookModuleConfiguration(id: "build", displayName: "Build"), address: .bus("unix:path=\(scratch.url.path)/no-bus"), handlesSignals: false) { _ in
                Issue.record("the body ran without a broker")
            }
            guard case .failed = refused else { Issue.record("run without a bus returned \(refused)"); return }

            let failing = await NookModule.run(NookModuleConfiguration(id: "build", displayName: "Build"), address: .bus(bus.address), handlesSignals: false) { module in
                _ = try await NookActivity.request(
                    attributes: BuildAttributes(project: "nook"), content: .init(state: .init(step: "x", progress: 0)), id: "bad id", on: module)
            }
            guard case .failed(let error) = failing else { Issue.record("a throwing body returned \(failing)"); return }
            #expect(error.code == .invalidId, "\(error)")
            await observer.close()
            #expect(await nookd.process.stop() == 0, "\(nookd.log)")
        }
    }
}

