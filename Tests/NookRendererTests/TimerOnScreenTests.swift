import Foundation
import NookBus
import NookCore
import NookTestSupport
import Testing

/// Issue 39, part 4, on screen: two countdowns from `nookctl activity start --timer` in their
/// own colours (the primary beside the notch, the other in a capsule), then one finished by
/// `nookctl activity finish` peeking with "Done", drawn by nook-renderer on Xvfb.
@Suite(.serialized)
struct TimerOnScreenTests {
    /// Pixels within `tolerance` of `colour` (r, g, b) in the top `rows` of `image`.
    static func count(_ colour: (Int, Int, Int), in image: RGBImage, tolerance: Int = 40) -> Int {
        var count = 0
        for index in 0..<(image.width * image.height) {
            let r = Int(image.bytes[index * 3]), g = Int(image.bytes[index * 3 + 1]), b = Int(image.bytes[index * 3 + 2])
            if abs(r - colour.0) <= tolerance && abs(g - colour.1) <= tolerance && abs(b - colour.2) <= tolerance { count += 1 }
        }
        return count
    }

    /// The last rect the renderer logged for `owner`'s capsule (`target=capsule:OWNER@x,y,w,h`).
    static func capsuleRect(_ owner: String, in log: String) -> Rect? {
        guard let line = log.split(separator: "\n").last(where: { $0.contains("target=capsule:\(owner)@") }),
              let range = line.range(of: "target=capsule:\(owner)@") else { return nil }
        let numbers = line[range.upperBound...].prefix { $0 != " " }.split(separator: ",").compactMap { Double($0) }
        guard numbers.count == 4 else { return nil }
        return Rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
    }

    static let orange = (0xFF, 0x9F, 0x0A)
    static let cyan = (0x64, 0xD2, 0xFF)

