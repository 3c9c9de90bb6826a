/// The groups `NodeProps` stores out of line; each is allocated only when one of its props is set.

/// A group of optional props whose all-nil value is its `init()`.
protocol PropGroup: Hashable, Sendable {
    init()
}

extension PropGroup {
    var isEmpty: Bool { self == Self() }
}

struct LayoutProps: PropGroup {
    var width: Double?
    var height: Double?
    var minWidth: Double?
    var maxWidth: Double?
    var minHeight: Double?
    var maxHeight: Double?
    var padding: EdgeInsets?
    var opacity: Double?
    var spacing: Double?
    var alignment: Alignment?
    var stagger: Bool?
    var minLength: Double?
}

struct IdentityProps: PropGroup {
    var group: String?
    var groupState: [String: Bool]?
    var identity: String?
    var role: NodeRole?
    var animationValue: String?
    var shared: SharedMark?
    var animate: Bool?
    var action: String?
    var actionLabel: String?
    var name: String?
    var params: [String: PropValue]?
}

struct TextStyleProps: PropGroup {
    var fontSize: Double?
    var fontWeight: String?
    var monospacedDigits: Bool?
    var timerEnd: Int64?
}

struct GraphicProps: PropGroup {
    var symbol: String?
    var uri: String?
    var shape: ShapeKind?
    var cornerRadius: Double?
    var color: String?
}

struct ProgressProps: PropGroup {
    var value: Double?
    var start: Int64?
    var end: Int64?
    var progressStyle: ProgressStyle?
}

/// Copy-on-write storage of one group: shared between copies of a node until one of them writes.
final class PropGroupBox<Group: PropGroup>: Hashable, @unchecked Sendable {
    // Mutated only while uniquely referenced (see `edit`), so sharing across threads is safe.
    var value: Group

    init(_ value: Group) { self.value = value }

    static func == (lhs: PropGroupBox, rhs: PropGroupBox) -> Bool { lhs === rhs || lhs.value == rhs.value }
    func hash(into hasher: inout Hasher) { hasher.combine(value) }

    /// Applies `change` to the group in `box`, copying it first when shared, allocating it when
    /// absent, and dropping it when the change leaves it empty.
    static func edit(_ box: inout PropGroupBox?, _ change: (inout Group) -> Void) {
        guard box != nil else {
            var group = Group()
            change(&group)
            if !group.isEmpty { box = PropGroupBox(group) }
            return
        }
        if !isKnownUniquelyReferenced(&box) { box = PropGroupBox(box!.value) }
        change(&box!.value)
        if box!.value.isEmpty { box = nil }
    }
}
