import Foundation
import NookBus
import NookTestSupport
import Testing

/// Issue 42, part 1, on headless sway: no frame without a change. The renderer's Wayland trace
/// (`WAYLAND_DEBUG=1`, which `SwayNook` sets) counts every `wl_surface.commit` it makes: with
/// nothing showing it commits none over 10 s, with one countdown about one a second (the
/// second the digits change, repainting the digits alone), and with a song playing its
/// equalizer's 30 a second (repainting the bars alone).
@Suite(.serialized)
struct IdleFramesOnSwayTests {
    /// The window each count is taken over: a duration measured, not a wait for something.
    static let window: Duration = .seconds(10)

    /// `wl_surface.commit` requests in a `WAYLAND_DEBUG` trace (` -> wl_surface@N.commit()`).
    static func commits(in trace: Substring) -> Int {
        trace.split(separator: "\n").filter { $0.contains(" -> wl_surface@") && $0.contains(".commit()") }.count
    }

    /// The renderer's log from `offset` (a UTF-8 count taken earlier) on.
    static func log(of nook: SwayNook, from offset: Int) -> Substring {
        let log = nook.rendererLog
        let start = log.utf8.index(log.utf8.startIndex, offsetBy: min(offset, log.utf8.count))
        return log[start...]
    }

    /// Commits over `window` from now, once the nook has settled at `serial` (and, with
    /// `quietFirst`, once its main thread has been still for a while: `quietDown`), and how
    /// many times the renderer's main (GTK) thread woke meanwhile (its `voluntary_ctxt_switches`).
    static func commitsOverWindow(_ nook: SwayNook, settledAt serial: UInt64, quietFirst: Bool) async throws -> (count: Int, trace: Substring, mainThreadWakeups: Int) {
        try await nook.waitUntilSettled(serial: serial)
        if quietFirst { try await quietDown(nook.renderer.pid) }
        let offset = nook.rendererLog.utf8.count
        let wakeupsBefore = mainThreadWakeups(nook.renderer.pid)
        try await Task.sleep(for: window)
        let wakeups = mainThreadWakeups(nook.renderer.pid) - wakeupsBefore
        let trace = log(of: nook, from: offset)
        return (commits(in: trace), trace, wakeups)
    }

    /// Waits until `pid`'s main thread has slept through one whole `quiet` period (at most
    /// `quietAttempts` of them): what follows a settle (the surface resized to what it shows,
    /// GTK's own timers after a surface change) is over before a window is counted.
    static func quietDown(_ pid: Int32) async throws {
        for _ in 0..<quietAttempts {
            let before = mainThreadWakeups(pid)
            try await Task.sleep(for: quiet)
            if mainThreadWakeups(pid) == before { return }
        }
    }

    static let quiet: Duration = .seconds(2)
    static let quietAttempts = 15

