import NookCore
// Controls (contract 1.1, Touch): modifiers that make a view pressable, name its action,
// label it for assistive technology, or disable it.

extension NookView {
    /// Makes this view a control: pressing it runs `action` in the module (see `NookAction`).
    /// On a view that is a control already, a `zstack` around it takes the new action.
    ///
    /// ```swift
    /// CoverArt(track: track).onTapGesture { await player.raise() }
    /// ```
    public func onTapGesture(perform action: @escaping @Sendable () async -> Void) -> EncodedView {
        _encode().attachingAction(NookAction(action))
    }

    /// A stable id for this view's control (`action`, SPEC rule 1's charset), in place of
    /// the one derived from its place in the view. Use it when the view's structure changes
    /// between updates (an `if` before the control) or when a script presses it
    /// (`nookctl press music/song pause`). Ids must be unique within an activity (or a module
    /// slot); on a clash the later control's closure runs for both. A view that is no control
    /// is left as it is.
    public func actionID(_ id: String) -> EncodedView {
        var view = _encode()
        for index in view.pieces.indices {
            guard let depth = view.pieces[index].controlDepth, let old = view.pieces[index].node(atDepth: depth).props.action else { continue }
            view.actions.rename(old, to: id)
            view.pieces[index].rewrite(atDepth: depth) { $0.props.action = id }
        }
        return view
    }

    /// The name assistive technology reads for this control (`action_label`: "Pause"); without
    /// it renderers read the text inside the control. Goes onto the control this view is
    /// (through wrappers), else onto the view's outermost node.
    public func accessibilityLabel(_ label: String) -> EncodedView {
        var view = _encode()
        for index in view.pieces.indices {
            let depth = view.pieces[index].controlDepth ?? 0
            view.pieces[index].rewrite(atDepth: depth) { $0.props.actionLabel = label }
        }
        return view
    }

    /// Disables the controls in this view: their actions are taken away (the renderer draws
    /// them but cannot press them, and the module runs nothing), and the group this view
    /// declares (else its outermost node) gets `group_state.disabled`, so
    /// `group-disabled:` variants inside restyle them. `disabled(false)` changes nothing but
    /// the state it sends.
    ///
    /// ```swift
    /// Button("Next") { await player.next() }.disabled(!canGoNext)
    /// ```
    public func disabled(_ disabled: Bool = true) -> EncodedView {
        var view = groupState(disabled: disabled)
        guard disabled else { return view }
        for index in view.pieces.indices {
            view.pieces[index].node.removeActions { view.actions.remove($0) }
        }
        return view
    }
}

extension Piece {
    /// How many wrappers down the control of this piece is: the outermost node in the wrapper
    /// chain that carries an action; nil when none does.
    var controlDepth: Int? {
        var current = node
        for depth in 0...wrappers {
            if current.props.action != nil { return depth }
            guard depth < wrappers else { break }
            current = current.children[0]
        }
        return nil
    }

    func node(atDepth depth: Int) -> ViewNode {
        var current = node
        for _ in 0..<depth { current = current.children[0] }
        return current
    }

    mutating func rewrite(atDepth depth: Int, _ apply: (inout ViewNode) -> Void) {
        func walk(_ node: inout ViewNode, _ left: Int) {
            if left == 0 { apply(&node) } else { walk(&node.children[0], left - 1) }
        }
        walk(&node, depth)
    }
}

extension ViewNode {
    /// Takes `action` off this node and every node below, telling `removed` each id.
    mutating func removeActions(_ removed: (String) -> Void) {
        if let id = props.action {
            removed(id)
            props.action = nil
        }
        for index in children.indices { children[index].removeActions(removed) }
    }
}