    @Test func twoTimersShowTheirColoursAndAFinishedOnePeeksSayingDone() async throws {
        try await RendererNook.with(slowMotion: 1, withMusic: false, root: EmptyNookOnScreenTests.desktop) { nook in
            let state = nook.scratch.appendingPathComponent("nookctl-state").path
            func nookctl(_ arguments: [String]) throws -> PackageProcess {
                try nook.stack.process("nookctl", ["--address", nook.bus.address] + arguments, environment: ["XDG_STATE_HOME": state])
            }
            for (name, title) in [("tea/pot", "Tea"), ("eggs/pan", "Eggs")] {
                let start = try nookctl(["activity", "start", name, "--title", title, "--timer", "30m", "--no-sound"])
                #expect(await start.waitForExit(), "\(start.log)")
            }
            // Both colours on screen: Tea's orange beside the notch, Eggs' cyan in its capsule.
            let coloured = await eventually(timeout: .seconds(60), poll: .milliseconds(200)) {
                guard let shot = try? await nook.xvfb.screenshot(rows: EmptyNookOnScreenTests.bandRows) else { return false }
                return Self.count(Self.orange, in: shot) > 20 && Self.count(Self.cyan, in: shot) > 10
            }
            let two = try await nook.xvfb.screenshot(rows: EmptyNookOnScreenTests.bandRows)
            await EmptyNookOnScreenTests.keep(two, as: "two-timers-top-band")
            #expect(coloured, "orange \(Self.count(Self.orange, in: two)) px, cyan \(Self.count(Self.cyan, in: two)) px:\n\(nook.logs)")
            // No compositor here: the window is cut to what is drawn. Eggs' capsule is a disc,
            // so the corners of its square show the desktop, not the window's grey.
            let capsule = try #require(Self.capsuleRect("eggs/pan", in: nook.rendererLog), "no capsule target logged:\n\(nook.logs)")
            for (x, y) in [(capsule.minX + 1, capsule.minY + 1), (capsule.maxX - 2, capsule.minY + 1), (capsule.minX + 1, capsule.maxY - 2)] {
                let index = (Int(y) * two.width + Int(x)) * 3
                let pixel = (Int(two.bytes[index]), Int(two.bytes[index + 1]), Int(two.bytes[index + 2]))
                let desktop = EmptyNookOnScreenTests.desktopRGB
                #expect(abs(pixel.0 - desktop.0) + abs(pixel.1 - desktop.1) + abs(pixel.2 - desktop.2) < 30,
                        "the corner (\(x), \(y)) of the capsule \(capsule) is \(pixel), not the desktop")
            }

            // A second later Tea's orange digits changed, drawn clean in their own rects (the
            // second tick repaints those alone): only the digits' pixels differ.
            @Sendable func orangeChanged(_ shot: RGBImage) -> Int {
                var count = 0
                for index in 0..<(shot.width * shot.height) {
                    func orange(_ image: RGBImage) -> Bool {
                        abs(Int(image.bytes[index * 3]) - Self.orange.0) <= 40 && abs(Int(image.bytes[index * 3 + 1]) - Self.orange.1) <= 40
                            && abs(Int(image.bytes[index * 3 + 2]) - Self.orange.2) <= 40
                    }
                    if orange(shot) != orange(two) { count += 1 }
                }
                return count
            }
            let ticked = await eventually(timeout: .seconds(30), poll: .milliseconds(200)) {
                guard let shot = try? await nook.xvfb.screenshot(rows: EmptyNookOnScreenTests.bandRows) else { return false }
                return orangeChanged(shot) > 10
            }
            let later = try await nook.xvfb.screenshot(rows: EmptyNookOnScreenTests.bandRows)
            await EmptyNookOnScreenTests.keep(later, as: "two-timers-a-second-later")
            let changed = zip(later.bytes, two.bytes).lazy.filter { $0 != $1 }.count / 3
            #expect(ticked && changed < 3000, "a second's tick changed \(changed) pixels, \(orangeChanged(later)) of them orange")
            print("a second's tick changed \(changed) pixels, \(orangeChanged(later)) of them orange")
            #expect(Self.count(Self.orange, in: later) > 20 && Self.count(Self.cyan, in: later) > 10)

            // Tea finishes (what its background finish does at zero), with a long peek.
            let finish = try nookctl(["activity", "finish", "tea/pot", "--peek", "1h", "--no-sound"])
            let peeking = await eventually(timeout: .seconds(60), poll: .milliseconds(100)) {
                (try? await nook.state().presentation) == "peek"
            }
            #expect(peeking, "\(finish.log)\n\(nook.logs)")
            let serial = try await nook.state().serial
            _ = try await nook.waitForPlan(serial: serial)
            try await nook.waitUntilSettled(serial: serial)
            let done = try await nook.xvfb.screenshot(rows: EmptyNookOnScreenTests.bandRows)
            await EmptyNookOnScreenTests.keep(done, as: "timer-done-peek-top-band")
            #expect(finish.log.contains("finished tea/pot: Done"), "\(finish.log)")
            // The peek is taller than the pill, and in Tea's colour.
            let chrome = try #require(done.chromeBox(background: 48 + 96 + 160), "no chrome on screen:\n\(nook.logs)")
            #expect(chrome.height > 40, "the peek is \(chrome)")
            #expect(Self.count(Self.orange, in: done) > 20, "no orange in the peek")
            await finish.stop()
        }
    }

    /// Issue 39: a countdown over an hour shows its hours whole (`1:04:59`), not cut to
    /// `1:04…` in a slot laid out for `00:00`: its orange digits right of the centre reach as
    /// wide as seven characters do.
    @Test func aCountdownOverAnHourShowsItsHoursWhole() async throws {
        try await RendererNook.with(slowMotion: 1, withMusic: false, root: EmptyNookOnScreenTests.desktop) { nook in
            let state = nook.scratch.appendingPathComponent("nookctl-state").path
            let start = try nook.stack.process("nookctl", ["--address", nook.bus.address, "activity", "start", "roast/oven", "--title", "Roast",
                                                           "--timer", "1h5m", "--no-sound"], environment: ["XDG_STATE_HOME": state])
            #expect(await start.waitForExit(), "\(start.log)")
            // The leftmost and rightmost orange columns right of the centre.
            @Sendable func digits(_ shot: RGBImage) -> (min: Int, max: Int)? {
                var low = Int.max, high = Int.min
                for y in 0..<shot.height {
                    for x in (shot.width / 2)..<shot.width {
                        let pixel = shot.pixel(x: x, y: y)
                        if abs(Int(pixel[0]) - Self.orange.0) <= 40, abs(Int(pixel[1]) - Self.orange.1) <= 40, abs(Int(pixel[2]) - Self.orange.2) <= 40 {
                            low = min(low, x)
                            high = max(high, x)
                        }
                    }
                }
                return low <= high ? (low, high) : nil
            }
            // 13 pt semibold digits are about 8 px wide: seven characters (two narrow colons) span
            // well over 40 px, where `1:04…` spans about 35.
            let whole = await eventually(timeout: .seconds(60), poll: .milliseconds(200)) {
                guard let shot = try? await nook.xvfb.screenshot(rows: EmptyNookOnScreenTests.bandRows), let span = digits(shot) else { return false }
                return span.max - span.min >= 44
            }
            let shot = try await nook.xvfb.screenshot(rows: EmptyNookOnScreenTests.bandRows)
            await EmptyNookOnScreenTests.keep(shot, as: "long-timer-top-band")
            #expect(whole, "the countdown's digits span \(String(describing: digits(shot))):\n\(nook.logs)")
        }
    }
}
