import Foundation
import NookBus
import NookTestSupport
import Testing

/// nook-renderer on a virtual X display: screenshots at chosen instants, the cover found by
/// its colour. Slow motion stretches every curve, each screenshot is taken only after the
/// renderer's own log says what is on screen, and one mid-transition is taken with the
/// renderer frozen, so no step depends on the machine's speed.
@Suite
struct RendererScreenshotTests {
    /// SPEC rules 7 and 10 on screen: opening onto the song moves the pill's cover into the
    /// expanded view through the positions in between.
    @Test func coverMovesFromThePillThroughInBetweenToTheExpandedView() async throws {
        try await RendererNook.with { nook in
            try await showPill(nook)
            let before = try await nook.xvfb.screenshot()
            let pillCover = try #require(before.coverBlobs().first, "no cover in the pill before opening")

            // Mid-transition: the renderer frozen on a frame with the cover part-way.
            let partWay = try await nook.coverCaughtPartWay(
                transition: { try await nook.open() }, reset: { try await nook.closeAndSettle() },
                screenshot: { try await nook.xvfb.screenshot() })
            #expect(partWay.from.matches(pillCover), "before: cover at \(pillCover), plan's from_rect \(partWay.from)")

            try await nook.waitUntilSettled(serial: partWay.serial)
            let after = try await nook.xvfb.screenshot()
            let expandedCover = try #require(after.coverBlobs().first, "no cover after opening")
            #expect(partWay.to.matches(expandedCover), "after: cover at \(expandedCover), plan's to_rect \(partWay.to)")
            #expect(try await nook.state().presentation == "expanded")
        }
    }

