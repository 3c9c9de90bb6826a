/// Rules 15, 16 and 17: a slot that stays on screen while its view changes.
///
/// Contract
/// - Keys: group keys (rule 15, a group known by its position among group nodes or its
///   `identity`), caller namespaces and nook ids, all within this one slot. One source per
///   key and side (rule 9); followers never move.
/// - Animation scopes (rule 17): a node with `animation_value` whose value differs from the
///   node at the same path in the old view animates its whole subtree on the curve of its
///   animation classes (`Theme.animationCurve`, the caller's preset when it names none). The
///   innermost changed scope wins. An update that carries a caller `animation` makes the whole
///   slot such a scope. Outside changed scopes the new geometry applies at once.
/// - Inside a changed scope: shared elements move; nodes at the same path and kind that
///   change rect `move`; new subtrees `insert`, gone ones `remove` (the topmost node only);
///   nodes whose style changed (opacity, colour, non-layout classes) `style`. Outside, style
///   changes still animate on the nearest animation classes, when there are any.
/// - `animate: false` (the update's or the root's) animates nothing; Reduce Motion keeps
///   only style changes (rule 18). Every shared pair that did not move is explained.
struct ContentTransition {
    var elements: [ElementMove] = []
    var layout: [LayoutChange] = []
    var diagnostics: [Diagnostic] = []

    private let old: PreparedSlot
    private let new: PreparedSlot
    private let theme: Theme
    private let callerAnimation: String?
    private var changedScopes: [(path: String, curve: Curve)] = []
    private var unchangedScopes: [String] = []
    private var oldCursor = 0
    private var newCursor = 0

    private let marks: [String: ModuleMarks]

    init(old: PreparedSlot, new: PreparedSlot, action: PlanAction, theme: Theme, reduceMotion: Bool,
         claimed: (old: Set<String>, new: Set<String>), marks: [String: ModuleMarks]) {
        self.marks = marks
        self.old = old
        self.new = new
        self.theme = theme
        callerAnimation = action.callerAnimation
        let disabled = !action.animate || new.view.props.animate == false

        var rootScope: Curve?
        if callerAnimation != nil {
            rootScope = scopeCurve(at: new.rootPath)
            changedScopes.append((new.rootPath, rootScope!))
        }
        walk(old.view, new.view, path: new.rootPath, scope: rootScope, styleClasses: nil)

        matchElements(disabled: disabled, reduceMotion: reduceMotion, claimed: claimed)
        let endpoints = Set(elements.flatMap { [$0.fromPath, $0.toPath] })
        layout.removeAll { change in
            if disabled { return true }
            if reduceMotion && change.change != .style { return true }
            return change.change != .style && endpoints.contains(change.path)
        }
    }

    // MARK: Scopes and layout

    private mutating func scopeCurve(at path: String) -> Curve {
        let classes = new.namespaces.classes[path]?.animation ?? AnimationClasses()
        let resolution = theme.animationCurve(for: classes, callerPreset: callerAnimation)
        for var diagnostic in resolution.diagnostics {
            diagnostic.path = NodePath.prop(path, "classes")
            diagnostic.module = new.owner.module
            diagnostics.append(diagnostic)
        }
        return resolution.curve
    }

    private mutating func walk(_ before: ViewNode?, _ after: ViewNode?, path: String, scope: Curve?, styleClasses: Curve?) {
        guard let after else {
            if let before {
                let rect = old.laidOut.layout.nodes[oldCursor].rect
                if let scope { layout.append(LayoutChange(path: path, change: .remove, fromRect: rect, toRect: rect, curve: scope)) }
                oldCursor += before.nodeCount
            }
            return
        }
        guard let before, before.kind == after.kind else {
            if let before {
                walk(before, nil, path: path, scope: scope, styleClasses: styleClasses)
            }
            let rect = new.laidOut.layout.nodes[newCursor].rect
            if let scope { layout.append(LayoutChange(path: path, change: .insert, fromRect: rect, toRect: rect, curve: scope)) }
            newCursor += after.nodeCount
            return
        }
        let fromRect = old.laidOut.layout.nodes[oldCursor].rect
        let toRect = new.laidOut.layout.nodes[newCursor].rect
        oldCursor += 1
        newCursor += 1

        var scope = scope
        if let value = after.props.animationValue {
            if before.props.animationValue != value {
                let curve = scopeCurve(at: path)
                changedScopes.append((path, curve))
                scope = curve
            } else {
                unchangedScopes.append(path)
            }
        }
        var styleCurve = styleClasses
        if let classes = new.namespaces.classes[path]?.animation, !classes.isEmpty {
            styleCurve = theme.animationCurve(for: classes, callerPreset: callerAnimation).curve
        }
        if let scope, !fromRect.isClose(to: toRect) {
            layout.append(LayoutChange(path: path, change: .move, fromRect: fromRect, toRect: toRect, curve: scope))
        }
        if let curve = scope ?? styleCurve, styleChanged(before, after, path: path) {
            layout.append(LayoutChange(path: path, change: .style, fromRect: fromRect, toRect: toRect, curve: curve))
        }
        for index in 0..<max(before.children.count, after.children.count) {
            walk(index < before.children.count ? before.children[index] : nil,
                 index < after.children.count ? after.children[index] : nil,
                 path: NodePath.child(path, index), scope: scope, styleClasses: styleCurve)
        }
    }

