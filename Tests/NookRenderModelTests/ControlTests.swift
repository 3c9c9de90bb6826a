import NookCore
@testable import NookRenderModel
import Testing

private typealias F = PlanFixture
private typealias C = ControlFixture

/// Controls (contract 1.1, "Touch") in the model: hit testing over the frame as drawn,
/// presses, keyboard focus, and the variants and ring they bring.
@Suite struct ControlTests {
    /// The music controls row: previous, play/pause, next, each an image button in a group.
    static func transport() -> ViewNode {
        F.vstack([
            F.text("Song title", size: 17),
            F.hstack([
                F.node(.hstack, [F.image("backward.fill")]) { $0.classes = "group"; $0.padding = EdgeInsets(all: 6) },
                F.node(.hstack, [F.node(.image) { $0.symbol = "pause.fill"; $0.classes = "group-pressed:opacity-50 group-focus:scale-110" }]) {
                    $0.classes = "group"; $0.padding = EdgeInsets(all: 6)
                },
                F.node(.hstack, [F.image("forward.fill")]) { $0.classes = "group"; $0.padding = EdgeInsets(all: 6) },
            ]) { $0.spacing = 12 },
        ])
    }

    static let transportMarks: [String: ControlFixture.Mark] = [
        "expanded/1/0": C.Mark(action: "previous", label: "Previous"),
        "expanded/1/1": C.Mark(action: "play_pause", label: "Pause"),
        "expanded/1/2": C.Mark(action: "next", label: "Next"),
    ]

    static func expandedTransport() throws -> (PlanPresenter, PlannerScene) {
        let scene = F.scene(.expanded, F.song(expanded: transport()))
        return (try C.presenter(showing: scene, transportMarks), scene)
    }

    static func rect(_ scene: PlannerScene, _ path: String) throws -> Rect {
        try #require(scene.slot(.expanded, owner: "music/song")?.rect(at: path))
    }

    static func centre(_ rect: Rect) -> Point { Point(x: rect.midX, y: rect.midY) }

    // MARK: Hit testing

