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

    public init(kind: Kind, slot: String, owner: String, serial: UInt64, rect: Rect, dismissible: Bool) {
        self.kind = kind
        self.slot = slot
        self.owner = owner
        self.serial = serial
        self.rect = rect
        self.dismissible = dismissible
    }

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
