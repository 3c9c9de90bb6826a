extension SlotNamespaces {
    /// Resolves every mark, group and group variant in one slot's tree.
    /// - Parameters:
    ///   - root: the slot's validated tree.
    ///   - slot: the slot name, also the root's path.
    ///   - owner: the module (and activity) that supplied the view; part of every key.
    ///   - namedRules: `rules.named` from the theme, for class expansion.
    public init(resolving root: ViewNode, slot: String, owner: SlotOwner, namedRules: [String: String] = [:]) {
        self.init(resolving: root, slot: slot, owner: owner, namedRules: namedRules, laidOut: [])
    }

    /// Resolves with the node paths of `root`'s layout (`laidOut`, in preorder, as
    /// `LayoutResult.nodes` holds them) instead of building each path again. Paths are built
    /// as usual when `laidOut` is not that tree's layout (another shape or root path).
    init(resolving root: ViewNode, slot: String, owner: SlotOwner, namedRules: [String: String], laidOut: [LaidOutNode]) {
        var walk = NamespaceWalk(slot: slot, owner: owner, namedRules: namedRules)
        // The tree is read in place through pointers: a view node is a large value.
        withUnsafePointer(to: root) { root in
            if laidOut.first?.path == slot, Self.hasShape(of: root, laidOut) {
                walk.laidOut = laidOut
                walk.result.classListOfNode.reserveCapacity(laidOut.count)
            }
            walk.visit(root, path: slot, enclosing: [])
        }
        self = walk.result
    }

    /// True when `laidOut` is a preorder layout of a tree shaped like `root`: the same number
    /// of nodes and each with the same parent, so its paths are the ones a walk would build.
    private static func hasShape(of root: UnsafePointer<ViewNode>, _ laidOut: [LaidOutNode]) -> Bool {
        laidOut.withUnsafeBufferPointer { nodes in
            var next = 0
            return matches(root, parent: -1, nodes, &next) && next == nodes.count
        }
    }

    /// Preorder check of one subtree; `next` is the index its root should have in `nodes`.
    private static func matches(_ node: UnsafePointer<ViewNode>, parent: Int, _ nodes: UnsafeBufferPointer<LaidOutNode>,
                                _ next: inout Int) -> Bool {
        guard next < nodes.count, (nodes[next].parentIndex ?? -1) == parent else { return false }
        let index = next
        next += 1
        return node.pointee.children.withUnsafeBufferPointer { children in
            for offset in children.indices where !matches(children.baseAddress! + offset, parent: index, nodes, &next) {
                return false
            }
            return true
        }
    }
}

private struct NamespaceWalk {
    let slot: String
    let owner: SlotOwner
    let namedRules: [String: String]
    var result = SlotNamespaces()
    var explicitIdentities: Set<String> = []
    /// The tree's laid-out nodes when their paths can be reused (empty otherwise); `cursor`
    /// is the preorder index of the node being visited.
    var laidOut: [LaidOutNode] = []
    var cursor = 0

    init(slot: String, owner: SlotOwner, namedRules: [String: String]) {
        self.slot = slot
        self.owner = owner
        self.namedRules = namedRules
    }

    /// `enclosing` lists the ancestor groups, innermost last.
    mutating func visit(_ node: UnsafePointer<ViewNode>, path: String, enclosing: [GroupNode]) {
        cursor += 1
        result.classListOfNode.append(-1)
        var classes: ClassList?
        if let text = node.pointee.props.classes {
            var list = ClassList(parsing: text, namedRules: namedRules)
            if !list.diagnostics.isEmpty {
                // The prop's path is only built for the few class strings with problems.
                let at = NodePath.prop(path, "classes")
                for index in list.diagnostics.indices { list.diagnostics[index].path = at }
                result.diagnostics += list.diagnostics.map { diagnostic in
                    var diagnostic = diagnostic
                    diagnostic.module = owner.module
                    return diagnostic
                }
            }
            // Kept by preorder index: the planner finds a node's classes without hashing its path.
            result.classListOfNode[cursor - 1] = Int32(result.classLists.count)
            result.classLists.append(list)
            result.classListPaths.append(path)
            classes = list
            if !namedRules.isEmpty, let expanded = NamedRules.expand(text, rules: namedRules) { result.expandedClasses[path] = expanded }
        }

        if let mark = node.pointee.props.shared { nookOrCustom(mark, path: path) }
        if let classes {
            if let shared = classes.shared { groupScoped(shared, classes: classes, path: path, enclosing: enclosing) }
            variants(classes.variants, path: path, enclosing: enclosing)
        }

        var inner = enclosing
        if let group = declareGroup(node, classes: classes, path: path) { inner.append(group) }
        node.pointee.children.withUnsafeBufferPointer { children in
            for index in children.indices {
                let childPath = laidOut.isEmpty ? NodePath.child(path, index) : laidOut[cursor].path
                visit(children.baseAddress! + index, path: childPath, enclosing: inner)
            }
        }
    }

