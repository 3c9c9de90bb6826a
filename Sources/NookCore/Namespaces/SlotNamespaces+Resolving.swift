extension SlotNamespaces {
    /// Resolves every mark, group and group variant in one slot's tree.
    /// - Parameters:
    ///   - root: the slot's validated tree.
    ///   - slot: the slot name, also the root's path.
    ///   - owner: the module (and activity) that supplied the view; part of every key.
    ///   - namedRules: `rules.named` from the theme, for class expansion.
    ///
    /// This is the publish-time resolution (the registry's): its diagnostics also name each
    /// class no renderer draws (`unknown-class`, with a suggestion).
    public init(resolving root: ViewNode, slot: String, owner: SlotOwner, namedRules: [String: String] = [:]) {
        self.init(resolving: root, slot: slot, owner: owner, namedRules: namedRules, nodeCount: 0, checksVocabulary: true)
    }

    /// Resolves one slot's tree; `PreparedSlot` calls this with the slot's root path, for every
    /// plan, without the vocabulary check: the module heard of those classes when it published.
    init(resolving root: ViewNode, slot: String, owner: SlotOwner, namedRules: [String: String], nodeCount: Int,
         checksVocabulary: Bool = false) {
        var walk = NamespaceWalk(slot: slot, owner: owner, namedRules: namedRules, nodeCount: nodeCount, checksVocabulary: checksVocabulary)
        walk.result.classListOfNode.reserveCapacity(nodeCount)
        // The tree is read in place through pointers: a view node is a large value.
        withUnsafePointer(to: root) { root in walk.visit(root) }
        // Swapped out, not copied: a copy retains every array and string of the result.
        self.init()
        swap(&self, &walk.result)
    }
}

private struct NamespaceWalk {
    let slot: String
    let owner: SlotOwner
    let namedRules: [String: String]
    /// Whether classes left for renderers are checked against what they draw (publish time).
    let checksVocabulary: Bool
    /// `<owner>/<slot>` in parts, the start of every group and custom key (written with
    /// `KeyText.concatenate`: string interpolation cost about 3,000 instructions a key).
    let ownerAndSlot: [String]
    var result = SlotNamespaces()
    var explicitIdentities: Set<String> = []
    /// The preorder index of the node being visited, plus one.
    var cursor = 0
    /// The child positions from the root down to the node being visited: its path, unbuilt.
    /// A path string is built only for the nodes that keep one (classes, marks, groups).
    var steps: [Int] = []
    /// The groups enclosing the node being visited, by index in `result.groups`, innermost
    /// last (indices, not copies: a `GroupNode` copy retains its three strings). One stack for
    /// the walk, pushed and popped around a group's children, rather than an array per call.
    var enclosing: [Int] = []
    /// The tree's node count when known (0 when not), to size lists on their first entry.
    let nodeCount: Int

    init(slot: String, owner: SlotOwner, namedRules: [String: String], nodeCount: Int, checksVocabulary: Bool) {
        self.nodeCount = nodeCount
        self.checksVocabulary = checksVocabulary
        ownerAndSlot = owner.activity.map { [owner.module, "/", $0, "/", slot] } ?? [owner.module, "/", slot]
        self.slot = slot
        self.owner = owner
        self.namedRules = namedRules
    }

