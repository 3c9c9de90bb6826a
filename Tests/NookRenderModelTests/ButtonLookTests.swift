import NookCore
@testable import NookRenderModel
import Testing

private typealias F = PlanFixture
private typealias C = ControlFixture

/// The button look (`role: button`, an addition): the renderer draws a rounded plate behind a
/// labelled button, lighter under the pointer and lighter still pressed; an icon-only button
/// gets its plate on hover and press only; a control without the role stays as its module
/// drew it.
@Suite struct ButtonLookTests {
    /// A title, then a row: a labelled button "Yes", an icon button (close), and a plain
    /// tappable text (a control without the role).
    static func row() -> ViewNode {
        F.vstack([
            F.text("Update ready", size: 15),
            F.hstack([
                F.node(.hstack, [F.text("Yes", size: 13)]) { $0.padding = EdgeInsets(top: 5, leading: 12, bottom: 5, trailing: 12) },
                F.node(.hstack, [F.image("xmark")]) { $0.padding = EdgeInsets(all: 2) },
                F.text("Details", size: 13),
            ]) { $0.spacing = 12 },
        ])
    }

    static let role: [String: PropValue] = ["role": .string("button")]
    static let marks: [String: ControlFixture.Mark] = [
        "expanded/1/0": ControlFixture.Mark(action: "yes", label: nil, extra: role),
        "expanded/1/1": ControlFixture.Mark(action: "close", label: "Close", extra: role),
        "expanded/1/2": ControlFixture.Mark(action: "details", label: nil),
    ]

    static func presenter() throws -> (PlanPresenter, PlannerScene) {
        let scene = F.scene(.expanded, F.song(expanded: row()))
        return (try C.presenter(showing: scene, marks), scene)
    }

    static func rect(_ scene: PlannerScene, _ path: String) throws -> Rect {
        try #require(scene.slot(.expanded, owner: "music/song")?.rect(at: path))
    }

    static func plate(_ list: DisplayList, _ path: String) -> DrawItem? {
        list.items.first { $0.path.hasPrefix(path + "#button-") }
    }

    static func alpha(_ item: DrawItem?) -> Double? {
        guard let item, case .shape(_, let fill, _) = item.content else { return nil }
        return fill.alpha
    }

    @Test func aLabelledButtonHasAPlateThatLightensUnderThePointerAndWhenPressed() throws {
        let (presenter, scene) = try Self.presenter()
        let yes = try Self.rect(scene, "expanded/1/0")
        let inside = Point(x: yes.minX + 2, y: yes.midY)
        let rest = presenter.frame(at: 5, unixTime: 0, pointer: PointerState())
        let hover = presenter.frame(at: 5, unixTime: 0, pointer: PointerState(location: inside))
        let held = ControlNode(slot: "expanded", owner: "music/song", path: "expanded/1/0")
        let pressed = presenter.frame(at: 5, unixTime: 0, pointer: PointerState(location: inside, isPressed: true, pressedControl: held))
        // A press that began elsewhere and came over the button does not press it.
        let dragged = presenter.frame(at: 5, unixTime: 0, pointer: PointerState(location: inside, isPressed: true))
        #expect(Self.plate(dragged, "expanded/1/0")?.path == "expanded/1/0#button-hover")
        #expect(Self.plate(rest, "expanded/1/0")?.path == "expanded/1/0#button-rest")
        #expect(Self.plate(rest, "expanded/1/0")?.rect == yes, "the plate fills the button's own rect (its padding)")
        #expect(Self.plate(hover, "expanded/1/0")?.path == "expanded/1/0#button-hover")
        #expect(Self.plate(pressed, "expanded/1/0")?.path == "expanded/1/0#button-pressed")
        let alphas = [rest, hover, pressed].compactMap { Self.alpha(Self.plate($0, "expanded/1/0")) }
        #expect(alphas == [ButtonLook.labelledAlpha(.rest), ButtonLook.labelledAlpha(.hover), ButtonLook.labelledAlpha(.pressed)])
        #expect(alphas == alphas.sorted() && Set(alphas).count == 3, "each state lighter than the one before: \(alphas)")
        // Under the label: the plate is painted first.
        let plateIndex = try #require(rest.items.firstIndex { $0.path == "expanded/1/0#button-rest" })
        let labelIndex = try #require(rest.items.firstIndex { $0.path == "expanded/1/0/0" })
        #expect(plateIndex < labelIndex)
        if case .shape(_, _, let radius)? = Self.plate(rest, "expanded/1/0")?.content {
            #expect(radius > 0, "the plate is rounded")
        }
    }