    /// Opacity, colour, or the classes renderers draw with (passthrough and variants).
    private func styleChanged(_ before: ViewNode, _ after: ViewNode, path: String) -> Bool {
        if before.props.opacity != after.props.opacity || before.props.color != after.props.color { return true }
        guard before.props.classes != after.props.classes else { return false }
        let a = old.namespaces.classes[path]
        let b = new.namespaces.classes[path]
        return a?.passthrough != b?.passthrough || a?.variants != b?.variants
    }

    private func scope(of path: String) -> Curve? {
        var best: (length: Int, curve: Curve)?
        for scope in changedScopes where PathPrefix.contains(scope.path, path) {
            if best == nil || scope.path.utf8.count > best!.length { best = (scope.path.utf8.count, scope.curve) }
        }
        return best?.curve
    }

    // MARK: Shared elements

    private mutating func matchElements(disabled: Bool, reduceMotion: Bool, claimed: (old: Set<String>, new: Set<String>)) {
        var olds: [SharedKey: [SharedElement]] = [:]
        var news: [SharedKey: [SharedElement]] = [:]
        for element in old.namespaces.elements where element.isSource && !claimed.old.contains(element.path) {
            olds[element.key, default: []].append(element)
        }
        for element in new.namespaces.elements where element.isSource && !claimed.new.contains(element.path) {
            news[element.key, default: []].append(element)
        }
        let module = new.owner.module
        for key in Set(olds.keys).union(news.keys).sorted() {
            let a = olds[key] ?? []
            let b = news[key] ?? []
            if a.count > 1 || b.count > 1 {
                let side = b.count > 1 ? b : a
                diagnostics.append(
                    Diagnostic(
                        .duplicateSource, .warning,
                        "\(key.key) has \(side.count) sources in the \(b.count > 1 ? "new" : "previous") view (\(side.map(\.path).joined(separator: ", "))); that key does not move. Mark the extra copies as followers",
                        path: side[0].path, module: module, id: side[0].id))
                continue
            }
            guard let from = a.first, let to = b.first else {
                let only = a.first ?? b.first!
                let gone = a.isEmpty ? "previous" : "new"
                diagnostics.append(
                    Diagnostic(
                        .noCounterpart, .info, "\(key.key) at \(only.path) has no counterpart in the \(gone) view",
                        path: only.path, module: module, id: only.id))
                continue
            }
            guard let fromRect = old.rect(at: from.path), let toRect = new.rect(at: to.path) else { continue }
            if from.path == to.path && fromRect.isClose(to: toRect) { continue }
            let stillReason: (DiagnosticCode, String)?
            let curve = scope(of: to.path) ?? scope(of: from.path)
            if disabled {
                stillReason = (.animationDisabled, "the update was sent with animate: false; it takes its new geometry at once")
            } else if reduceMotion {
                stillReason = (.reduceMotion, "Reduce Motion is on; it takes its new geometry at once")
            } else if curve == nil {
                stillReason =
                    unchangedScopes.contains(where: { PathPrefix.contains($0, to.path) })
                    ? (.valueUnchanged, "its animation scope's value did not change; the new geometry applies at once")
                    : (.noAnimationScope, "no animation scope with a changed value and no caller animation hold it; the new geometry applies at once")
            } else {
                stillReason = nil
            }
            if let (code, why) = stillReason {
                diagnostics.append(Diagnostic(code, .info, "\(key.key) at \(to.path): \(why)", path: to.path, module: module, id: to.id))
                continue
            }
            // Nook ids report their key after suffixing (rule 8), as surface moves do.
            let reported = key.namespace == .nook ? SurfaceMatching.answerKeys(to, owner: new.owner, marks: marks).canonical : key.key
            let fromNode = old.node(at: from.path)
            let toNode = new.node(at: to.path)
            elements.append(
                ElementMove(
                    fromPath: from.path, toPath: to.path, key: reported, namespace: key.namespace, module: module,
                    activity: new.owner.activity ?? "", id: to.id, fromSlot: old.name, toSlot: new.name,
                    fromRect: RectMath.start(from: fromRect, to: toRect, properties: to.properties, anchor: to.anchor),
                    toRect: toRect, style: to.style,
                    crossFade: !(fromNode.map { a in toNode.map { SameView.matches(a, $0) } ?? false } ?? false),
                    hideSource: false, clip: .none, properties: to.properties, anchor: to.anchor, curve: curve!))
        }
    }
}
