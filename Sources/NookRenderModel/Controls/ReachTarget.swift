import NookCore

/// Something on screen a person reaches with the pointer besides controls (every activity in
/// reach, an addition): the pill (its slots), a peek, a capsule, a board tile, and the close
/// control the renderer draws beside a peek or an expanded activity. Hovering the pill, a
/// peek or a capsule opens by hover onto what it shows (`Render.OpenSlot` via `hover`); a
/// click opens it by claim (via `claim`); a click on the close control, or a middle click on
/// the pill, a peek, a capsule or an expanded activity, ends that activity
/// (`Control.EndActivity`, as `nookctl end` does), unless the plan lists it `undismissible`.
public struct ReachTarget: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable {
        /// The pill's compact slots (the chrome while it is a pill, and the band of a peek).
        case pill
        /// A peek's own view.
        case peek
        /// A capsule beside the pill.
        case capsule
        /// A module's tile on the board.
        case tile
        /// The whole expanded panel (middle click ends what it shows).
        case panel
        /// The renderer's close control beside a peek or an expanded activity.
        case close
    }

    public var kind: Kind
    /// The scene slot `OpenSlot` names (`compact_leading`, `peek`, `minimal`, `widget`,
    /// `expanded`).
    public var slot: String
    /// `<module>/<activity>` or `<module>`, as the scene says.
    public var owner: String
    /// The plan whose scene holds the slot.
    public var serial: UInt64
    /// Where it is drawn at this instant.
    public var rect: Rect
    /// False when the plan lists the owner `undismissible`, or the owner is a module (no
    /// activity): no close control, no dismiss gesture.
    public var dismissible: Bool

    /// The owner as (module, activity); activity nil for a module-level slot.
    public var activity: (module: String, activity: String)? {
        guard let slash = owner.firstIndex(of: "/") else { return nil }
        return (String(owner[..<slash]), String(owner[owner.index(after: slash)...]))
    }

    /// Hovering it opens by hover onto what it shows.
    public var opensOnHover: Bool { kind == .pill || kind == .peek || kind == .capsule }

    /// `Render.OpenSlot`'s `a{sv}` argument.
    public func openSlotArgument(via: OpenVia) -> [String: PropValue] {
        ["serial": .uint(serial), "slot": .string(slot), "owner": .string(owner), "via": .string(via.rawValue)]
    }

    func contains(_ point: Point) -> Bool {
        point.x >= rect.minX && point.x <= rect.maxX && point.y >= rect.minY && point.y <= rect.maxY
    }

    /// The close control's size and its gap to the chrome, in points.
    public static let closeSize = 26.0
    public static let closeGap = 8.0
}

extension DisplayList {
    /// The reach target at `point`: the topmost (last listed) whose rect holds it.
    public func target(at point: Point) -> ReachTarget? {
        targets.last { $0.contains(point) }
    }

    /// Every rect that takes the pointer: the chrome (and a dissolving one) and the targets.
    public var pointerRects: [Rect] {
        var rects = chromeLayers.map(\.rect)
        rects += targets.map(\.rect)
        return rects
    }
}

/// The keyboard among reach targets, as a value (`nookctl focus`, an addition): while the
/// renderer holds the keyboard for it, Tab or an arrow key moves the focus through the pill,
/// a peek and the capsules (the board's tiles on the board), left to right, wrapping; Enter
/// or Space opens the focused one by claim; Delete or BackSpace ends its activity; Escape
/// gives the keyboard back. In an expanded activity or home the scene's controls take the
/// keys instead (`KeyboardFocus`), and Escape closes back to the pill, focus on it.
public struct ReachFocus: Hashable, Sendable {
    public enum Key: Hashable, Sendable {
        case next, previous, activate, dismiss, close
    }

    public enum Action: Hashable, Sendable {
        /// The key means nothing now.
        case none
        /// The focus moved to this target (redraw).
        case focused(ReachTarget)
        /// `Render.OpenSlot` by claim onto this target.
        case open(ReachTarget)
        /// `Control.EndActivity` for this target's activity.
        case dismiss(ReachTarget)
        /// Give the keyboard back.
        case release
    }

    /// A target as it stays the same from frame to frame.
    public struct Identity: Hashable, Sendable {
        public var kind: ReachTarget.Kind
        public var owner: String
    }

    public private(set) var focused: Identity?

    public init() {}

    /// The targets Tab moves through, left to right.
    public static func cycle(_ targets: [ReachTarget]) -> [ReachTarget] {
        targets.filter { [.pill, .peek, .capsule, .tile].contains($0.kind) }
            .sorted { ($0.rect.minX, $0.rect.minY) < ($1.rect.minX, $1.rect.minY) }
    }

    /// Puts the focus on the pill (else the first target), as the keyboard arrives.
    public mutating func start(targets: [ReachTarget]) -> Action {
        let cycle = Self.cycle(targets)
        guard let first = cycle.first(where: { $0.kind == .pill }) ?? cycle.first else {
            focused = nil
            return .none
        }
        focused = Identity(kind: first.kind, owner: first.owner)
        return .focused(first)
    }

    public mutating func handle(_ key: Key, targets: [ReachTarget]) -> Action {
        let cycle = Self.cycle(targets)
        let current = focused.flatMap { identity in cycle.firstIndex { $0.kind == identity.kind && $0.owner == identity.owner } }
        switch key {
        case .next, .previous:
            guard !cycle.isEmpty else { return .none }
            let index = cycle.ringIndex(from: current, forward: key == .next)
            focused = Identity(kind: cycle[index].kind, owner: cycle[index].owner)
            return .focused(cycle[index])
        case .activate:
            return current.map { .open(cycle[$0]) } ?? .none
        case .dismiss:
            guard let at = current, cycle[at].dismissible else { return .none }
            return .dismiss(cycle[at])
        case .close:
            focused = nil
            return .release
        }
    }

    /// The focused target's ring in `list`, if it is drawn there.
    public func ring(in list: DisplayList) -> FocusRing? {
        guard let focused, let target = list.targets.last(where: { $0.kind == focused.kind && $0.owner == focused.owner }) else { return nil }
        let radius = target.kind == .capsule ? target.rect.height / 2 : min(16, target.rect.height / 2)
        return FocusRing(around: target.rect, cornerRadius: radius, clip: nil,
                         control: ControlNode(slot: target.slot, owner: target.owner, path: "reach:" + target.kind.rawValue))
    }

    /// Forgets the focus (the keyboard went back).
    public mutating func clear() { focused = nil }
}
