import Foundation
import NookBus
import NookTestSupport
import Testing

/// Issue 39, part 3, on screen: with nothing worth showing, nothing is drawn. nookd, the real
/// nook-mpris following MPRIS players (none is running) and nook-renderer on Xvfb, whose root
/// is painted a blue no part of the nook uses: the top band of the screen must be that blue
/// alone, no pill, no placeholder. Then an activity arrives, and the same band shows the nook,
/// so the check can see a nook when there is one.
@Suite(.serialized)
struct EmptyNookOnScreenTests {
    /// The desktop's colour: (48, 96, 160).
    static let desktop = "#3060a0"
    static let desktopRGB = (48, 96, 160)
    /// The band the nook lives in: the pill, its capsules and a peek fit in it.
    static let bandRows = 120

    /// Pixels of `image`'s top band that are not the desktop's colour.
    static func notDesktop(_ image: RGBImage) -> Int {
        var count = 0
        for index in 0..<(image.width * min(bandRows, image.height)) {
            let r = Int(image.bytes[index * 3]), g = Int(image.bytes[index * 3 + 1]), b = Int(image.bytes[index * 3 + 2])
            if abs(r - desktopRGB.0) > 2 || abs(g - desktopRGB.1) > 2 || abs(b - desktopRGB.2) > 2 { count += 1 }
        }
        return count
    }

    /// Saves `image` as a PNG into `$NOOK_SCREENSHOT_DIR` when set (to look at it, or for docs).
    static func keep(_ image: RGBImage, as name: String) async {
        guard let directory = ProcessInfo.processInfo.environment["NOOK_SCREENSHOT_DIR"] else { return }
        let raw = URL(fileURLWithPath: directory).appendingPathComponent("\(name).rgb")
        try? Data(image.bytes).write(to: raw)
        _ = try? await Tools.run("convert", ["-size", "\(image.width)x\(image.height)", "-depth", "8", "rgb:\(raw.path)",
                                             URL(fileURLWithPath: directory).appendingPathComponent("\(name).png").path])
        try? FileManager.default.removeItem(at: raw)
    }

    @Test func withNoPlayerNoPillIsDrawnAndTheTopBandIsTheDesktopAlone() async throws {
        try await RendererNook.with(slowMotion: 1, withMusic: false, root: Self.desktop) { nook in
            let music = try nook.stack.process("nook-mpris", ["--address", nook.bus.address])
            // nook-mpris registered and published its home and widget (the state says the module is there).
            let registered = await eventually(timeout: .seconds(60), poll: .milliseconds(100)) {
                guard let reply = try? await nook.control("GetState").first, let record = try? Vardict(reply, at: "state"),
                      case .array(_, let modules)? = record["modules"]?.unwrappingVariants else { return false }
                return "\(modules)".contains("music")
            }
            #expect(registered, "nook-mpris never registered:\n\(music.log)\n\(nook.logs)")
            let state = try await nook.state()
            #expect(state.presentation == "hidden", "with no player the nook should be hidden, is \(state.presentation)")
            // The renderer has the broker's latest plan and has come to rest on it.
            let serial = state.serial
            let caughtUp = await eventually(timeout: .seconds(60), poll: .milliseconds(50)) {
                nook.logLines("plan").contains { UInt64($0["serial"] ?? "") ?? 0 >= serial }
            }
            #expect(caughtUp, "the renderer never drew plan \(serial):\n\(nook.logs)")
            try await nook.waitUntilSettled(serial: serial)
            let empty = try await nook.xvfb.screenshot(rows: Self.bandRows)
            await Self.keep(empty, as: "empty-nook-top-band")
            #expect(Self.notDesktop(empty) == 0, "\(Self.notDesktop(empty)) pixels of the top band are not the desktop:\n\(nook.logs)")

            // The check sees a nook when there is one: an activity brings the pill.
            let start = try nook.stack.process("nookctl", ["--address", nook.bus.address, "activity", "start", "tea/pot", "--title", "Tea", "--timer", "10m"])
            #expect(await start.waitForExit(), "\(start.log)")
            let drawn = await eventually(timeout: .seconds(60), poll: .milliseconds(200)) {
                ((try? await nook.xvfb.screenshot(rows: Self.bandRows)).map(Self.notDesktop) ?? 0) > 200
            }
            #expect(drawn, "the pill never appeared in the top band:\n\(nook.logs)")
            if let pill = try? await nook.xvfb.screenshot(rows: Self.bandRows) { await Self.keep(pill, as: "tea-timer-top-band") }
        }
    }

    /// Paused music on screen: the simulated player paused through its play/pause control
    /// (`nookctl press music/song play-pause`), the pill keeps the cover and says "Paused" on
    /// the right, in place of the dancing bars.
    @Test func pausedMusicSaysPausedInThePill() async throws {
        try await RendererNook.with(slowMotion: 1, root: Self.desktop) { nook in
            _ = try await nook.control("Invoke", [.string("music"), .string("song"), .string("play-pause"), .vardict([String: DBusValue]())])
            let paused = await eventually(timeout: .seconds(60), poll: .milliseconds(100)) {
                guard let reply = try? await nook.control("GetState").first, let record = try? Vardict(reply, at: "state") else { return false }
                return "\(record["items"].map { "\($0)" } ?? "")".contains("Paused: ")
            }
            #expect(paused, "the song never said Paused:\n\(nook.logs)")
            let serial = try await nook.state().serial
            let caughtUp = await eventually(timeout: .seconds(60), poll: .milliseconds(50)) {
                nook.logLines("plan").contains { UInt64($0["serial"] ?? "") ?? 0 >= serial }
            }
            #expect(caughtUp, "the renderer never drew plan \(serial):\n\(nook.logs)")
            try await nook.waitUntilSettled(serial: serial)
            let shot = try await nook.xvfb.screenshot(rows: Self.bandRows)
            await Self.keep(shot, as: "paused-music-top-band")
            #expect(!shot.coverBlobs().isEmpty, "no cover in the paused pill")
            #expect(try await nook.state().presentation == "pill")
        }
    }
}
