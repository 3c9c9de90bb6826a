import NookCore
import Synchronization

/// What a control runs when it is pressed: the closure of a `Button`, an `.onTapGesture`.
///
/// Closures are `@Sendable` and may be `async`: the module runs them one at a time, in the
/// order the presses arrive, on a task of its own (not on any actor), so a closure that
/// touches your state hops to where that state lives (`await model.toggle()`), or is
/// declared `@MainActor` to run there. A slow closure delays the next press, never the link.
public struct NookAction: Sendable {
    let run: @Sendable () async -> Void

    public init(_ run: @escaping @Sendable () async -> Void) { self.run = run }
}

/// The closures of the controls in one encoded view, by action id.
///
/// While a view is being built, a control's id is provisional (`pending.<n>`, unique in the
/// process) unless `.actionID` named it; when a slot's view is finished (`finalized`), each
/// provisional id becomes one derived from the control's place in that view (its slot key
/// and child positions: `expanded.0.2`), so the same structure gives the same ids at every
/// re-render. Equality compares ids only: closures cannot be compared, and two views with
/// the same nodes send the same thing to the broker.
struct ViewActions: Hashable, Sendable {
    private(set) var handlers: [String: NookAction] = [:]

    static let provisionalPrefix = "pending."
    private static let counter = Atomic<UInt64>(0)

    init() {}

    var isEmpty: Bool { handlers.isEmpty }
    var ids: Set<String> { Set(handlers.keys) }
    subscript(id: String) -> NookAction? { handlers[id] }

    /// Registers `action` under a new provisional id and returns the id.
    mutating func addProvisional(_ action: NookAction) -> String {
        let id = Self.provisionalPrefix + String(Self.counter.add(1, ordering: .relaxed).newValue)
        handlers[id] = action
        return id
    }

    static func isProvisional(_ id: String) -> Bool { id.hasPrefix(provisionalPrefix) }

    /// Moves the closure under `old` to `new` (a later one under `new` is replaced).
    mutating func rename(_ old: String, to new: String) {
        guard old != new, let action = handlers.removeValue(forKey: old) else { return }
        handlers[new] = action
    }

    mutating func remove(_ id: String) { handlers[id] = nil }

    /// Both tables; on a clash of ids, `other`'s closure wins (the later view).
    func merging(_ other: ViewActions) -> ViewActions {
        guard !other.isEmpty else { return self }
        var out = self
        out.handlers.merge(other.handlers) { _, new in new }
        return out
    }

    static func merged(_ tables: [ViewActions]) -> ViewActions {
        tables.reduce(ViewActions()) { $0.merging($1) }
    }

    static func == (lhs: ViewActions, rhs: ViewActions) -> Bool { lhs.ids == rhs.ids }
    func hash(into hasher: inout Hasher) { hasher.combine(ids) }
}

extension ViewActions {
    /// Gives every provisional id in `root` its place-derived id (`key`, then the child
    /// positions, dot-separated) and keeps only closures whose id a node of `root` carries.
    /// - Returns: the tree as sent, and its closures by final id.
    func finalized(_ root: ViewNode, key: String) -> (ViewNode, ViewActions) {
        var table = ViewActions()
        var node = root
        finalize(&node, place: key, into: &table)
        return (node, table)
    }

    private func finalize(_ node: inout ViewNode, place: String, into table: inout ViewActions) {
        if let id = node.props.action {
            if Self.isProvisional(id) {
                if let action = handlers[id] {
                    node.props.action = place
                    table.handlers[place] = action
                } else {
                    // Encoded outside this view's build (a node copied from elsewhere): no closure.
                    node.props.action = place
                }
            } else if let action = handlers[id] {
                table.handlers[id] = action
            }
        }
        for index in node.children.indices {
            finalize(&node.children[index], place: place + "." + String(index), into: &table)
        }
    }
}