    mutating func visit(_ node: UnsafePointer<ViewNode>) {
        cursor += 1
        result.classListOfNode.append(-1)
        // Props are read in place (copying them retains every string they hold).
        let keepsPath = node.pointee.props.classes != nil || node.pointee.props.shared != nil || node.pointee.props.group != nil
        let path = keepsPath ? currentPath() : ""
        // Only the few parts of the class list this walk reads are taken out of it: a whole
        // `ClassList` copy retains every array and string it holds.
        var sharedClass: SharedClass?
        var sharedRole: SharedRole?
        var matchedProperties = SharedProperties.frame
        var variantClasses: [VariantClass] = []
        var groupDeclaration: GroupDeclaration?
        if let text = node.pointee.props.classes {
            var list = ClassList(parsing: text, namedRules: namedRules)
            // An animation scope's plain names are the scope check's (`ModuleRules`).
            if checksVocabulary, node.pointee.props.animationValue == nil { checkVocabulary(of: &list) }
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
            sharedClass = list.shared
            sharedRole = list.sharedRole
            matchedProperties = list.matchedProperties
            if !list.variants.isEmpty { variantClasses = list.variants }
            groupDeclaration = list.group
            // Kept by preorder index: the planner finds a node's classes without hashing its path.
            result.classListOfNode[cursor - 1] = Int32(result.classLists.count)
            if result.classLists.isEmpty {
                result.classLists.reserveCapacity(firstReserve)
                result.classListPaths.reserveCapacity(firstReserve)
            }
            result.classLists.append(consume list)
            result.classListPaths.append(path)
            if !namedRules.isEmpty, let expanded = NamedRules.expand(text, rules: namedRules) { result.expandedClasses[path] = expanded }
        }

        if let mark = node.pointee.props.shared { nookOrCustom(mark, path: path) }
        if let sharedClass {
            groupScoped(sharedClass, role: sharedRole ?? .source, properties: matchedProperties, path: path)
        }
        if !variantClasses.isEmpty { variants(variantClasses, path: path) }

        guard let group = declareGroup(node, declared: groupDeclaration, path: path) else {
            visitChildren(of: node)
            return
        }
        enclosing.append(group)
        visitChildren(of: node)
        enclosing.removeLast()
    }

    /// `unknown-class` for each class left for renderers that they do not draw
    /// (`DrawnUtility`), with the nearest known class or theme rule as a suggestion. The
    /// theme's rules are expanded by now, so a name the theme defines is never among them.
    private func checkVocabulary(of list: inout ClassList) {
        for utility in list.passthrough where !DrawnUtility.isKnown(utility) {
            list.diagnostics.append(Self.unknownClass(utility, namedRules: namedRules))
        }
        for variant in list.variants where !DrawnUtility.isKnown(variant.utility) {
            // Behind a variant, the broker's own families are known too (they only do nothing).
            guard ClassList(parsing: variant.utility).passthrough == [variant.utility] else { continue }
            list.diagnostics.append(Self.unknownClass(variant.utility, namedRules: namedRules))
        }
    }

    static func unknownClass(_ utility: String, namedRules: [String: String]) -> Diagnostic {
        let quoted = InputQuote.text(utility)
        var message = "\"\(quoted)\" is no class renderers draw, nor a rule of the theme or the module; it is passed on and draws nothing"
        if let nearest = DrawnUtility.suggestion(for: utility, names: namedRules.keys) {
            message += "; did you mean \"\(nearest)\"?"
        }
        return Diagnostic(.unknownClass, .warning, message, id: utility)
    }

    private mutating func visitChildren(of node: UnsafePointer<ViewNode>) {
        node.pointee.children.withUnsafeBufferPointer { children in
            // Room for a typical depth at once: growing by appends reallocated the stack thrice.
            if !children.isEmpty, steps.capacity == 0 { steps.reserveCapacity(8) }
            for index in children.indices {
                steps.append(index)
                visit(children.baseAddress! + index)
                steps.removeLast()
            }
        }
    }

    /// Room for a list's first entries, reserved when it gets its first: at most the nodes left
    /// and at most 16 (growing by appends reallocated a list of 9 four times).
    var firstReserve: Int {
        nodeCount > cursor ? min(nodeCount - cursor + 1, 16) : 1
    }

    /// The path of the node being visited.
    func currentPath() -> String {
        NodePath.descendant(of: slot, steps: steps)
    }

    mutating func nookOrCustom(_ mark: SharedMark, path: String) {
        let key =
            mark.isNookNamespace
            ? SharedKey(.nook, KeyText.join(owner.module, UInt8(ascii: "/"), mark.id))
            : SharedKey(.custom, KeyText.concatenate(ownerAndSlot, ["/ns:", mark.namespace, "/", mark.id]))
        if result.elements.isEmpty { result.elements.reserveCapacity(firstReserve) }
        result.elements.append(
            SharedElement(
                key: key, id: mark.id, path: path, node: cursor - 1, role: mark.isSource ? .source : .follower,
                properties: mark.properties, anchor: mark.anchor, style: mark.style))
    }

