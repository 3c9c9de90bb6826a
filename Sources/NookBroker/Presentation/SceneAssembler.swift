import NookCore

/// Turns the registry and the presentation into what the layout and the planner take.
public enum SceneAssembler {
    /// The views a presentation shows (SPEC "Presentations").
    public static func content(for state: NookState, registry: Registry) -> SceneContent {
        var content = SceneContent()
        let order = registry.displayOrder
        if let primary = order.first, let activity = registry.activity(primary) {
            content.compactLeading = activity.views[.compactLeading].map { OwnedView(owner: primary.description, view: $0) }
            content.compactTrailing = activity.views[.compactTrailing].map { OwnedView(owner: primary.description, view: $0) }
        } else if let module = registry.compactContentModule, let record = registry.modules[module] {
            content.compactLeading = record.content[.compactLeading].map { OwnedView(owner: module, view: $0) }
            content.compactTrailing = record.content[.compactTrailing].map { OwnedView(owner: module, view: $0) }
        }
        content.minimal = order.dropFirst().compactMap { ref in
            registry.activity(ref)?.views[.minimal].map { OwnedView(owner: ref.description, view: $0) }
        }
        switch state {
        case .hidden, .pill:
            break
        case .peek(let ref):
            content.peek = registry.activity(ref)?.views[.peek].map { OwnedView(owner: ref.description, view: $0) }
        case .expanded(.activity(let ref), _):
            if let view = registry.activity(ref)?.views[.expanded] {
                content.expanded = .activity(OwnedView(owner: ref.description, view: view))
            }
        case .expanded(.home(let module), _):
            if let view = registry.modules[module]?.content[.home] {
                content.expanded = .home(OwnedView(owner: module, view: view))
            }
        case .expanded(.board, _):
            // Tiles in module id order: stable across runs and restarts.
            var firstActivity: [String: ActivityRecord] = [:]
            for ref in order.reversed() { firstActivity[ref.module] = registry.activity(ref) }
            content.expanded = .board(registry.modules.keys.sorted().compactMap { module in
                registry.modules[module].flatMap { tile(for: $0, firstActivity: firstActivity[module]) }
            })
        case .companion(let module):
            content.companion = registry.modules[module]?.content[.home].map { OwnedView(owner: module, view: $0) }
        }
        content.undismissible = order.filter { registry.activity($0)?.dismissible == false }.map(\.description).sorted()
        return content
    }

    /// True when `module` has a board tile: a widget, a home, or an activity with an
    /// expanded view (what the tile opens).
    public static func hasTile(_ module: ModuleRecord) -> Bool {
        module.content[.widget] != nil || module.content[.home] != nil
            || module.activities.values.contains { $0.views[.expanded] != nil }
    }

    /// The module's board tile (slot `widget`, owned by the module): its widget, or, for a
    /// module with a home or an activity that opens but no widget, a plain tile the broker
    /// makes: the module's display name over the label of its first activity (or "Home").
    /// A renderer makes every tile a hit target that opens the module (`OpenSlot`).
    static func tile(for module: ModuleRecord, firstActivity first: ActivityRecord?) -> OwnedView? {
        if let widget = module.content[.widget] { return OwnedView(owner: module.id, view: widget) }
        guard hasTile(module) else { return nil }
        var title = NodeProps()
        title.text = module.info.displayName.isEmpty ? module.id : module.info.displayName
        title.fontSize = 15
        title.fontWeight = "semibold"
        var detail = NodeProps()
        detail.text = first?.accessibilityLabel ?? "Home"
        detail.fontSize = 12
        detail.classes = "opacity-70"
        var stack = NodeProps()
        stack.spacing = 4
        stack.alignment = .leading
        let view = ViewNode(kind: .vstack, props: stack, children: [ViewNode(kind: .text, props: title), ViewNode(kind: .text, props: detail)])
        return OwnedView(owner: module.id, view: view)
    }
}
