import NookCore
extension NookView {
    /// The view's role in expanded content: `.header` appears after `motion.header.delay`.
    public func role(_ role: NodeRole) -> EncodedView {
        _encode().modifiedInPlace(target: { _ in 0 }) { node in node.props.role = role }
    }

    /// In expanded content, reveals this stack's children one after the other, `motion.stagger`
    /// apart (SPEC rule 11). Applies to the stack itself however many modifiers follow it;
    /// on a view that is not a stack it does nothing.
    public func stagger(_ enabled: Bool = true) -> EncodedView {
        _encode().modifiedInPlace(target: { chain in chain.count - 1 }) { node in
            if node.kind.isStack { node.props.stagger = enabled }
        }
    }

    /// Declares a group: the namespace that `shared-[id]` classes and `group-*` variants inside
    /// it resolve to (SPEC rules 15, 23). `nil` is the anonymous `group`, a name is
    /// `group/<name>`. Sent as the `group` prop. A second group on the same view wraps it.
    public func group(_ name: String? = nil) -> EncodedView {
        var adding = Layers()
        adding.group = true
        return _encode().modified(adding: adding) { props in props.group = name ?? "" }
    }

    /// The group's explicit state, for `group-focus`, `group-disabled` and `group-active`
    /// variants (hover and press are the renderer's to detect). Only the states given are
    /// sent. Goes onto the group this view declares, even through wrappers.
    ///
    /// ```swift
    /// card.group("hero").groupState(focus: isFocused, disabled: !isEnabled)
    /// ```
    public func groupState(focus: Bool? = nil, disabled: Bool? = nil, active: Bool? = nil) -> EncodedView {
        var states: [String: Bool] = [:]
        states["focus"] = focus
        states["disabled"] = disabled
        states["active"] = active
        return groupState(states)
    }

    /// Explicit group states by name (`focus`, `disabled`, `active`, or your own).
    public func groupState(_ states: [String: Bool]) -> EncodedView {
        _encode().modifiedInPlace(target: groupTarget) { node in
            node.props.groupState = (node.props.groupState ?? [:]).merging(states) { _, new in new }
        }
    }

    /// A stable identity for the view, sent as `identity`: a group keeps its namespace across
    /// updates by it instead of by its position among groups (SPEC rule 15). Goes onto the
    /// group this view declares, even through wrappers; otherwise onto the outermost node.
    public func identity(_ identity: String) -> EncodedView {
        _encode().modifiedInPlace(target: groupTarget) { node in node.props.identity = identity }
    }
}

/// The outermost node in a wrapper chain that declares a group, else the outermost.
private func groupTarget(_ chain: [ViewNode]) -> Int {
    chain.firstIndex { node in
        node.props.group != nil || node.props.classes.map { ClassList(parsing: $0).group != nil } == true
    } ?? 0
}