    mutating func groupScoped(_ shared: SharedClass, role: SharedRole, properties: SharedProperties, path: String) {
        guard let group = find(shared.groupName) else {
            let wanted = shared.groupName.map { "is inside no group named \"\($0)\" (give an ancestor the class group/\($0))" }
                ?? "is inside no group (give an ancestor the class group or group/<name>)"
            result.diagnostics.append(
                Diagnostic(
                    .missingGroup, .warning,
                    "shared-[\(shared.id)] \(wanted); the element draws normally but is not matched",
                    path: NodePath.prop(path, "classes"), module: owner.module, activity: owner.activity ?? "", id: shared.id))
            return
        }
        if result.elements.isEmpty { result.elements.reserveCapacity(firstReserve) }
        result.elements.append(
            SharedElement(
                key: SharedKey(.group, KeyText.join(result.groups[group].namespaceKey, UInt8(ascii: "/"), shared.id)), id: shared.id,
                path: path, node: cursor - 1, role: role, properties: properties, groupPath: result.groups[group].path))
    }

    mutating func variants(_ variants: [VariantClass], path: String) {
        var resolved: [ResolvedVariant] = []
        chains: for variant in variants {
            var conditions: [ResolvedCondition] = []
            for condition in variant.conditions {
                guard condition.isGroup else {
                    conditions.append(ResolvedCondition(state: condition.state))
                    continue
                }
                guard let group = find(condition.groupName) else {
                    result.diagnostics.append(
                        Diagnostic(
                            .missingGroup, .warning,
                            "\(condition.spelling) in \"\(variant.token)\" has no group to refer to; the variant never applies",
                            path: NodePath.prop(path, "classes"), module: owner.module))
                    continue chains
                }
                conditions.append(ResolvedCondition(state: condition.state, groupPath: result.groups[group].path))
            }
            resolved.append(ResolvedVariant(conditions: conditions, utility: variant.utility, token: variant.token))
        }
        if !resolved.isEmpty { result.variants[path] = resolved }
    }

    /// The index in `result.groups` of the nearest enclosing group, or of the nearest one named `name`.
    func find(_ name: String?) -> Int? {
        guard let name else { return enclosing.last }
        return enclosing.last { result.groups[$0].name == name }
    }

    /// Registers `node` as a group when its props or classes declare one; its index in `result.groups`.
    mutating func declareGroup(_ node: UnsafePointer<ViewNode>, declared classDeclaration: GroupDeclaration?, path: String) -> Int? {
        let name: String?
        if let prop = node.pointee.props.group {
            name = prop.isEmpty ? nil : prop
            if let declared = classDeclaration, declared.name != name {
                result.diagnostics.append(
                    Diagnostic(
                        .conflictingClasses, .info, "the group prop overrides the group class on this node",
                        path: NodePath.prop(path, "group"), module: owner.module))
            }
        } else if let declared = classDeclaration {
            name = declared.name
        } else {
            return nil
        }
        let ordinal = result.groups.count
        var identity = GroupIdentity.ordinal(ordinal)
        if let explicit = node.pointee.props.identity {
            if explicitIdentities.insert(explicit).inserted {
                identity = .explicit(explicit)
            } else {
                result.diagnostics.append(
                    Diagnostic(
                        .duplicateGroupIdentity, .warning,
                        "another group in this view already has identity \"\(explicit)\"; this one is known by its position (#\(ordinal))",
                        path: NodePath.prop(path, "identity"), module: owner.module))
            }
        }
        let prefix =
            switch identity {
            case .explicit(let explicit): KeyText.concatenate(ownerAndSlot, ["/group:", explicit])
            case .ordinal(let ordinal): KeyText.concatenate(ownerAndSlot, ["/group#", String(ordinal)])
            }
        let group = GroupNode(path: path, name: name, identity: identity, namespaceKey: prefix)
        result.groups.append(group)
        return ordinal
    }
}
