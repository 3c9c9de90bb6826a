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
    /// Every process's log, for a failure message.
    var logs: String { get }
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

    /// SPEC rule 7 mid-flight, on any screen: waits until the renderer has logged a frame of
    /// plan `serial` with the shared element `key` part-way from `from` to `to`, then takes
    /// `screenshot` and checks the cover on it is part-way too, at neither end.
    /// - Returns: the mid-transition screenshot.
    func screenshotWithCoverPartWay(
        serial: UInt64, key: String, from: LoggedRect, to: LoggedRect, screenshot: () async throws -> RGBImage
    ) async throws -> RGBImage {
        let midFrame = await eventually(timeout: .seconds(60), poll: .milliseconds(20)) {
            self.logLines("frame").contains { line in
                guard line["serial"] == String(serial), let shared = line["shared"], shared.hasPrefix(key + "@"),
                      let rect = LoggedRect(String(shared.dropFirst(key.count + 1))) else { return false }
                let progress = RendererScreenshotTests.progress(of: rect.midX, rect.midY, from: from, to: to)
                return progress > 0.2 && progress < 0.6
            }
        }
        #expect(midFrame, "the renderer never logged a frame with the cover part-way:\n\(logs)")
        let mid = try await screenshot()
        let moving = try #require(mid.coverBlobs().first, "no cover on screen mid-transition")
        let progress = RendererScreenshotTests.progress(of: moving.midX, moving.midY, from: from, to: to)
        #expect(progress > 0.05 && progress < 0.95, "mid: cover at \(moving) is \(progress) of the way from \(from) to \(to)")
        #expect(!from.matches(moving) && !to.matches(moving), "mid: cover at \(moving) sits at an end")
        return mid
    }

    /// Waits until the renderer's frames for plan `serial` stop moving.
    func waitUntilSettled(serial: UInt64, timeout: Duration = .seconds(120)) async throws {
        let settled = await eventually(timeout: timeout, poll: .milliseconds(50)) {
            self.logLines("settled").contains { UInt64($0["serial"] ?? "") ?? 0 >= serial }
        }
        guard settled else { throw TestSupportError("plan \(serial) never settled on screen:\n\(logs)") }
    }
}
