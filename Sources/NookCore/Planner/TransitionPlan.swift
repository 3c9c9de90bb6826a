/// A transition plan: everything a renderer needs to animate from one scene to the next,
/// as data (CONTRACT, "The plan `a{sv}`").
///
/// Plans are values: the same scenes, action and settings always give an equal plan, so they
/// can be previewed, golden-tested and replayed. `wireDictionary` gives the contract's keys,
/// `rendering` a stable text form for golden files.
///
/// The planner's plan is `TransitionPlan` (its scene a `PlannerScene`); a plan read back from
/// the wire is `ReceivedPlan` (its scene the `WireScene` the wire carries). Everything but the
/// scene is the same value either way, so a renderer reads the planner's own types.
public typealias TransitionPlan = Plan<PlannerScene>

/// A plan with its destination scene as `Scene`; see `TransitionPlan`.
public struct Plan<Scene: Hashable & Sendable>: Hashable, Sendable {
    /// Increases by one per plan (given by the caller, see `PlanAction.serial`).
    public var serial: UInt64
    /// The serial of the in-flight plan this one replaces, or 0 (rule 21).
    public var interrupts: UInt64
    public var cause: PlanCause
    /// Every distinct cause coalesced into this plan, oldest first, ending with `cause`; empty
    /// when `cause` is the only one. On the wire as `causes` (an addition), only when set.
    public var causes: [PlanCause] = []
    public var from: Presentation
    public var to: Presentation
    /// `activity:<module>/<activity>`, `home:<module>`, `board` or `""`.
    public var fromContent: String
    public var toContent: String
    public var conversion: Conversion
    /// Rule 19: a rebuilt window, where elements simply arrive with their slots.
    public var freshWindow: Bool
    /// Rule 18: nothing moves.
    public var reduceMotion: Bool
    public var chrome: ChromePlan
    /// One per moving shared element.
    public var elements: [ElementMove]
    /// Content transitions only (rule 17).
    public var layout: [LayoutChange]
    public var slots: [SlotChange]
    /// Rows of appearing expanded content that wait (rule 11); an addition to the contract.
    public var reveals: [RowReveal]
    /// Why elements did or did not move, and what the modules should know.
    public var diagnostics: [Diagnostic]
    /// The destination, laid out.
    public var scene: Scene
    /// The font family the scene's text was measured in (theme token `font.family`); the
    /// renderer draws text in it, so the text fits the rects laid out for it.
    public var fontFamily = Theme.defaultFontFamily
    /// Owners (`<module>/<activity>`) of activities in the scene a person may not end by hand
    /// (their module set `dismissible` false): renderers draw no close control on them and
    /// take no dismiss gesture. On the wire as `undismissible` (an addition), only when set.
    public var undismissible: [String] = []
    /// Each board tile's cell, in board order: the grid cell `SceneGeometry` laid the tile's
    /// widget out in, which is larger than the widget it holds. A renderer takes the whole
    /// cell as the tile's hit area, so a click on a tile's empty corner opens its module. On
    /// the wire as `board_cells` (an addition), only on plans whose scene is the board.
    public var boardCells: [BoardCell] = []

    public init(
        serial: UInt64, interrupts: UInt64 = 0, cause: PlanCause, from: Presentation, to: Presentation,
        fromContent: String = "", toContent: String = "", conversion: Conversion = .direct, freshWindow: Bool = false,
        reduceMotion: Bool = false, chrome: ChromePlan, elements: [ElementMove] = [], layout: [LayoutChange] = [],
        slots: [SlotChange] = [], reveals: [RowReveal] = [], diagnostics: [Diagnostic] = [], scene: Scene
    ) {
        self.serial = serial
        self.interrupts = interrupts
        self.cause = cause
        self.from = from
        self.to = to
        self.fromContent = fromContent
        self.toContent = toContent
        self.conversion = conversion
        self.freshWindow = freshWindow
        self.reduceMotion = reduceMotion
        self.chrome = chrome
        self.elements = elements
        self.layout = layout
        self.slots = slots
        self.reveals = reveals
        self.diagnostics = diagnostics
        self.scene = scene
    }