    mutating func nookOrCustom(_ mark: SharedMark, path: String) {
        let key =
            mark.isNookNamespace
            ? SharedKey(.nook, owner.module + "/" + mark.id)
            : SharedKey(.custom, "\(owner)/\(slot)/ns:\(mark.namespace)/\(mark.id)")
        result.elements.append(
            SharedElement(
                key: key, id: mark.id, path: path, role: mark.isSource ? .source : .follower,
                properties: mark.properties, anchor: mark.anchor, style: mark.style))
    }

    mutating func groupScoped(_ shared: SharedClass, classes: ClassList, path: String, enclosing: [GroupNode]) {
        guard let group = Self.find(shared.groupName, in: enclosing) else {
            let wanted = shared.groupName.map { "an ancestor group named \"\($0)\"" } ?? "an enclosing group"
            result.diagnostics.append(
                Diagnostic(
                    .missingGroup, .warning,
                    "shared-[\(shared.id)] has no \(wanted); the element draws normally but is not matched",
                    path: NodePath.prop(path, "classes"), module: owner.module, activity: owner.activity ?? "", id: shared.id))
            return
        }
        result.elements.append(
            SharedElement(
                key: SharedKey(.group, group.namespaceKey + "/" + shared.id), id: shared.id, path: path,
                role: classes.sharedRole ?? .source, properties: classes.matchedProperties, groupPath: group.path))
    }

    mutating func variants(_ variants: [VariantClass], path: String, enclosing: [GroupNode]) {
        var resolved: [ResolvedVariant] = []
        chains: for variant in variants {
            var conditions: [ResolvedCondition] = []
            for condition in variant.conditions {
                guard condition.isGroup else {
                    conditions.append(ResolvedCondition(state: condition.state))
                    continue
                }
                guard let group = Self.find(condition.groupName, in: enclosing) else {
                    result.diagnostics.append(
                        Diagnostic(
                            .missingGroup, .warning,
                            "\(condition.spelling) in \"\(variant.token)\" has no group to refer to; the variant never applies",
                            path: NodePath.prop(path, "classes"), module: owner.module))
                    continue chains
                }
                conditions.append(ResolvedCondition(state: condition.state, groupPath: group.path))
            }
            resolved.append(ResolvedVariant(conditions: conditions, utility: variant.utility, token: variant.token))
        }
        if !resolved.isEmpty { result.variants[path] = resolved }
    }

    /// The nearest enclosing group, or the nearest one named `name`.
    static func find(_ name: String?, in enclosing: [GroupNode]) -> GroupNode? {
        guard let name else { return enclosing.last }
        return enclosing.last { $0.name == name }
    }

    /// Registers `node` as a group when its props or classes declare one.
    mutating func declareGroup(_ node: UnsafePointer<ViewNode>, classes: ClassList?, path: String) -> GroupNode? {
        let name: String?
        if let prop = node.pointee.props.group {
            name = prop.isEmpty ? nil : prop
            if let declared = classes?.group, declared.name != name {
                result.diagnostics.append(
                    Diagnostic(
                        .conflictingClasses, .info, "the group prop overrides the group class on this node",
                        path: NodePath.prop(path, "group"), module: owner.module))
            }
        } else if let declared = classes?.group {
            name = declared.name
        } else {
            return nil
        }
        let ordinal = result.groups.count
        var identity = GroupIdentity.ordinal(ordinal)
        var prefix = "\(owner)/\(slot)/group#\(ordinal)"
        if let explicit = node.pointee.props.identity {
            if explicitIdentities.insert(explicit).inserted {
                identity = .explicit(explicit)
                prefix = "\(owner)/\(slot)/group:\(explicit)"
            } else {
                result.diagnostics.append(
                    Diagnostic(
                        .duplicateGroupIdentity, .warning,
                        "another group in this view already has identity \"\(explicit)\"; this one is known by its position (#\(ordinal))",
                        path: NodePath.prop(path, "identity"), module: owner.module))
            }
        }
        let group = GroupNode(path: path, name: name, identity: identity, namespaceKey: prefix)
        result.groups.append(group)
        return group
    }
}
