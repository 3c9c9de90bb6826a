/// Rule 11: rows of expanded content that appear late.
///
/// Walking an appearing slot's tree, a node's reveal delay is its parent's, plus
/// `index × motion.stagger` when the parent is a `stagger` stack, plus `motion.header.delay`
/// when the node itself has role `header`. A node is reported where its delay first grows
/// beyond its parent's; everything below it waits with it.
enum RowDelays {
    static func reveals(in slot: PreparedSlot, stagger: Double, header: Double) -> [(path: String, delay: Double)] {
        withUnsafePointer(to: slot.view) { root in
            guard delays(root) else { return [] }
            var out: [(path: String, delay: Double)] = []
            var index = 0
            visit(root, layout: slot.laidOut.layout, index: &index, parentDelay: 0,
                  ownDelay: root.pointee.props.role == .header ? header : 0, stagger: stagger, header: header, into: &out)
            return out
        }
    }

    // The walks take pointers: a view node is a large value, and reading it in place keeps
    // these per-node passes free of copies.

    /// True when some node staggers its children or is a header.
    private static func delays(_ node: UnsafePointer<ViewNode>) -> Bool {
        if node.pointee.props.stagger == true || node.pointee.props.role == .header { return true }
        return node.pointee.children.withUnsafeBufferPointer { children in
            guard let first = children.baseAddress else { return false }
            for index in children.indices where delays(first + index) { return true }
            return false
        }
    }

    /// Walks in preorder; a path is built only for a node where the delay grows.
    private static func visit(
        _ node: UnsafePointer<ViewNode>, layout: LayoutResult, index: inout Int, parentDelay: Double, ownDelay: Double,
        stagger: Double, header: Double, into out: inout [(path: String, delay: Double)]
    ) {
        let delay = parentDelay + ownDelay
        if delay > parentDelay + 1e-12, index < layout.count { out.append((layout.path(atIndex: index), delay)) }
        index += 1
        let staggers = node.pointee.props.stagger == true && node.pointee.kind.isStack
        node.pointee.children.withUnsafeBufferPointer { children in
            guard let first = children.baseAddress else { return }
            for number in children.indices {
                let child = first + number
                let extra = (staggers ? Double(number) * stagger : 0) + (child.pointee.props.role == .header ? header : 0)
                visit(child, layout: layout, index: &index, parentDelay: delay, ownDelay: extra, stagger: stagger,
                      header: header, into: &out)
            }
        }
    }

    /// The delay of the innermost reveal holding `path`, or nil when it is not delayed.
    static func delay(of path: String, in reveals: [(path: String, delay: Double)]) -> Double? {
        var best: (length: Int, delay: Double)?
        for reveal in reveals where PathPrefix.contains(reveal.path, path) {
            if best == nil || reveal.path.utf8.count > best!.length { best = (reveal.path.utf8.count, reveal.delay) }
        }
        return best?.delay
    }
}

/// Path containment in the project's path format.
enum PathPrefix {
    /// True when `path` is `ancestor` or lies below it.
    static func contains(_ ancestor: String, _ path: String) -> Bool {
        guard path.hasPrefix(ancestor) else { return false }
        let rest = path.utf8.dropFirst(ancestor.utf8.count)
        return rest.isEmpty || rest.first == UInt8(ascii: "/")
    }
}
