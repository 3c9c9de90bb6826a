import Foundation
import NookBus
import NookTestSupport
import Testing

/// A running nook a renderer test drives: the private bus nookd is on and the renderer's
/// `--verbose` log (`RendererNook` on Xvfb, `SwayNook` on headless sway). The contract calls
/// and the log readers below are the same for both.
protocol NookUnderTest: Sendable {
    var bus: PrivateBus { get }
    var rendererLog: String { get }
    /// The renderer's process (frozen with SIGSTOP for a screenshot of one frame).
    var renderer: PackageProcess { get }
    /// Every process's log, for a failure message.
    var logs: String { get }
}

/// What `NookUnderTest.coverCaughtPartWay` caught: the transition's plan and the screenshot
/// taken mid-way.
struct CaughtPartWay {
    let serial: UInt64
    let plan: LogLine
    /// The shared element that moves, and its plan's from and to rects.
    let key: String
    let from: LoggedRect
    let to: LoggedRect
    let screenshot: RGBImage
}

struct NookState: Sendable {
    var presentation: String
    var activityCount: Int
    var serial: UInt64
}

extension NookUnderTest {
    // MARK: The contract, from the test's own connection

    func control(_ member: String, _ arguments: [DBusValue] = []) async throws -> [DBusValue] {
        let connection = try await BusConnection.connect(to: .address(bus.address), description: "renderer-test")
        defer { Task { await connection.close() } }
        return try await connection.call(destination: "org.nook.Nook1", path: "/org/nook/Nook1",
                                         interface: "org.nook.Nook1.Control", member: member, arguments: arguments,
                                         timeout: .seconds(20))
    }

    /// `Control.Open(options)`: the serial of the plan it caused.
    func open(_ options: [String: DBusValue] = [:]) async throws -> UInt64 {
        guard case .uint64(let serial)? = try await control("Open", [.vardict(options)]).first else {
            throw TestSupportError("Open replied without a serial")
        }
        return serial
    }

    func setReduceMotion(_ on: Bool) async throws {
        let connection = try await BusConnection.connect(to: .address(bus.address), description: "renderer-test")
        defer { Task { await connection.close() } }
        _ = try await connection.call(destination: "org.nook.Nook1", path: "/org/nook/Nook1",
                                      interface: "org.freedesktop.DBus.Properties", member: "Set",
                                      arguments: [.string("org.nook.Nook1.Control"), .string("ReduceMotion"), .variant(.bool(on))])
    }

    func state() async throws -> NookState {
        guard let reply = try await control("GetState").first else { throw TestSupportError("GetState replied with nothing") }
        let record = try Vardict(reply, at: "state")
        var state = NookState(presentation: "", activityCount: 0, serial: 0)
        if case .string(let p)? = record["presentation"]?.unwrappingVariants { state.presentation = p }
        if case .array(_, let items)? = record["activities"]?.unwrappingVariants { state.activityCount = items.count }
        if case .uint64(let s)? = record["serial"]?.unwrappingVariants { state.serial = s }
        return state
    }

    // MARK: The renderer's --verbose log

    /// The renderer's log lines of one kind (`plan`, `frame`, `settled`), parsed as key=value.
    func logLines(_ kind: String) -> [LogLine] {
        rendererLog.split(separator: "\n").compactMap { LogLine(String($0), kind: kind) }
    }

    /// Waits for the renderer to log the plan with `serial`.
    func waitForPlan(serial: UInt64) async throws -> LogLine {
        let find: @Sendable () -> LogLine? = { self.logLines("plan").first { $0["serial"] == String(serial) } }
        _ = await eventually(timeout: .seconds(60), poll: .milliseconds(50)) { find() != nil }
        guard let found = find() else { throw TestSupportError("the renderer never drew plan \(serial):\n\(logs)") }
        return found
    }

    /// Shows the nook and waits until the renderer has drawn the pill at rest, with the cover
    /// on `screenshot` (of `place`, for the failure message).
    func showPillAtRest(on place: String, screenshot: @escaping @Sendable () async throws -> RGBImage) async throws {
        _ = try await control("Show")
        let shown = await eventually(timeout: .seconds(60), poll: .milliseconds(50)) {
            (try? await self.state().presentation) == "pill"
        }
        guard shown else { throw TestSupportError("the nook never showed its pill:\n\(logs)") }
        let serial = try await state().serial
        _ = try await waitForPlan(serial: serial)
        try await waitUntilSettled(serial: serial)
        let drawn = await eventually(timeout: .seconds(30), poll: .milliseconds(200)) {
            (try? await screenshot().coverBlobs().isEmpty) == false
        }
        guard drawn else { throw TestSupportError("the pill's cover never appeared on \(place):\n\(logs)") }
    }