    /// Seconds until everything in the plan has come to rest: the longest curve, delays included.
    public var duration: Double {
        var longest = chrome.curve.totalDuration
        for element in elements { longest = max(longest, element.curve.totalDuration) }
        for change in layout { longest = max(longest, change.curve.totalDuration) }
        for slot in slots { longest = max(longest, slot.curve.totalDuration) }
        for reveal in reveals { longest = max(longest, reveal.curve.totalDuration) }
        return longest
    }

    /// The element that moves from `fromPath` (or to `toPath`), when there is one.
    public func element(from fromPath: String) -> ElementMove? { elements.first { $0.fromPath == fromPath } }
    public func element(to toPath: String) -> ElementMove? { elements.first { $0.toPath == toPath } }
    /// Diagnostics with this code.
    public func diagnostics(_ code: DiagnosticCode) -> [Diagnostic] { diagnostics.filter { $0.code == code } }

    /// The same plan with `scene` in another form (the wire's, a renderer's).
    public func withScene<Other>(_ scene: Other) -> Plan<Other> {
        var out = Plan<Other>(
            serial: serial, interrupts: interrupts, cause: cause, from: from, to: to, fromContent: fromContent,
            toContent: toContent, conversion: conversion, freshWindow: freshWindow, reduceMotion: reduceMotion, chrome: chrome,
            elements: elements, layout: layout, slots: slots, reveals: reveals, diagnostics: diagnostics, scene: scene)
        out.causes = causes
        out.fontFamily = fontFamily
        out.undismissible = undismissible
        out.boardCells = boardCells
        return out
    }
}

/// One tile's cell on the board (`Plan.boardCells`, wire `board_cells`): the module it belongs
/// to and the cell's rect in display points.
public struct BoardCell: Hashable, Sendable {
    /// The module (`owner` of its `widget` slot).
    public var owner: String
    public var rect: Rect
}

/// The chrome's move: its outline from one shape to the other on one curve.
public struct ChromePlan: Hashable, Sendable {
    public var fromRect: Rect
    public var toRect: Rect
    public var fromRadius: Double
    public var toRadius: Double
    public var curve: Curve
    /// Points per second of each rect component when the plan interrupts another (rule 21).
    public var velocity: RectVelocity?
    /// Seconds spent at `hidden` when `conversion` is `via_hidden` (rule 13), else nil.
    public var hideDip: Double?
    /// Rule 18 (Reduce Motion): the outline does not interpolate; the from-shape fades out and
    /// the to-shape fades in on `curve` (the slots' fade). An addition to the contract.
    public var crossFade: Bool

    public init(
        fromRect: Rect, toRect: Rect, fromRadius: Double, toRadius: Double, curve: Curve, velocity: RectVelocity? = nil,
        hideDip: Double? = nil, crossFade: Bool = false
    ) {
        self.fromRect = fromRect
        self.toRect = toRect
        self.fromRadius = fromRadius
        self.toRadius = toRadius
        self.curve = curve
        self.velocity = velocity
        self.hideDip = hideDip
        self.crossFade = crossFade
    }
}

/// How fast a rect changes: points per second for x, y, width and height (wire `(dddd)`).
public struct RectVelocity: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public static let zero = RectVelocity(x: 0, y: 0, width: 0, height: 0)
}

/// One shared element moving from its node in the previous scene to its node in this one.
public struct ElementMove: Hashable, Sendable {
    public var fromPath: String
    public var toPath: String
    /// `<module>/<id>` after suffixing (rule 8), or the group / caller namespace key.
    public var key: String
    public var namespace: NamespaceKind
    public var module: String
    /// The destination's activity, or "" for a module-level view.
    public var activity: String
    /// The destination's id as written.
    public var id: String
    public var fromSlot: SlotName
    public var toSlot: SlotName
    public var fromRect: Rect
    public var toRect: Rect
    public var style: SharedStyle = .resize
    /// Different views under one key: the two cross-fade inside the moving frame (rule 6).
    public var crossFade: Bool = false
    /// The copy that stays on screen in the pill is hidden while this one is away (rule 10).
    public var hideSource: Bool = false
    public var clip: ElementClip = .chrome
    public var properties: SharedProperties = .frame
    public var anchor: SharedAnchor = .center
    public var curve: Curve
    /// Set when the element was already moving (rule 21).
    public var velocity: RectVelocity?
}

