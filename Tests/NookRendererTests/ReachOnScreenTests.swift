import Foundation
import NookBus
import NookCore
import NookTestSupport
import Synchronization
import Testing

/// Every activity in reach, and dismissed by hand (issue 39, parts 1 and 2), on headless sway
/// with the virtual pointer: real nookd, nook-renderer, the simulated music player (the primary
/// activity) and a second module on the test's own connection whose activities sit in
/// capsules. Where each capsule, tile and close control is drawn comes from the renderer's
/// `--verbose` frame log (`target=kind:owner@rect`); what opened, from `GetState`; what the
/// module heard, from its `Diagnostics` signals.
@Suite(.serialized)
struct ReachOnScreenTests {
    /// A module on its own connection: `reach`, with a home, and the activities it starts.
    final class SideModule: Sendable {
        let connection: BusConnection
        private let heard = Locked<[String]>([])

        private init(connection: BusConnection) { self.connection = connection }

        static func register(on nook: some NookUnderTest, home: Bool = false) async throws -> SideModule {
            let connection = try await BusConnection.connect(to: .address(nook.bus.address), description: "reach-module")
            let module = SideModule(connection: connection)
            _ = try await connection.addMatch(MatchRule(path: "/org/nook/Nook1", interface: "org.nook.Nook1.Modules", member: "Diagnostics")) { signal in
                guard case .array(_, let entries)? = signal.arguments.first?.unwrappingVariants else { return }
                for entry in entries {
                    guard let record = try? Vardict(entry.unwrappingVariants, at: "diagnostic"),
                          case .string(let code)? = record["code"]?.unwrappingVariants else { continue }
                    let id: String = if case .string(let id)? = record["id"]?.unwrappingVariants { id } else { "" }
                    module.heard.withLock { $0.append("\(code) \(id)") }
                }
            }
            try await module.call("Register", [.string("reach"), .vardict(["display_name": .string("Reach")])])
            if home { try await module.call("SetContent", [.string("home"), Self.view("Reach home", size: 20)]) }
            return module
        }

        func call(_ member: String, _ arguments: [DBusValue]) async throws {
            _ = try await connection.call(destination: "org.nook.Nook1", path: "/org/nook/Nook1", interface: "org.nook.Nook1.Modules",
                                          member: member, arguments: arguments, timeout: .seconds(20))
        }

        /// Starts `id` below the music activity, so it sits in a capsule.
        func start(_ id: String, letter: String, extra: [String: DBusValue] = [:]) async throws {
            var spec: [String: DBusValue] = [
                "accessibility_label": .string("Reach \(id)"), "relevance": .double(-1),
                "compact_leading": Self.view(letter), "compact_trailing": Self.view(id),
                "minimal": Self.view(letter), "expanded": Self.view("Activity \(id)", size: 22),
            ]
            for (key, value) in extra { spec[key] = value }
            try await call("StartActivity", [.string(id), .vardict(spec)])
        }

        /// The diagnostics heard, as `code id`.
        var diagnostics: [String] { heard.withLock { $0 } }

        func close() async { await connection.close() }

        static func view(_ text: String, size: Double = 13) -> DBusValue {
            .structure([.string("text"), .vardict(["text": .string(text), "font_size": .double(size)]), .array(element: "v", [])])
        }
    }

    /// What `GetState` says is shown: presentation, module, activity.
    static func showing(_ nook: some NookUnderTest) async throws -> (presentation: String, module: String, activity: String, activities: [String]) {
        guard let reply = try await nook.control("GetState").first else { throw TestSupportError("GetState replied with nothing") }
        let record = try Vardict(reply, at: "state")
        func string(_ key: String) -> String {
            if case .string(let value)? = record[key]?.unwrappingVariants { return value }
            return ""
        }
        var activities: [String] = []
        if case .array(_, let items)? = record["activities"]?.unwrappingVariants {
            for item in items {
                if case .structure(let parts) = item.unwrappingVariants, parts.count == 2,
                   case .string(let module) = parts[0].unwrappingVariants, case .string(let activity) = parts[1].unwrappingVariants {
                    activities.append("\(module)/\(activity)")
                }
            }
        }
        return (string("presentation"), string("module"), string("activity"), activities)
    }