    /// `Control.Close({})`, played to rest: the pill again.
    func closeAndSettle() async throws {
        guard case .uint64(let serial)? = try await control("Close", [.vardict([String: DBusValue]())]).first else {
            throw TestSupportError("Close replied without a serial")
        }
        try await waitUntilSettled(serial: serial)
    }

    /// SPEC rule 7 mid-flight, on any screen: runs `transition` (it returns its plan's serial)
    /// and takes `screenshot` while the plan's shared element is part-way, then checks the
    /// cover on it is part-way too, at neither end.
    ///
    /// No screenshot is taken at an instant that has to come soon enough: once the renderer
    /// has logged frames with the element part-way it is frozen (SIGSTOP), so the screen keeps
    /// what it last drew however long the screenshot takes. That is the last frame logged, or
    /// the one before (logged, not yet handed to the display when it stopped): both must be
    /// part-way. A renderer frozen when its frames had already reached the end (the test was
    /// slower than the whole move) is let go, brought back with `reset`, and the transition
    /// runs again.
    func coverCaughtPartWay(
        transition: () async throws -> UInt64, reset: () async throws -> Void, screenshot: () async throws -> RGBImage
    ) async throws -> CaughtPartWay {
        let attempts = 5
        for attempt in 1...attempts {
            let serial = try await transition()
            let plan = try await waitForPlan(serial: serial)
            let key = try #require(plan["element"], "the plan moves no shared element: \(plan.text)")
            let from = try #require(LoggedRect(plan["from_rect"]), "\(plan.text)")
            let to = try #require(LoggedRect(plan["to_rect"]), "\(plan.text)")
            if let shot = try await frozenScreenshot(serial: serial, key: key, from: from, to: to, screenshot: screenshot) {
                let moving = try #require(shot.coverBlobs().first, "no cover on screen mid-transition")
                let progress = RendererScreenshotTests.progress(of: moving.midX, moving.midY, from: from, to: to)
                #expect(progress > 0.05 && progress < 0.95, "mid: cover at \(moving) is \(progress) of the way from \(from) to \(to)")
                #expect(!from.matches(moving) && !to.matches(moving), "mid: cover at \(moving) sits at an end")
                return CaughtPartWay(serial: serial, plan: plan, key: key, from: from, to: to, screenshot: shot)
            }
            print("attempt \(attempt): the renderer was frozen after the cover's move had ended; running it again")
            try await waitUntilSettled(serial: serial)
            try await reset()
        }
        throw TestSupportError("in \(attempts) attempts the renderer was never frozen with the cover part-way:\n\(logs)")
    }

    /// Freezes the renderer once frames of plan `serial` have `key` part-way and screenshots
    /// the frozen screen; nil when the frames had reached the end by the time it froze.
    private func frozenScreenshot(
        serial: UInt64, key: String, from: LoggedRect, to: LoggedRect, screenshot: () async throws -> RGBImage
    ) async throws -> RGBImage? {
        @Sendable func progressLogged() -> [Double] {
            logLines("frame").compactMap { line in
                guard line["serial"] == String(serial), let shared = line["shared"], shared.hasPrefix(key + "@"),
                      let rect = LoggedRect(String(shared.dropFirst(key.count + 1))) else { return nil }
                return RendererScreenshotTests.progress(of: rect.midX, rect.midY, from: from, to: to)
            }
        }
        let partWay = { (progress: Double) in progress > 0.1 && progress < 0.9 }
        var seen = 0
        while true {
            let already = seen
            let moved = await eventually(timeout: .seconds(60), poll: .milliseconds(20)) {
                let logged = progressLogged()
                return logged.count > already && (logged.last ?? 0) >= 0.2
            }
            try #require(moved, "the renderer never logged a frame with the cover part-way:\n\(logs)")
            renderer.signal(SIGSTOP)
            let logged = progressLogged()
            seen = logged.count
            if logged.count >= 2, logged.suffix(2).allSatisfy(partWay) {
                defer { renderer.signal(SIGCONT) }
                return try await screenshot()
            }
            renderer.signal(SIGCONT)
            // The frame before was still near the start: wait for the next one. Near the end
            // already: too late for this run of the transition.
            if let last = logged.last, last >= 0.9 { return nil }
        }
    }

    /// Waits until the renderer's frames for plan `serial` stop moving.
    func waitUntilSettled(serial: UInt64, timeout: Duration = .seconds(120)) async throws {
        let settled = await eventually(timeout: timeout, poll: .milliseconds(50)) {
            self.logLines("settled").contains { UInt64($0["serial"] ?? "") ?? 0 >= serial }
        }
        guard settled else { throw TestSupportError("plan \(serial) never settled on screen:\n\(logs)") }
    }
}