    /// SPEC rule 18 on screen: with Reduce Motion nothing moves, so no screenshot during the
    /// change shows the cover anywhere but where it starts or where it ends.
    @Test func reduceMotionNeverShowsTheCoverInBetween() async throws {
        try await RendererNook.with { nook in
            try await nook.setReduceMotion(true)
            // The dissolve lasts 2 s instead of 180 ms, so even on a loaded machine, where one
            // screenshot can take longer than the whole default fade, several land inside it.
            _ = try await nook.control("SetTokens", [.vardict(["transition.fade": .variant(.string("2s"))])])
            try await showPill(nook)
            let before = try await nook.xvfb.screenshot()
            let start = try #require(before.coverBlobs().first, "no cover in the pill")

            let serial = try await nook.open(["onto": .string("home"), "module": .string("music")])
            let plan = try await nook.waitForPlan(serial: serial)
            #expect(plan["reduce_motion"] == "true", "\(plan.text)")
            var shots: [RGBImage] = []
            // Screenshots until the renderer says the change is over.
            while !nook.logLines("settled").contains(where: { UInt64($0["serial"] ?? "") ?? 0 >= serial }) {
                shots.append(try await nook.xvfb.screenshot())
                if shots.count > 400 { break }
            }
            try await nook.waitUntilSettled(serial: serial)
            let after = try await nook.xvfb.screenshot()
            let end = try #require(after.coverBlobs().first, "no cover on the home after opening")
            #expect(end.width > start.width * 3, "the home's cover (\(end)) should be far larger than the pill's (\(start))")
            #expect(shots.count >= 2, "took only \(shots.count) screenshots while the change played")
            // A cover fading in or out may show only in part (where it lies over the black chrome
            // while the chrome changes shape), but always within its start or end rect.
            let ends = [LoggedRect(blob: start), LoggedRect(blob: end)]
            for (index, shot) in shots.enumerated() {
                for blob in shot.coverBlobs() {
                    #expect(ends.contains { $0.contains(blob) }, "screenshot \(index): cover at \(blob), neither within \(start) nor \(end)")
                }
            }
            // The chrome dissolves (the plan's chrome.cross_fade): each screenshot shows it at
            // the plan's from_rect or to_rect (the larger shape once its fade shows), never at a
            // size in between.
            #expect(plan["chrome_cross_fade"] == "true", "\(plan.text)")
            let chromeFrom = try #require(LoggedRect(plan["chrome_from"]), "\(plan.text)")
            let chromeTo = try #require(LoggedRect(plan["chrome_to"]), "\(plan.text)")
            #expect(before.chromeBox().map { chromeFrom.matches($0, tolerance: 2) } == true, "pill chrome: \(String(describing: before.chromeBox()))")
            #expect(after.chromeBox().map { chromeTo.matches($0, tolerance: 2) } == true, "home chrome: \(String(describing: after.chromeBox()))")
            var sizes: Set<String> = []
            for (index, shot) in shots.enumerated() {
                let box = try #require(shot.chromeBox(), "screenshot \(index): no chrome")
                sizes.insert(box.description)
                #expect(chromeFrom.matches(box, tolerance: 2) || chromeTo.matches(box, tolerance: 2),
                        "screenshot \(index): chrome at \(box), neither \(chromeFrom) nor \(chromeTo)")
            }
            print("reduce motion: \(shots.count) screenshots, chrome boxes seen: \(sizes.sorted())")
        }
    }

    /// The pointer coming over the pill (xdotool on the X display) sends `Pointer("enter")`,
    /// which opens the nook by hover; leaving sends `exit`, which closes it.
    @Test func pointerOverThePillOpensTheNookByHover() async throws {
        try await RendererNook.with(slowMotion: 1) { nook in
            try await showPill(nook)
            let frame = try #require(nook.logLines("frame").last, "no frame logged")
            let pill = try #require(LoggedRect(frame["chrome"]), "no chrome drawn: \(frame.text)")
            try await nook.xvfb.run("xdotool", ["mousemove", String(Int(pill.midX)), String(Int(pill.midY))])
            let opened = await eventually(timeout: .seconds(60), poll: .milliseconds(50)) {
                (try? await nook.state().presentation) == "expanded"
            }
            #expect(opened, "hovering the pill did not open the nook:\n\(nook.logs)")
            try await nook.xvfb.run("xdotool", ["mousemove", "20", String(XvfbServer.screen.height - 20)])
            let closed = await eventually(timeout: .seconds(60), poll: .milliseconds(50)) {
                (try? await nook.state().presentation) == "pill"
            }
            #expect(closed, "leaving the nook did not close it:\n\(nook.logs)")
        }
    }

    /// A click on the pill opens it by claim (`Control.Open`). Hovering opens it first, so the
    /// pill is brought back under the resting pointer with `Close`, then clicked.
    @Test func clickOnThePillOpensIt() async throws {
        try await RendererNook.with(slowMotion: 1) { nook in
            try await showPill(nook)
            let frame = try #require(nook.logLines("frame").last, "no frame logged")
            let pill = try #require(LoggedRect(frame["chrome"]), "no chrome drawn: \(frame.text)")
            try await nook.xvfb.run("xdotool", ["mousemove", String(Int(pill.midX)), String(Int(pill.midY))])
            let hovered = await eventually(timeout: .seconds(60), poll: .milliseconds(50)) {
                (try? await nook.state().presentation) == "expanded"
            }
            #expect(hovered, "hovering the pill did not open the nook:\n\(nook.logs)")
            _ = try await nook.control("Close", [.vardict([String: DBusValue]())])
            let closed = try await nook.state()
            #expect(closed.presentation == "pill")
            try await nook.waitUntilSettled(serial: closed.serial)
            try await nook.xvfb.run("xdotool", ["click", "1"])
            let opened = await eventually(timeout: .seconds(60), poll: .milliseconds(50)) {
                (try? await nook.state().presentation) == "expanded"
            }
            #expect(opened, "clicking the pill did not open the nook:\n\(nook.logs)")
            #expect(nook.rendererLog.contains("click on the pill"))
        }
    }

    /// nookd restarting: the renderer sees org.nook.Nook1 get a new owner, subscribes again
    /// and draws the new broker's plan (the cover back in the pill).
    @Test func rendererSubscribesAgainWhenNookdRestarts() async throws {
        try await RendererNook.with(slowMotion: 1) { nook in
            try await showPill(nook)
            try await nook.restartNookd()
            let resubscribed = await eventually(timeout: .seconds(60), poll: .milliseconds(50)) {
                nook.rendererLog.contains("subscribed (2)")
            }
            #expect(resubscribed, "the renderer did not subscribe to the new nookd:\n\(nook.logs)")
            // The subscription is logged before its plan is handed to the main loop and drawn.
            let twoPlans = await eventually(timeout: .seconds(60), poll: .milliseconds(50)) {
                nook.logLines("plan").filter { $0["via"] == "subscribe" }.count >= 2
            }
            #expect(twoPlans, "\(nook.logLines("plan").filter { $0["via"] == "subscribe" }.map(\.text))")
            // The new broker hears from the music module again and shows its cover.
            _ = try? await nook.control("Show")
            let drawn = await eventually(timeout: .seconds(60), poll: .milliseconds(200)) {
                (try? await nook.xvfb.screenshot().coverBlobs().isEmpty) == false
            }
            #expect(drawn, "no cover drawn after the restart:\n\(nook.logs)")
        }
    }

    /// A display change: the X screen shrinks (`xrandr --fb` on Xvfb), the renderer sends
    /// `Control.DisplayChanged` with the new size and draws the broker's fresh-window plan,
    /// so the pill's cover moves with the screen's new centre.
    ///
    /// xrandr works in steps (the output off, the screen resized, the output on again), GDK
    /// signals each, and between them it can report no monitor at all. The renderer used to
    /// declare that as a 0x0 display (refused) and the sizes between as displays of their own,
    /// each call in a task of its own: under load a stale size could reach nookd last and keep
    /// the pill off the new centre for good. Each step below waits for the event that proves
    /// it: the new size declared, the fresh plan in the new geometry received and played to
    /// rest, and only then the screen.
    @Test
    func displayChangeIsSentAndTheFreshPlanDrawn() async throws {
        try await RendererNook.with(slowMotion: 1) { nook in
            try await showPill(nook)
            let before = try #require(try await nook.xvfb.screenshot().coverBlobs().first)
            let (width, height) = (1280, 800)
            // Xvfb resizes its screen but refuses the output's mode (a BadValue xrandr reports
            // and this test ignores); what matters is the screen size GDK sees.
            _ = try? await nook.xvfb.run("xrandr", ["--fb", "\(width)x\(height)"])
            let changed = await eventually(timeout: .seconds(60), poll: .milliseconds(50)) {
                nook.rendererLog.contains("display changed to \(width)x\(height)")
            }
            try #require(changed, "the renderer did not send DisplayChanged:\n\(nook.logs)")
            // The broker's fresh window for the new display: the chrome centred on it.
            @Sendable func centredOnTheNewScreen(_ line: LogLine) -> Bool {
                guard line["cause"] == "display_changed", let chrome = LoggedRect(line["chrome_to"]) else { return false }
                return abs(chrome.midX - Double(width) / 2) <= 1
            }
            let freshPlan = await eventually(timeout: .seconds(60), poll: .milliseconds(50)) {
                nook.logLines("plan").contains(where: centredOnTheNewScreen)
            }
            try #require(freshPlan, "no display_changed plan centred on the new screen reached the renderer:\n\(nook.logs)")
            let fresh = try #require(nook.logLines("plan").last(where: centredOnTheNewScreen))
            try await nook.waitUntilSettled(serial: try #require(UInt64(fresh["serial"] ?? "")))
            // Nothing declared after it took the pill elsewhere, nothing refused, no monitor
            // read that GDK did not have.
            let lastDisplayPlan = nook.logLines("plan").last { $0["cause"] == "display_changed" }
            #expect(lastDisplayPlan.map(centredOnTheNewScreen) == true, "a later display_changed plan: \(lastDisplayPlan?.text ?? "")")
            #expect(!nook.rendererLog.contains("DisplayChanged failed"), "the renderer declared a display nookd refused:\n\(nook.logs)")
            #expect(!nook.rendererLog.contains("GDK_IS_MONITOR"), "the renderer read a monitor GDK did not have:\n\(nook.logs)")
            // Drawn to rest in the new geometry: the screen shows it once X has the frame.
            let shift = Double(XvfbServer.screen.width - width) / 2
            let moved = await eventually(timeout: .seconds(60), poll: .milliseconds(200)) {
                guard let after = try? await nook.xvfb.screenshot(rows: 300, width: width).coverBlobs().first else { return false }
                return abs(Double(after.minX) - (Double(before.minX) - shift)) <= 3 && abs(after.minY - before.minY) <= 3
            }
            #expect(moved, "the pill's cover did not follow the new screen centre (was at \(before)):\n\(nook.logs)")
        }
    }

    // MARK: Helpers

    /// Shows the nook and waits until the renderer has drawn the pill at rest with the cover.
    private func showPill(_ nook: RendererNook) async throws {
        _ = try await nook.control("Show")
        let shown = await eventually(timeout: .seconds(60), poll: .milliseconds(50)) {
            (try? await nook.state().presentation) == "pill"
        }
        guard shown else { throw TestSupportError("the nook never showed its pill:\n\(nook.logs)") }
        let serial = try await nook.state().serial
        _ = try await nook.waitForPlan(serial: serial)
        try await nook.waitUntilSettled(serial: serial)
        let drawn = await eventually(timeout: .seconds(30), poll: .milliseconds(200)) {
            (try? await nook.xvfb.screenshot().coverBlobs().isEmpty) == false
        }
        guard drawn else { throw TestSupportError("the pill's cover never appeared on screen:\n\(nook.logs)") }
    }

    /// How far (0 at `from`, 1 at `to`) a centre lies along the larger of the two moves.
    static func progress(of x: Double, _ y: Double, from: LoggedRect, to: LoggedRect) -> Double {
        let dx = to.midX - from.midX, dy = to.midY - from.midY
        return abs(dx) >= abs(dy) ? (x - from.midX) / dx : (y - from.midY) / dy
    }
}

extension LoggedRect {
    init(blob: RGBImage.Blob) {
        self.init("\(blob.minX),\(blob.minY),\(blob.width),\(blob.height)")!
    }
}