    @Test func aPressMidTransitionLandsOnTheControlWhereItIsDrawnThen() throws {
        // The cover is a control in the pill and in the expanded view, and travels between them.
        let (pill, _, plan) = F.openSong()
        let marks = C.marks(["compact_leading": "toggle", "expanded/0": "toggle"])
        var presenter = PlanPresenter()
        try presenter.receive(C.wire(F.subscribe(pill), marks), at: 0)
        try presenter.receive(C.wire(plan, marks), at: 10)
        let element = try #require(plan.elements.first { $0.toPath == "expanded/0" }, "the cover does not travel")

        let mid = presenter.frame(at: 10 + plan.chrome.curve.totalDuration * 0.3, unixTime: 0)
        let moving = try #require(mid.shared(element.key).first, "the cover is not drawn in flight").rect
        #expect(F.isStrictlyBetween(moving, element.fromRect, element.toRect))
        // A point on the cover where it is drawn now, in neither end's rect.
        let point = try #require([Point(x: moving.minX + 1, y: moving.minY + 1), Point(x: moving.maxX - 1, y: moving.maxY - 1),
                                  Self.centre(moving)]
            .first { !element.fromRect.containsPoint($0) && !element.toRect.containsPoint($0) })
        let hit = try #require(mid.control(at: point), "no control under \(point) though the cover is drawn at \(moving)")
        #expect(hit.control.action == "toggle")
        #expect(hit.control.target == ControlTarget(serial: 2, node: ControlNode(slot: "expanded", owner: "music/song", path: "expanded/0")))
        #expect(hit.rect == moving)
        // Where the cover will land but is not drawn yet, nothing is hit.
        let destination = Self.centre(element.toRect)
        if !moving.containsPoint(destination) { #expect(mid.control(at: destination) == nil) }
    }

    @Test func theTopmostControlWinsWhereControlsOverlap() throws {
        // A row that opens the song, holding a button that pauses: the button is drawn on top.
        let row = F.hstack([F.text("Song title"), F.node(.hstack, [F.image("pause.fill")]) { $0.padding = EdgeInsets(all: 4) }])
        let scene = F.scene(.expanded, F.song(expanded: F.vstack([row])))
        let presenter = try C.presenter(showing: scene, C.marks(["expanded/0": "open_player", "expanded/0/1": "play_pause"]))
        let list = presenter.frame(at: 5, unixTime: 0)
        let button = try Self.rect(scene, "expanded/0/1")
        let title = try Self.rect(scene, "expanded/0/0")
        #expect(list.control(at: Self.centre(button))?.control.action == "play_pause")
        #expect(list.control(at: Self.centre(title))?.control.action == "open_player")
        #expect(list.controls.map(\.control.action) == ["open_player", "play_pause"])
    }

    @Test func controlsAtOpacityZeroSuppressedOrOutsideTheChromeAreNeverHit() throws {
        let view = F.vstack([
            F.node(.hstack, [F.image("eye.slash")]) { $0.opacity = 0 },
            F.node(.hstack, [F.image("star")]),
            F.node(.hstack, [F.image("bell")]),
        ])
        let scene = F.scene(.expanded, F.song(expanded: view))
        let marks: [String: C.Mark] = [
            "expanded/0": C.Mark(action: "invisible"), "expanded/1": C.Mark(action: "suppressed", extra: ["suppressed": .bool(true)]),
            "expanded/2": C.Mark(action: "bell"),
        ]
        let presenter = try C.presenter(showing: scene, marks)
        let list = presenter.frame(at: 5, unixTime: 0)
        #expect(list.control(at: Self.centre(try Self.rect(scene, "expanded/0"))) == nil)
        #expect(list.control(at: Self.centre(try Self.rect(scene, "expanded/1"))) == nil)
        #expect(list.control(at: Self.centre(try Self.rect(scene, "expanded/2")))?.control.action == "bell")
        #expect(presenter.controlsAtRest.map(\.action) == ["bell"])

        // Opening from the pill: the expanded content is clipped to the growing chrome, so a
        // control outside the chrome drawn at that instant cannot be pressed there yet.
        let pill = F.scene(.pill, F.song())
        let open = F.plan(pill, scene, cause: .open)
        var opening = PlanPresenter()
        try opening.receive(C.wire(F.subscribe(pill), marks), at: 0)
        try opening.receive(C.wire(open, marks), at: 10)
        let bell = Self.centre(try Self.rect(scene, "expanded/2"))
        // An instant when the chrome is on screen but has not reached the bell yet.
        let growing = stride(from: 10.0, to: 10 + open.chrome.curve.totalDuration, by: 0.002).map { opening.frame(at: $0, unixTime: 0) }
            .first { list in list.chrome.map { !$0.contains(bell) && $0.rect.height > 0 } == true }
        let early = try #require(growing, "the chrome never showed before reaching the bell")
        #expect(early.controls.contains { $0.control.action == "bell" }, "the bell is not drawn while the chrome grows")
        #expect(early.control(at: bell) == nil, "a control outside the chrome's outline was hit")
        #expect(opening.frame(at: 100, unixTime: 0).control(at: bell)?.control.action == "bell")
    }

    @Test func chromeOutlineExcludesItsRoundedBottomCorners() {
        let chrome = ChromeShape(rect: Rect(x: 100, y: 0, width: 200, height: 80), radius: 20)
        #expect(chrome.contains(Point(x: 101, y: 1)))  // the top corners are square
        #expect(!chrome.contains(Point(x: 101, y: 79)))
        #expect(chrome.contains(Point(x: 120, y: 79)))
        #expect(chrome.contains(Point(x: 106, y: 74)))
        #expect(!chrome.contains(Point(x: 301, y: 40)))
    }

    @Test func leavingContentNamesThePlanWhoseSceneItCameFrom() throws {
        // Closing: the expanded controls fade out with their slot and, while drawn, still name
        // the scene they came from (serial 1), which the broker resolves them in.
        let (_, expanded) = try Self.expandedTransport()
        let pill = F.scene(.pill, F.song())
        let close = F.plan(expanded, pill, cause: .close)
        var presenter = PlanPresenter()
        try presenter.receive(C.wire(F.subscribe(expanded), Self.transportMarks), at: 0)
        try presenter.receive(C.wire(close, [:]), at: 10)
        let next = Self.centre(try Self.rect(expanded, "expanded/1/2"))
        let early = presenter.frame(at: 10.005, unixTime: 0)
        let hit = try #require(early.control(at: next), "the leaving next button is not hit while still drawn")
        #expect(hit.control.target.serial == 1 && hit.control.action == "next")
        #expect(presenter.frame(at: 100, unixTime: 0).control(at: next) == nil)
    }

    // MARK: Presses

    @Test func releaseInsideActivatesTheHeldControlAndReleaseOutsideCancels() throws {
        let (presenter, scene) = try Self.expandedTransport()
        let list = presenter.frame(at: 5, unixTime: 0)
        let pause = Self.centre(try Self.rect(scene, "expanded/1/1"))
        let next = Self.centre(try Self.rect(scene, "expanded/1/2"))
        let pauseNode = ControlNode(slot: "expanded", owner: "music/song", path: "expanded/1/1")

        var presses = PressTracker()
        guard case .pressed(let held) = presses.press(at: pause, in: list) else { Issue.record("the press did not hold pause"); return }
        #expect(held.node == pauseNode)
        let released = presses.release(at: pause, in: list)
        #expect(released == .activate(ControlTarget(serial: 1, node: pauseNode), action: "play_pause"))
        #expect(presses.state == .idle)

        // Pressed on pause, released over next (another control): cancelled, nothing sent.
        _ = presses.press(at: pause, in: list)
        let overNext = presses.release(at: next, in: list)
        #expect(overNext == .cancelled(held))
        // Released outside the nook: cancelled.
        _ = presses.press(at: pause, in: list)
        let outside = presses.release(at: Point(x: 5, y: 900), in: list)
        #expect(outside == .cancelled(held))
        // A press off every control holds nothing, and its release is no activation.
        // A press given up without a release (the grab broke): cancelled once, then nothing held.
        _ = presses.press(at: pause, in: list)
        let givenUp = presses.cancel()
        let again = presses.cancel()
        #expect(givenUp == .cancelled(held) && again == PressTracker.Action.none)
        let offControls = presses.press(at: Point(x: 5, y: 900), in: list)
        let afterOff = presses.release(at: pause, in: list)
        #expect(offControls == PressTracker.Action.none && afterOff == PressTracker.Action.none)
    }

    @Test func releaseAfterANewPlanActivatesWhatIsDrawnThenWithItsSerial() throws {
        let (expandedPresenter, scene) = try Self.expandedTransport()
        var presenter = expandedPresenter
        let pause = Self.centre(try Self.rect(scene, "expanded/1/1"))
        var presses = PressTracker()
        _ = presses.press(at: pause, in: presenter.frame(at: 5, unixTime: 0))
        // The same scene again (an update that changed nothing on this row) arrives mid-press.
        try presenter.receive(C.wire(F.plan(scene, scene, cause: .activityUpdated, serial: 7), Self.transportMarks), at: 6)
        let action = presses.release(at: pause, in: presenter.frame(at: 20, unixTime: 0))
        #expect(action == .activate(ControlTarget(serial: 7, node: ControlNode(slot: "expanded", owner: "music/song", path: "expanded/1/1")),
                                    action: "play_pause"))
    }

    /// Issue 44, part 5 (seed 001: buttons publish their press state): a group shows
    /// `group-pressed` only while a press holds a control in it. A press on an empty part of
    /// the group, which `PressTracker` finds no control under, presses nothing; a press on the
    /// group's button presses the group, as the renderer passes it on (`pressedControl`).
    @Test func rule23_groupPressedComesFromAPressOnAControlOnly() throws {
        let row = F.node(.hstack, [
            F.node(.text) { $0.text = "Play"; $0.classes = "group-pressed:opacity-50" },
            F.node(.shape) { $0.classes = "w-20 h-10" },
            F.image("play.fill"),
        ]) { $0.classes = "group"; $0.spacing = 8 }
        let scene = F.scene(.expanded, F.song(expanded: F.vstack([row])))
        let presenter = try C.presenter(showing: scene, C.marks(["expanded/0/2": "play"]))
        let empty = Self.centre(try Self.rect(scene, "expanded/0/1"))
        let button = Self.centre(try Self.rect(scene, "expanded/0/2"))
        func labelOpacity(pressingAt point: Point) -> Double? {
            var presses = PressTracker()
            _ = presses.press(at: point, in: presenter.frame(at: 5, unixTime: 0))
            let pointer = PointerState(location: point, isPressed: true, pressedControl: presses.held?.node)
            return presenter.frame(at: 5, unixTime: 0, pointer: pointer).item(at: "expanded/0/0")?.opacity
        }
        #expect(labelOpacity(pressingAt: empty) == 1, "a press on an empty part of the group pressed it")
        #expect(labelOpacity(pressingAt: button) == 0.5, "a press on the group's button did not press the group")
    }

    @Test func pressedVariantsApplyWhileHeldOverTheControl() throws {
        let (presenter, scene) = try Self.expandedTransport()
        let button = try Self.rect(scene, "expanded/1/1")
        let inside = Point(x: button.minX + 1, y: button.minY + 1)
        func iconOpacity(_ pointer: PointerState) -> Double? {
            presenter.frame(at: 5, unixTime: 0, pointer: pointer).item(at: "expanded/1/1/0")?.opacity
        }
        #expect(iconOpacity(PointerState(location: inside)) == 1)
        let held = ControlNode(slot: "expanded", owner: "music/song", path: "expanded/1/1")
        #expect(iconOpacity(PointerState(location: inside, isPressed: true, pressedControl: held)) == 0.5)
        // Held, but dragged off the control: drawn plainly again (a release there cancels).
        #expect(iconOpacity(PointerState(location: Point(x: button.maxX + 40, y: button.midY), isPressed: true, pressedControl: held)) == 1)
    }

    // MARK: Keyboard

    @Test func tabCyclesControlsInReadingOrderAndEnterActivatesTheFocusedOne() throws {
        let (presenter, _) = try Self.expandedTransport()
        let controls = presenter.controlsAtRest
        #expect(controls.map(\.action) == ["previous", "play_pause", "next"])
        #expect(controls.map(\.label) == ["Previous", "Pause", "Next"])
        var focus = KeyboardFocus()
        let early = focus.handle(.activate, controls: controls, presentation: .expanded)
        #expect(early == KeyboardFocus.Action.none)
        var visited: [String] = []
        for _ in 0..<4 {
            guard case .focused(let control) = focus.handle(.next, controls: controls, presentation: .expanded) else {
                Issue.record("Tab focused nothing"); return
            }
            visited.append(control.action)
        }
        #expect(visited == ["previous", "play_pause", "next", "previous"])
        _ = focus.handle(.previous, controls: controls, presentation: .expanded)
        _ = focus.handle(.previous, controls: controls, presentation: .expanded)
        #expect(focus.focused?.path == "expanded/1/1")
        let activation = focus.handle(.activate, controls: controls, presentation: .expanded)
        #expect(activation == .activate(ControlTarget(serial: 1, node: ControlNode(slot: "expanded", owner: "music/song", path: "expanded/1/1")),
                         action: "play_pause"))
        let close = focus.handle(.close, controls: controls, presentation: .expanded)
        #expect(close == .close)
        #expect(focus.focused == nil)
        // Shift+Tab from nothing starts at the end.
        let last = focus.handle(.previous, controls: controls, presentation: .expanded)
        #expect(last == .focused(controls[2]))
    }

    @Test func keysDoNothingUnlessTheNookIsExpanded() throws {
        let (presenter, _) = try Self.expandedTransport()
        var focus = KeyboardFocus()
        _ = focus.handle(.next, controls: presenter.controlsAtRest, presentation: .expanded)
        #expect(focus.focused != nil)
        for key in [KeyboardFocus.Key.next, .previous, .activate, .close] {
            let action = focus.handle(key, controls: presenter.controlsAtRest, presentation: .pill)
            #expect(action == KeyboardFocus.Action.none)
        }
        #expect(focus.focused == nil)
    }

    @Test func focusIsDroppedWhenItsControlLeavesTheScene() throws {
        let (expandedPresenter, scene) = try Self.expandedTransport()
        var presenter = expandedPresenter
        var focus = KeyboardFocus()
        _ = focus.handle(.next, controls: presenter.controlsAtRest, presentation: .expanded)
        let unchanged = focus.refresh(controls: presenter.controlsAtRest, presentation: .expanded)
        #expect(!unchanged)
        let plain = F.scene(.expanded, F.song(expanded: F.vstack([F.text("Song title", size: 17)])))
        try presenter.receive(C.wire(F.plan(scene, plain, cause: .activityUpdated), [:]), at: 6)
        let dropped = focus.refresh(controls: presenter.controlsAtRest, presentation: .expanded)
        #expect(dropped)
        #expect(focus.focused == nil)
    }

    @Test func theFocusedControlGetsItsFocusVariantsAndARingAroundIt() throws {
        let (presenter, scene) = try Self.expandedTransport()
        let button = try Self.rect(scene, "expanded/1/1")
        let icon = try Self.rect(scene, "expanded/1/1/0")
        let node = ControlNode(slot: "expanded", owner: "music/song", path: "expanded/1/1")
        let plain = presenter.frame(at: 5, unixTime: 0)
        #expect(plain.focusRing == nil)
        #expect(plain.item(at: "expanded/1/1/0")?.rect == icon)

        let focused = presenter.frame(at: 5, unixTime: 0, focus: node)
        let ring = try #require(focused.focusRing)
        #expect(ring.control == node)
        #expect(ring.rect == Rect(x: button.x - 2, y: button.y - 2, width: button.width + 4, height: button.height + 4))
        #expect(ring.clip != nil)
        // group-focus:scale-110 on the icon.
        let scaled = try #require(focused.item(at: "expanded/1/1/0")).rect
        #expect(F.isClose(scaled, Rect(x: icon.midX - icon.width * 0.55, y: icon.midY - icon.height * 0.55,
                                       width: icon.width * 1.1, height: icon.height * 1.1)))
        // Focus on another control leaves this one plain.
        let other = presenter.frame(at: 5, unixTime: 0, focus: ControlNode(slot: "expanded", owner: "music/song", path: "expanded/1/2"))
        #expect(other.item(at: "expanded/1/1/0")?.rect == icon)
    }

    // MARK: Labels and the wire

    @Test func theAccessibleLabelIsActionLabelElseTheTextInsideElseTheAction() throws {
        let view = F.vstack([
            F.node(.hstack, [F.image("pause.fill")]),
            F.node(.hstack, [F.image("heart"), F.text("Love"), F.text("it")]),
            F.node(.hstack, [F.image("forward.fill")]),
        ])
        let scene = F.scene(.expanded, F.song(expanded: view))
        let presenter = try C.presenter(showing: scene, [
            "expanded/0": C.Mark(action: "play_pause", label: "Pause"), "expanded/1": C.Mark(action: "love"),
            "expanded/2": C.Mark(action: "next"),
        ])
        #expect(presenter.controlsAtRest.map(\.label) == ["Pause", "Love it", "next"])
    }

    @Test func activateArgumentCarriesSerialSlotOwnerAndPath() throws {
        let target = ControlTarget(serial: 42, node: ControlNode(slot: "expanded", owner: "music/song", path: "expanded/1/1"))
        #expect(target.activateArgument == [
            "serial": .uint(42), "slot": .string("expanded"), "owner": .string("music/song"), "path": .string("expanded/1/1"),
        ])
    }

    @Test func actionPropsAreKnownSoTheyRaiseNoWarning() throws {
        let (presenter, _) = try Self.expandedTransport()
        #expect(!presenter.warnings.contains { $0.contains("action") }, "\(presenter.warnings)")
    }
}
