/// How `NodeProps` stores its groups out of line; each is allocated only when one of its props is set.

/// A group of optional props whose all-nil value is its `init()`.
protocol PropGroup: Hashable, Sendable {
    init()
}

extension PropGroup {
    var isEmpty: Bool { self == Self() }
}

// The groups themselves (`LayoutProps`, `IdentityProps`, ...) are generated from the
// `storage` of each row of data/contract.json.

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