/// A node of a slot that stays on screen, changing inside an animation scope (rule 17).
/// Equal changes have equal paths, kinds, rects and curves (`nodes` is the planner's, not
/// part of the value).
public struct LayoutChange: Hashable, Sendable {
    /// The node's path. The planner's changes keep their node's place in its layout and write
    /// the path only when it is read (at the wire, mostly): a 10,000-node update builds that
    /// many changes, and a string each cost about a tenth of its plan.
    public var path: String {
        get {
            switch origin {
            case .written(let path): path
            case .node(let paths, let index): paths.layout.path(atIndex: index)
            }
        }
        set { origin = .written(newValue) }
    }
    public var change: LayoutChangeKind
    public var fromRect: Rect
    public var toRect: Rect
    public var curve: Curve
    /// Where `path` is in the slot's previous and new layout, as the planner found it, so
    /// planning compares positions rather than paths.
    var nodes: NodePair = .unknown
    private var origin: PathOrigin

    public init(path: String, change: LayoutChangeKind, fromRect: Rect, toRect: Rect, curve: Curve) {
        origin = .written(path)
        self.change = change
        self.fromRect = fromRect
        self.toRect = toRect
        self.curve = curve
    }

    init(path: String, nodes: NodePair, change: LayoutChangeKind, fromRect: Rect, toRect: Rect, curve: Curve) {
        self.init(path: path, change: change, fromRect: fromRect, toRect: toRect, curve: curve)
        self.nodes = nodes
    }

    /// A change at the node at preorder `index` of `paths`' layout, its path written when read.
    init(node index: Int, of paths: LayoutPaths, nodes: NodePair, change: LayoutChangeKind, fromRect: Rect, toRect: Rect,
         curve: Curve) {
        origin = .node(paths, index)
        self.nodes = nodes
        self.change = change
        self.fromRect = fromRect
        self.toRect = toRect
        self.curve = curve
    }

    public static func == (a: LayoutChange, b: LayoutChange) -> Bool {
        a.path == b.path && a.change == b.change && a.fromRect == b.fromRect && a.toRect == b.toRect && a.curve == b.curve
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(path)
        hasher.combine(change)
        hasher.combine(fromRect)
        hasher.combine(toRect)
        hasher.combine(curve)
    }
}

/// Where a layout change's path comes from: written out (a decoded plan, a change made by
/// hand) or a node of a slot's layout.
private enum PathOrigin: Sendable {
    case written(String)
    case node(LayoutPaths, Int)
}

/// One slot's layout, shared by the layout changes that name its nodes (one reference each,
/// rather than the layout's own arrays).
final class LayoutPaths: Sendable {
    let layout: LayoutResult

    init(_ layout: LayoutResult) { self.layout = layout }
}

/// The preorder indices of one path's node in a slot's previous and new layout; -1 where that
/// side has no node there (or, in `unknown`, where nobody looked).
struct NodePair: Hashable, Sendable {
    var old: Int
    var new: Int

    static let unknown = NodePair(old: -1, new: -1)
}

/// What one slot does across the plan.
public struct SlotChange: Hashable, Sendable {
    public var slot: SlotName
    /// `<module>` or `<module>/<activity>`.
    public var owner: String
    public var change: SlotChangeKind
    /// Seconds before its curve starts (the same as `curve.delay`).
    public var delay: Double = 0
    public var curve: Curve

    /// The slot's root path in the scene (`expanded`, `timer/tea:minimal`).
    public var rootPath: String { slot.rootPath(owner: owner) }
}

/// A row of appearing expanded content that fades in late: a child of a `stagger` stack or a
/// `header` node (rule 11). An addition to the contract (`reveals`).
public struct RowReveal: Hashable, Sendable {
    public var path: String
    /// Seconds after the plan starts (the same as `curve.delay`).
    public var delay: Double
    /// Its fade, delay included.
    public var curve: Curve
}