    @Test func anIconButtonHasAPlateOnlyUnderThePointer() throws {
        let (presenter, scene) = try Self.presenter()
        let close = try Self.rect(scene, "expanded/1/1")
        let rest = presenter.frame(at: 5, unixTime: 0, pointer: PointerState())
        #expect(Self.plate(rest, "expanded/1/1") == nil)
        let hover = presenter.frame(at: 5, unixTime: 0, pointer: PointerState(location: Point(x: close.midX, y: close.midY)))
        let plate = try #require(Self.plate(hover, "expanded/1/1"))
        #expect(plate.path == "expanded/1/1#button-hover")
        #expect(plate.rect.width == close.width + 2 * ButtonLook.iconOutset)
    }

    @Test func aControlWithoutTheButtonRoleGetsNoPlate() throws {
        let (presenter, scene) = try Self.presenter()
        let details = try Self.rect(scene, "expanded/1/2")
        let hover = presenter.frame(at: 5, unixTime: 0, pointer: PointerState(location: Point(x: details.midX, y: details.midY)))
        #expect(!hover.items.contains { $0.path.hasPrefix("expanded/1/2#button") })
    }

    @Test func theFocusRingFollowsTheButtonsPlate() throws {
        let (presenter, scene) = try Self.presenter()
        let yes = try Self.rect(scene, "expanded/1/0")
        let focus = ControlNode(slot: "expanded", owner: "music/song", path: "expanded/1/0")
        let list = presenter.frame(at: 5, unixTime: 0, pointer: PointerState(), focus: focus)
        let ring = try #require(list.focusRing)
        #expect(ring.rect.width == yes.width + 2 * FocusRing.outset)
        #expect(ring.cornerRadius == min(yes.height / 2, 10) + FocusRing.outset)
    }

    /// Enter or Space on a focused control shows the same pressed look a pointer press does,
    /// for as long as the shell holds it (`ButtonLook.keyboardPressMilliseconds`), wherever the
    /// pointer is; only that control is pressed.
    @Test func aControlActivatedFromTheKeyboardLooksPressed() throws {
        let (presenter, _) = try Self.presenter()
        let yes = ControlNode(slot: "expanded", owner: "music/song", path: "expanded/1/0")
        let close = ControlNode(slot: "expanded", owner: "music/song", path: "expanded/1/1")
        let pressedYes = presenter.frame(at: 5, unixTime: 0, pointer: PointerState(keyboardPressed: yes), focus: yes)
        #expect(Self.plate(pressedYes, "expanded/1/0")?.path == "expanded/1/0#button-pressed")
        #expect(Self.alpha(Self.plate(pressedYes, "expanded/1/0")) == ButtonLook.labelledAlpha(.pressed))
        #expect(Self.plate(pressedYes, "expanded/1/1") == nil, "the icon button was not pressed")
        let pressedClose = presenter.frame(at: 5, unixTime: 0, pointer: PointerState(keyboardPressed: close), focus: close)
        #expect(Self.plate(pressedClose, "expanded/1/1")?.path == "expanded/1/1#button-pressed")
        #expect(Self.plate(pressedClose, "expanded/1/0")?.path == "expanded/1/0#button-rest")
        // Released: back to rest (the focus ring stays).
        let released = presenter.frame(at: 5, unixTime: 0, pointer: PointerState(), focus: yes)
        #expect(Self.plate(released, "expanded/1/0")?.path == "expanded/1/0#button-rest")
        #expect(ButtonLook.keyboardPressMilliseconds > 0 && ButtonLook.keyboardPressMilliseconds <= 300)
    }
}
