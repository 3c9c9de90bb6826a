/// Rule 11: rows of expanded content that appear late.
///
/// Walking an appearing slot's tree, a node's reveal delay is its parent's, plus
/// `index × motion.stagger` when the parent is a `stagger` stack, plus `motion.header.delay`
/// when the node itself has role `header`. A node is reported where its delay first grows
/// beyond its parent's; everything below it waits with it.
enum RowDelays {
    static func reveals(in slot: PreparedSlot, stagger: Double, header: Double) -> [(path: String, delay: Double)] {
        var out: [(path: String, delay: Double)] = []
        visit(slot.view, path: slot.rootPath, parentDelay: 0, ownDelay: slot.view.props.role == .header ? header : 0,
              stagger: stagger, header: header, into: &out)
        return out
    }

    private static func visit(
        _ node: ViewNode, path: String, parentDelay: Double, ownDelay: Double, stagger: Double, header: Double,
        into out: inout [(path: String, delay: Double)]
    ) {
        let delay = parentDelay + ownDelay
        if delay > parentDelay + 1e-12 { out.append((path, delay)) }
        let staggers = node.props.stagger == true && node.kind.isStack
        for (index, child) in node.children.enumerated() {
            let extra = (staggers ? Double(index) * stagger : 0) + (child.props.role == .header ? header : 0)
            visit(child, path: NodePath.child(path, index), parentDelay: delay, ownDelay: extra, stagger: stagger,
                  header: header, into: &out)
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
