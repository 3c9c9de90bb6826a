/// A rounded rectangle of chrome: the nook's outline, a capsule, or the companion window.
public struct ChromeShape: Hashable, Sendable {
    public var rect: Rect
    /// Already clamped to half the shorter side.
    public var cornerRadius: Double

    public init(rect: Rect, cornerRadius: Double) {
        self.rect = rect
        self.cornerRadius = max(0, min(cornerRadius, rect.width / 2, rect.height / 2))
    }
}

/// One activity's capsule beside the pill (SPEC rule 12: capsules never share elements).
public struct CapsuleChrome: Hashable, Sendable {
    public var owner: String
    public var shape: ChromeShape
}

/// A slot on screen: the room it was given and its view laid out inside it.
public struct LaidOutSlot: Hashable, Sendable {
    public var slot: SlotName
    /// `<module>` or `<module>/<activity>`.
    public var owner: String
    /// The room the slot occupies; the view's root is placed inside it (and may overflow it
    /// when it cannot shrink to fit).
    public var rect: Rect
    /// Every node, absolute, with paths starting at `slot.rootPath(owner:)`.
    public var layout: LayoutResult

    public var rootPath: String { slot.rootPath(owner: owner) }
}

/// The destination of a plan, laid out: chrome, capsules, companion window and slots.
public struct SceneLayout: Hashable, Sendable {
    public var presentation: Presentation
    /// The nook's outline (for `hidden`: an empty rect at the top centre).
    public var chrome: ChromeShape
    /// Capsules beside the pill, in the order of `SceneContent.minimal`.
    public var capsules: [CapsuleChrome] = []
    /// The companion's window (presentation `companion` only).
    public var companionWindow: ChromeShape?
    /// Slots in drawing order: compact, capsules, then peek / expanded / board / companion.
    public var slots: [LaidOutSlot] = []

    /// The first slot with that name (and owner, when given).
    public func slot(_ name: SlotName, owner: String? = nil) -> LaidOutSlot? {
        slots.first { $0.slot == name && (owner == nil || $0.owner == owner) }
    }

    /// A node anywhere in the scene, by its path.
    public func node(at path: String) -> (slot: LaidOutSlot, node: (kind: NodeKind, rect: Rect, parentIndex: Int?))? {
        for slot in slots {
            if let node = slot.layout[path] { return (slot, node) }
        }
        return nil
    }
}