    /// The rect of the target `kind:owner` in the newest frame the renderer logged with one.
    static func targetRect(_ nook: some NookUnderTest, _ kindAndOwner: String) -> LoggedRect? {
        for line in nook.logLines("frame").reversed() {
            for word in line.text.split(separator: " ") where word.hasPrefix("target=\(kindAndOwner)@") {
                return LoggedRect(String(word.dropFirst("target=\(kindAndOwner)@".count)))
            }
        }
        return nil
    }

    /// Waits until the renderer has drawn the target at rest (the current plan settled) and
    /// returns its rect. The close control follows the chrome, and the last frame logged before
    /// `settled` may be short of the end under load: its rect is taken from where the plan's
    /// chrome comes to rest (8 points right of it, bottom-aligned, 26 points).
    static func settledTarget(_ nook: SwayNook, _ kindAndOwner: String) async throws -> LoggedRect {
        let serial = try await nook.state().serial
        try await nook.waitUntilSettled(serial: serial)
        let drawn = await eventually(timeout: .seconds(60), poll: .milliseconds(50)) { targetRect(nook, kindAndOwner) != nil }
        guard drawn, let rect = targetRect(nook, kindAndOwner) else {
            throw TestSupportError("the renderer never drew target \(kindAndOwner):\n\(nook.logs)")
        }
        if kindAndOwner.hasPrefix("close:"), let chrome = LoggedRect(try await nook.waitForPlan(serial: serial)["chrome_to"]) {
            let resting = LoggedRect("\(chrome.x + chrome.width + 8),\(chrome.y + chrome.height - 26),26,26")!
            #expect(abs(resting.midX - rect.midX) < 40 && abs(resting.midY - rect.midY) < 40,
                    "the close control was drawn at \(rect), far from where the chrome rests (\(resting))")
            return resting
        }
        return rect
    }

    static func waitFor(_ what: String, _ nook: SwayNook, _ condition: @escaping @Sendable ((presentation: String, module: String, activity: String, activities: [String])) -> Bool) async throws {
        let reached = await eventually(timeout: .seconds(60), poll: .milliseconds(50)) {
            guard let state = try? await showing(nook) else { return false }
            return condition(state)
        }
        guard reached else { throw TestSupportError("\(what) never happened (state: \(String(describing: try? await showing(nook)))):\n\(nook.logs)") }
    }

    /// With `NOOK_SCREENSHOTS` set, the screenshot as a PPM in that directory (to look at).
    static func saveScreenshot(_ image: RGBImage, _ name: String) {
        guard let directory = ProcessInfo.processInfo.environment["NOOK_SCREENSHOTS"] else { return }
        var data = Data("P6\n\(image.width) \(image.height)\n255\n".utf8)
        data.append(contentsOf: image.bytes)
        try? data.write(to: URL(fileURLWithPath: directory).appendingPathComponent(name + ".ppm"))
    }

    /// Calls `body` expecting a D-Bus error named `name` whose message contains `text`.
    static func expectDBusError(_ name: NookErrorName, containing text: String, _ body: () async throws -> Void) async {
        do {
            try await body()
            Issue.record("expected \(name.rawValue), the call succeeded")
        } catch let error as DBusError {
            #expect(error.name == name.rawValue && error.message.contains(text), "expected \(name.rawValue) mentioning \(text), got \(error)")
        } catch {
            Issue.record("expected \(name.rawValue), got \(error)")
        }
    }

    static let away = (x: 20, y: SwayServer.screen.height - 20)

    /// Hovering a capsule opens by hover onto that capsule's activity (never the primary one);
    /// leaving closes it. Hovering it again and clicking opens it by claim: leaving then keeps
    /// it open.
    @Test func hoveringACapsuleOpensThatActivityAClickClaimsItLeavingClosesIt() async throws {
        try await SwayNook.with(slowMotion: 1) { nook in
            try await nook.showPill()
            let module = try await SideModule.register(on: nook)
            defer { Task { await module.close() } }
            try await module.start("n2", letter: "N")
            let capsule = try await Self.settledTarget(nook, "capsule:reach/n2")
            Self.saveScreenshot(try await nook.sway.screenshot(), "reach-capsule-pill")
            let pointer = try await nook.pointer()

            try await pointer.move(to: Int(capsule.midX), Int(capsule.midY))
            try await Self.waitFor("hovering the capsule opening reach/n2", nook) {
                $0.presentation == "expanded" && $0.module == "reach" && $0.activity == "n2"
            }
            #expect(nook.rendererLog.contains("onto the capsule reach/n2"), "the renderer never sent OpenSlot for the capsule")
            try await nook.waitUntilSettled(serial: try await nook.state().serial)
            let opened = try await nook.sway.screenshot()
            Self.saveScreenshot(opened, "reach-capsule-hovered")
            let chrome = try #require(opened.chromeBox(background: SwayServer.backgroundSum), "no chrome on screen after hovering the capsule")
            #expect(chrome.maxX - chrome.minX > 300, "the hovered capsule did not open the panel: chrome \(chrome)")

            try await pointer.move(to: Self.away.x, Self.away.y)
            try await Self.waitFor("leaving closing what hovering opened", nook) { $0.presentation == "pill" }

            // Again, and a click: by claim now, so leaving keeps it open.
            let again = try await Self.settledTarget(nook, "capsule:reach/n2")
            try await pointer.move(to: Int(again.midX), Int(again.midY))
            try await Self.waitFor("hovering the capsule again", nook) { $0.presentation == "expanded" && $0.activity == "n2" }
            try await nook.waitUntilSettled(serial: try await nook.state().serial)
            try await pointer.click()
            let claimed = await eventually(timeout: .seconds(60), poll: .milliseconds(50)) {
                nook.rendererLog.contains("open slot sent panel expanded reach/n2 via=claim")
            }
            #expect(claimed, "the click was not sent as OpenSlot by claim:\n\(nook.logs)")
            try await nook.waitUntilSettled(serial: try await nook.state().serial)
            try await pointer.move(to: Self.away.x, Self.away.y)
            // Nothing to wait for that proves a close will not come: a later plan would; give
            // it the time a hover close takes (several frames), then check.
            let closed = await eventually(timeout: .seconds(3), poll: .milliseconds(100)) {
                (try? await Self.showing(nook).presentation) == "pill"
            }
            #expect(!closed, "leaving closed a nook opened by a click")
            let state = try await Self.showing(nook)
            #expect(state.presentation == "expanded" && state.activity == "n2", "\(state)")
        }
    }

    /// The close control beside an expanded activity ends it through the broker: the module
    /// hears `activity-dismissed`, and the id cannot start again. A middle click on a capsule
    /// (which hovering has opened) ends that one too. An activity whose module said
    /// `dismissible: false` gets no close control, and a middle click leaves it.
    @Test func theCloseControlAndAMiddleClickEndAnActivityForGood() async throws {
        try await SwayNook.with(slowMotion: 1) { nook in
            try await nook.showPill()
            let module = try await SideModule.register(on: nook)
            defer { Task { await module.close() } }
            try await module.start("n2", letter: "A")
            try await module.start("n3", letter: "B")
            try await module.start("n4", letter: "C", extra: ["dismissible": .bool(false)])

            _ = try await nook.open(["onto": .string("activity"), "module": .string("reach"), "activity": .string("n2")])
            let close = try await Self.settledTarget(nook, "close:reach/n2")
            Self.saveScreenshot(try await nook.sway.screenshot(), "reach-close-control")
            let pointer = try await nook.pointer()
            try await pointer.move(to: Int(close.midX), Int(close.midY))
            try await pointer.click()
            try await Self.waitFor("the close control ending reach/n2", nook) { !$0.activities.contains("reach/n2") }
            let heard = await eventually(timeout: .seconds(30), poll: .milliseconds(50)) { module.diagnostics.contains("activity-dismissed n2") }
            #expect(heard, "the module never heard activity-dismissed for n2: \(module.diagnostics)")
            await Self.expectDBusError(.activityDismissed, containing: "n2") { try await module.start("n2", letter: "A") }

            // Middle click where the capsule is: hovering opened it, the click ends it.
            try await pointer.move(to: Self.away.x, Self.away.y)
            try await Self.waitFor("the pill again", nook) { $0.presentation == "pill" }
            let capsule = try await Self.settledTarget(nook, "capsule:reach/n3")
            try await pointer.move(to: Int(capsule.midX), Int(capsule.midY))
            try await Self.waitFor("hovering the capsule opening reach/n3", nook) { $0.activity == "n3" }
            try await nook.waitUntilSettled(serial: try await nook.state().serial)
            try await pointer.middleClick()
            try await Self.waitFor("the middle click ending reach/n3", nook) { !$0.activities.contains("reach/n3") }
            let heardMiddle = await eventually(timeout: .seconds(30), poll: .milliseconds(50)) { module.diagnostics.contains("activity-dismissed n3") }
            #expect(heardMiddle, "the module never heard activity-dismissed for n3: \(module.diagnostics)")
            await Self.expectDBusError(.activityDismissed, containing: "n3") { try await module.start("n3", letter: "B") }

            // Not dismissible: no close control, and the middle click leaves it.
            try await pointer.move(to: Self.away.x, Self.away.y)
            let serial = try await nook.open(["onto": .string("activity"), "module": .string("reach"), "activity": .string("n4")])
            try await nook.waitUntilSettled(serial: serial)
            let panel = try await Self.settledTarget(nook, "panel:reach/n4")
            let frame = try #require(nook.logLines("frame").last)
            #expect(!frame.text.contains("target=close:reach/n4"), "a close control on an activity that is not dismissible: \(frame.text)")
            try await pointer.move(to: Int(panel.midX), Int(panel.y + panel.height) - 6)
            try await pointer.middleClick()
            try await pointer.move(to: Self.away.x, Self.away.y)
            #expect(try await Self.showing(nook).activities.contains("reach/n4"), "a middle click ended an activity that is not dismissible")
            #expect(nook.rendererLog.contains("dismiss reach/n2 by close control"))
        }
    }

    /// A peek is in reach too: hovering it opens that activity by hover (the peeking one, not
    /// the primary), leaving closes it, and the close control beside the peek ends it.
    @Test func hoveringAPeekOpensItsActivityAndItsCloseControlEndsIt() async throws {
        try await SwayNook.with(slowMotion: 1) { nook in
            try await nook.showPill()
            let module = try await SideModule.register(on: nook)
            defer { Task { await module.close() } }
            try await module.start("n2", letter: "N", extra: ["peek": SideModule.view("A notification, peeking", size: 15)])
            _ = try await nook.control("Peek", [.string("reach"), .string("n2")])
            let peek = try await Self.settledTarget(nook, "peek:reach/n2")
            let close = try await Self.settledTarget(nook, "close:reach/n2")
            Self.saveScreenshot(try await nook.sway.screenshot(), "reach-peek")
            // Near the peek's bottom: the panel it opens into is shorter than the peek, so the
            // pointer, which does not move, ends up below the panel. That is not leaving: the
            // nook stays open until the pointer moves.
            let pointer = try await nook.pointer()
            try await pointer.move(to: Int(peek.midX), Int(peek.y + peek.height) - 3)
            try await Self.waitFor("hovering the peek opening reach/n2", nook) { $0.presentation == "expanded" && $0.activity == "n2" }
            let opened = try await nook.state().serial
            try await nook.waitUntilSettled(serial: opened)
            let afterHover = nook.rendererLog.components(separatedBy: "onto the peek reach/n2").last ?? ""
            #expect(!afterHover.contains("pointer exit"), "the panel opening under a still pointer closed it:\n\(nook.logs)")
            #expect(try await Self.showing(nook).presentation == "expanded")
            try await pointer.move(to: Self.away.x, Self.away.y)
            try await Self.waitFor("leaving closing it", nook) { $0.presentation == "pill" }

            _ = try await nook.control("Peek", [.string("reach"), .string("n2")])
            let again = try await Self.settledTarget(nook, "close:reach/n2")
            #expect(again.x == close.x && again.y == close.y, "the close control moved: \(close) then \(again)")
            try await pointer.move(to: Int(again.midX), Int(again.midY))
            try await pointer.click()
            try await Self.waitFor("the close control ending the peeking activity", nook) { !$0.activities.contains("reach/n2") }
            let heard = await eventually(timeout: .seconds(30), poll: .milliseconds(50)) { module.diagnostics.contains("activity-dismissed n2") }
            #expect(heard, "the module never heard activity-dismissed: \(module.diagnostics)")
        }
    }

    /// `nookctl focus` on layer shell: the renderer asks sway for the keyboard exclusively (its
    /// Wayland trace says so) and rings the pill. Keys cannot be typed here (this suite has no
    /// virtual keyboard for sway); they are checked on Xvfb, `KeyboardReachOnScreenTests`.
    @Test func focusAsksTheCompositorForTheKeyboard() async throws {
        try await SwayNook.with(slowMotion: 1) { nook in
            try await nook.showPill()
            #expect(!nook.rendererLog.contains("set_keyboard_interactivity(1)"), "the renderer held the keyboard before focus was asked")
            let ctl = try PackageProcess.executable("nookctl").path
            let run = try await Tools.run(ctl, ["--address", nook.bus.address, "focus"])
            #expect(run.status == 0, "nookctl focus: \(run.stderr)")
            let asked = await eventually(timeout: .seconds(60), poll: .milliseconds(50)) {
                nook.rendererLog.contains("set_keyboard_interactivity(1)")
            }
            #expect(asked, "the renderer never asked sway for the keyboard:\n\(nook.logs)")
            #expect(nook.rendererLog.contains("reach focus pill music/song"), "the focus did not go to the pill")
        }
    }

    /// The board has a tile for every module with a home or a widget (the music module's
    /// widget, a plain tile for `reach`, which has only a home), and clicking a tile opens its
    /// module.
    @Test func theBoardListsEveryModuleWithAHomeOrWidgetAndATileOpensIt() async throws {
        try await SwayNook.with(slowMotion: 1) { nook in
            try await nook.showPill()
            let module = try await SideModule.register(on: nook, home: true)
            defer { Task { await module.close() } }
            _ = try await nook.open(["onto": .string("board")])
            let music = try await Self.settledTarget(nook, "tile:music")
            let reach = try await Self.settledTarget(nook, "tile:reach")
            #expect(music.x != reach.x || music.y != reach.y, "two tiles at one place: \(music) \(reach)")
            Self.saveScreenshot(try await nook.sway.screenshot(), "reach-board")
            let pointer = try await nook.pointer()
            try await pointer.move(to: Int(reach.midX), Int(reach.midY))
            try await pointer.click()
            try await Self.waitFor("the reach tile opening its home", nook) {
                $0.presentation == "expanded" && $0.module == "reach" && $0.activity == ""
            }
        }
    }

    /// A board tile's whole cell is its hit area (issue 39): a click in the empty top-left
    /// corner of the `reach` tile's cell (the plan's `board_cells`, as the renderer logs it:
    /// `cell=reach@x,y,w,h`), away from the words the plain tile shows in its middle, opens
    /// the module by claim. Before the plan carried cells, the tile was only its widget and the
    /// click there did nothing.
    @Test func aClickInATilesEmptyCornerOpensItsModule() async throws {
        try await SwayNook.with(slowMotion: 1) { nook in
            try await nook.showPill()
            let module = try await SideModule.register(on: nook, home: true)
            defer { Task { await module.close() } }
            let serial = try await nook.open(["onto": .string("board")])
            let plan = try await nook.waitForPlan(serial: serial)
            let cellWord = try #require(plan.text.split(separator: " ").first { $0.hasPrefix("cell=reach@") },
                                        "the board's plan carries no cell for reach: \(plan.text)")
            let cell = try #require(LoggedRect(String(cellWord.dropFirst("cell=reach@".count))), "\(cellWord)")
            let tile = try await Self.settledTarget(nook, "tile:reach")
            #expect(abs(tile.x - cell.x) < 1 && abs(tile.y - cell.y) < 1 && abs(tile.width - cell.width) < 1 && abs(tile.height - cell.height) < 1,
                    "the reach tile \(tile) is not its cell \(cell)")
            Self.saveScreenshot(try await nook.sway.screenshot(), "reach-board-cell")
            let pointer = try await nook.pointer()
            try await pointer.move(to: Int(cell.x.rounded(.up)) + 4, Int(cell.y.rounded(.up)) + 4)
            try await pointer.click()
            try await Self.waitFor("a click in the reach tile's corner opening its home", nook) {
                $0.presentation == "expanded" && $0.module == "reach" && $0.activity == ""
            }
            #expect(nook.rendererLog.contains("open slot sent tile widget reach via=claim"), "the click was not sent as OpenSlot by claim:\n\(nook.logs)")
        }
    }
}