    /// The voluntary context switches of `pid`'s main thread so far: each one a sleep that
    /// something ended.
    static func mainThreadWakeups(_ pid: Int32) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches:") } ?? ""
        return Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" }).last ?? "0") ?? 0
    }

    @Test func anIdleNookCommitsNoFrameAndACountdownAboutOneASecond() async throws {
        try await SwayNook.with(slowMotion: 1) { nook in
            // Nothing showing: the music module leaves, and its activity ends after the grace period.
            _ = await nook.music.stop()
            let idle = try await Self.commitsOnceShowing("hidden", nook, timeout: .seconds(120), quietFirst: true, "the song's ending")
            #expect(idle.count == 0, "an idle renderer committed \(idle.count) frames in 10 s:\n\(idle.trace.suffix(3000))")
            // Nor does it wake: no timer of its own runs with nothing showing (a second tick
            // used to, ten wakeups in 10 s). A stray event from the compositor may still come.
            #expect(idle.mainThreadWakeups <= 3, "an idle renderer's main thread woke \(idle.mainThreadWakeups) times in 10 s:\n\(idle.trace.suffix(3000))")

            // One countdown: its digits change each second, and only then is a frame drawn.
            let state = nook.scratch.appendingPathComponent("nookctl-state").path
            let start = try nook.stack.process("nookctl", ["--address", nook.bus.address, "activity", "start", "tea/pot", "--title", "Tea",
                                                           "--timer", "30m", "--no-sound"], environment: ["XDG_STATE_HOME": state])
            #expect(await start.waitForExit(), "\(start.log)")
            let counting = try await Self.commitsOnceShowing("pill", nook, "the timer (\(start.log))")
            // About ten; a loaded machine may merge two seconds' draws or add a frame callback's commit.
            #expect((5...20).contains(counting.count), "a countdown committed \(counting.count) frames in 10 s:\n\(counting.trace.suffix(3000))")
            // Each repaints the countdown's text alone, not the pill or the window.
            let damages = Self.damages(in: counting.trace)
            print("countdown: \(counting.count) commits in 10 s; damage sizes \(Self.damageSizes(damages))")
            let large = damages.filter { $0.width > 120 || $0.height > 60 }
            #expect(!damages.isEmpty && large.count <= 2, "\(large.count) of \(damages.count) seconds damaged more than the countdown: \(large.prefix(5))")
        }
    }

    /// Commits over `window` once the nook shows `presentation` and has settled there.
    static func commitsOnceShowing(_ presentation: String, _ nook: SwayNook, timeout: Duration = .seconds(60), quietFirst: Bool = false,
                                   _ what: String)
        async throws -> (count: Int, trace: Substring, mainThreadWakeups: Int)
    {
        let shown = await eventually(timeout: timeout, poll: .milliseconds(100)) {
            (try? await nook.state().presentation) == presentation
        }
        try #require(shown, "\(what) never showed \(presentation):\n\(nook.logs)")
        return try await commitsOverWindow(nook, settledAt: try await nook.state().serial, quietFirst: quietFirst)
    }

    /// The damage sizes of `trace`, as text for a log line.
    static func damageSizes(_ damages: [(width: Int, height: Int)]) -> [String] {
        Set(damages.map { "\($0.width)x\($0.height)" }).sorted()
    }

    /// The damage each frame declares (`wl_surface.damage_buffer(x, y, width, height)` and
    /// `damage(...)`), as width x height.
    static func damages(in trace: Substring) -> [(width: Int, height: Int)] {
        trace.split(separator: "\n").compactMap { line in
            guard line.contains(" -> wl_surface@"), line.contains(".damage"), let open = line.firstIndex(of: "("),
                  let close = line.lastIndex(of: ")") else { return nil }
            let numbers = line[line.index(after: open)..<close].split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            return numbers.count == 4 ? (numbers[2], numbers[3]) : nil
        }
    }

    /// The playing song's equalizer moves at its own 30 frames a second, and each of those
    /// frames damages the equalizer's bars alone, not the pill or the window.
    /// Drawn on the subsurface canvas (the default: its frames go to a subsurface, and the
    /// screen shows the pill) and by GTK on its own surface (`NOOK_RENDERER_GTK_BUFFERS=1`).
    @Test(arguments: [false, true])
    func aPlayingEqualizerDrawsItsOwnRectAtItsOwnRate(canvas: Bool) async throws {
        try await SwayNook.with(slowMotion: 1, rendererEnvironment: canvas ? [:] : ["NOOK_RENDERER_GTK_BUFFERS": "1"]) { nook in
            let playing = try await Self.commitsOnceShowing("pill", nook, "the song")
            #expect(nook.rendererLog.contains("get_subsurface(") == canvas, "canvas \(canvas): a subsurface made or not as asked")
            if canvas {
                let frame = try #require(nook.logLines("frame").last, "no frame logged")
                let pill = try #require(LoggedRect(frame["chrome"]), "no chrome drawn: \(frame.text)")
                let shot = try await nook.sway.screenshot()
                ReachOnScreenTests.saveScreenshot(shot, "canvas-pill")
                let chrome = try #require(shot.chromeBox(background: SwayServer.backgroundSum), "no chrome on screen from the canvas")
                #expect(pill.matches(chrome, tolerance: 2), "canvas: chrome on screen at \(chrome), logged \(pill)")
            }
            // 300 at 30 a second; a loaded machine drops some, never down to one a second.
            #expect((60...330).contains(playing.count), "a playing equalizer committed \(playing.count) frames in 10 s:\n\(playing.trace.suffix(3000))")
            let damages = Self.damages(in: playing.trace)
            #expect(!damages.isEmpty, "no damage in the trace:\n\(playing.trace.suffix(2000))")
            // The bars are about 20 x 14 pt at scale 1; the pill is hundreds of points wide.
            let large = damages.filter { $0.width > 64 || $0.height > 64 }
            print("equalizer: \(playing.count) commits in 10 s; damage sizes \(Self.damageSizes(damages))")
            #expect(large.count <= 2, "\(large.count) of \(damages.count) frames damaged more than the equalizer: \(large.prefix(5))")
        }
    }
}
