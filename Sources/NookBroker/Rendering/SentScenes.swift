import NookCore

/// The scenes of the last few plans sent to one renderer, by serial, oldest first.
///
/// `Render.Activate` names a node in the scene the renderer drew, by the serial of its plan.
/// A renderer may still show a plan or two behind the newest (it acknowledges up to
/// `RenderLimits.maxUnacknowledgedPlans` late), so a press is resolved in the scene that
/// renderer was sent at that serial, not in the broker's latest. Only `capacity` scenes are
/// kept; they share storage with the plans themselves (copy on write), so keeping them costs
/// references, not copies.
public struct SentScenes: Hashable, Sendable {
    /// How many of the newest plans' scenes a renderer can still press into: twice the
    /// window of unacknowledged plans, so a renderer at the edge of its window still hits.
    public static let capacity = 8

    private var entries: [(serial: UInt64, scene: PlannerScene)] = []

    public init() {}

    /// Records the scene of the plan with `serial`, just sent; the oldest falls out.
    /// - Returns: the scenes that fell out, for the caller to let go of when it suits it (the
    ///   last reference to a scene frees a tree of storage).
    @discardableResult
    public mutating func record(serial: UInt64, scene: PlannerScene) -> [PlannerScene] {
        var dropped = entries.filter { $0.serial == serial }.map(\.scene)
        entries.removeAll { $0.serial == serial }
        entries.append((serial, scene))
        if entries.count > Self.capacity {
            let excess = entries.count - Self.capacity
            dropped += entries.prefix(excess).map(\.scene)
            entries.removeFirst(excess)
        }
        return dropped
    }

    /// The scene sent at `serial`, if it is among the kept ones.
    public func scene(at serial: UInt64) -> PlannerScene? {
        entries.last { $0.serial == serial }?.scene
    }

    /// The serials kept, oldest first (for error messages and tests).
    public var serials: [UInt64] { entries.map(\.serial) }

    public static func == (lhs: SentScenes, rhs: SentScenes) -> Bool {
        lhs.entries.elementsEqual(rhs.entries) { $0.serial == $1.serial && $0.scene == $1.scene }
    }

    public func hash(into hasher: inout Hasher) {
        for entry in entries { hasher.combine(entry.serial) }
    }
}
